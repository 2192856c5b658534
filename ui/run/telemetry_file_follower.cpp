#include "ui/run/telemetry_file_follower.h"

#include <algorithm>

#include "ui/run/telemetry_line.h"

namespace isochron::ui {

TelemetryFileFollower::TelemetryFileFollower(QString path) : path_(std::move(path)), file_(path_) {}

std::vector<TelemetrySnapshot> TelemetryFileFollower::readNew() {
    std::vector<TelemetrySnapshot> snapshots;
    if (!error_.isEmpty()) return snapshots;
    if (!file_.isOpen() && !file_.open(QIODevice::ReadOnly)) return snapshots;  // not created yet
    if (file_.size() < offset_) {
        error_ = QStringLiteral("%1: the file became shorter (another run started writing it?)").arg(path_);
        return snapshots;
    }
    file_.seek(offset_);
    const QByteArray bytes = file_.readAll();
    offset_ += bytes.size();
    partial_.append(bytes.constData(), static_cast<std::size_t>(bytes.size()));
    std::size_t start = 0;
    for (std::size_t end; (end = partial_.find('\n', start)) != std::string::npos; start = end + 1) {
        ++lineNumber_;
        try {
            snapshots.push_back(indexed(partial_.substr(start, end - start)));
        } catch (const TelemetryLineError& e) {
            error_ = QStringLiteral("%1:%2: %3").arg(path_).arg(lineNumber_).arg(QString::fromStdString(e.what()));
            partial_.clear();
            return snapshots;
        }
    }
    partial_.erase(0, start);
    return snapshots;
}

TelemetrySnapshot TelemetryFileFollower::indexed(const std::string& text) {
    TelemetryLine line = parseTelemetryLine(text);
    TelemetrySnapshot& s = line.snapshot;
    std::vector<int> stable(line.nodeIds.size());
    for (std::size_t i = 0; i < line.nodeIds.size(); ++i) {
        auto [it, added] = indexOf_.emplace(line.nodeIds[i], static_cast<int>(nodeIds_.size()));
        if (added) nodeIds_.push_back(line.nodeIds[i]);
        stable[i] = it->second;
    }
    std::vector<NodeTelemetry> nodes(nodeIds_.size());
    for (std::size_t i = 0; i < s.nodes.size(); ++i) nodes[static_cast<std::size_t>(stable[i])] = std::move(s.nodes[i]);
    s.nodes = std::move(nodes);
    for (OutputTelemetry& o : s.outputs) {
        const std::string& id = line.nodeIds[static_cast<std::size_t>(o.node)];
        if (std::find(outputIds_.begin(), outputIds_.end(), id) == outputIds_.end()) outputIds_.push_back(id);
        o.node = stable[static_cast<std::size_t>(o.node)];
    }
    for (QueueTelemetry& q : s.queues) q.node = stable[static_cast<std::size_t>(q.node)];
    return std::move(s);
}

}  // namespace isochron::ui
