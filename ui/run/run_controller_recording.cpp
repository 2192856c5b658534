// RunController's live recordings: "Record this wire" on a running graph records from that moment
// through wire taps (ui/run/live_recording.h) into the stream its io.archive_sink names, instead of
// waiting for a restart (which would replay a file from its start); the recorder node stays in the
// graph, so the next start records from the beginning. Stop recording (or undo) ends it.
#include <QFileInfo>

#include <algorithm>

#include "engine/archive/archive_triggers.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/data_at_risk_warning.h"
#include "ui/run/run_controller.h"
#include "ui/run/tap_fan_out.h"

namespace isochron::ui {
namespace {

constexpr const char* kRecorderType = "io.archive_sink";
const QString kLiveRecordingProblems = QStringLiteral("live recording");  // the problems panel's source
// The problems panel's source for recordings whole only with their write-ahead log: kept after the
// run, unlike the live recordings' problems, until the data are safe.
const QString kDataAtRiskProblems = QStringLiteral("data at risk");

std::vector<EdgeSpec> wiresInto(const GraphSpec& spec, const std::string& node) {
    std::vector<EdgeSpec> wires;
    for (const EdgeSpec& edge : spec.edges) {
        if (edge.toNode == node) wires.push_back(edge);
    }
    return wires;
}

}  // namespace

QStringList RunController::liveRecorders() const {
    QStringList ids;
    for (const auto& [id, recorder] : liveRecorders_) ids.append(QString::fromStdString(id));
    return ids;
}

GraphSpec RunController::withoutLiveRecorders(const GraphSpec& spec) const {
    GraphSpec rest = spec;
    std::erase_if(rest.nodes, [&](const NodeSpec& node) { return liveRecorders_.count(node.id) > 0; });
    std::erase_if(rest.edges, [&](const EdgeSpec& edge) { return liveRecorders_.count(edge.toNode) > 0; });
    return rest;
}

void RunController::syncLiveRecordings() {
    if (!document_) return;
    const GraphSpec& now = document_->spec();
    std::vector<GraphError> refusals;
    // Recorders removed (Stop recording, undo) or changed since they began: their recordings end.
    for (auto it = liveRecorders_.begin(); it != liveRecorders_.end();) {
        const NodeSpec* node = now.findNode(it->first);
        const bool same = node && node->type == it->second.node.type && node->params == it->second.node.params &&
                          wiresInto(now, it->first) == it->second.wires;
        if (same && job_) {
            ++it;
            continue;
        }
        const std::vector<Endpoint> ports = it->second.ports;
        endLiveRecording(it->first, *it->second.recording);
        it = liveRecorders_.erase(it);
        for (const Endpoint& port : ports) {
            recordTaps_.erase({port.node, port.name});
            refreshTap(port);
        }
    }
    if (!job_) return;
    // Recorders the running engine does not have: they record from now on.
    for (const NodeSpec& node : now.nodes) {
        if (node.type != kRecorderType || runningSpec_.findNode(node.id) || liveRecorders_.count(node.id)) continue;
        if (const QString why = startLiveRecording(node.id); !why.isEmpty()) refusals.push_back(GraphError{node.id, "", "", why.toStdString()});
    }
    document_->problems()->setProblems(kLiveRecordingProblems, std::move(refusals));
}

QString RunController::startLiveRecording(const std::string& recorderId) {
    const GraphSpec& now = document_->spec();
    const std::vector<EdgeSpec> wires = wiresInto(now, recorderId);
    if (wires.empty()) return {};  // nothing to record yet
    for (const EdgeSpec& wire : wires) {
        if (!runningSpec_.findNode(wire.fromNode)) return tr("records from the next start: '%1' was added since this run started").arg(QString::fromStdString(wire.fromNode));
    }
    // The validator fills what the node would store (the resolved path, producer, geometry) and
    // names the engine ports the wires leave, subgraphs expanded as the running engine has them.
    ValidatedGraph graph;
    try {
        graph = validateGraph(now, document_->registry());
    } catch (const std::exception&) {
        return tr("records from the next start: the graph does not validate now (see the other problems)");
    }
    const auto recorder = std::find_if(graph.nodes.begin(), graph.nodes.end(), [&](const ValidatedNode& n) { return n.id == recorderId; });
    if (recorder == graph.nodes.end()) return {};
    const int recorderIndex = static_cast<int>(recorder - graph.nodes.begin());
    std::vector<std::pair<int, Endpoint>> inputs;  // by input port
    for (const ValidatedEdge& edge : graph.edges) {
        if (edge.toNode != recorderIndex) continue;
        const ValidatedNode& from = graph.nodes[static_cast<std::size_t>(edge.fromNode)];
        inputs.emplace_back(edge.toPort, Endpoint{from.id, from.outputs[static_cast<std::size_t>(edge.fromPort)].name});
    }
    std::sort(inputs.begin(), inputs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    // The validator refused a mix: the wires carry f32 signals (one channel each) or one scalar or event stream.
    const bool signal = std::all_of(recorder->inputs.begin(), recorder->inputs.end(), [](const ResolvedPort& input) { return input.type.kind == ItemKind::Signal; });
    const ParamSet& params = recorder->params;
    if (params.getString("representation") == "downsample") return tr("records from the next start: a downsampled recording starts with the run");
    ArchivedStreamInfo info;
    info.name = params.getString("stream");
    info.kind = signal ? ArchivedStreamInfo::Kind::Signal : ArchivedStreamInfo::Kind::Items;
    info.channels = signal ? static_cast<int>(inputs.size()) : 1;
    info.sampleType = signal ? "f32" : "json";
    info.units = params.getString("units");
    info.graph = params.getString("graph");
    info.node = recorderId;
    info.producer = params.getString("producer");
    info.geometry = params.getString("geometry");
    info.representation = params.getString("representation");
    ArchiveWriter::Options options;
    options.queueBytes = static_cast<std::size_t>(params.getReal("queue_mb") * (1 << 20));
    options.commitNs = static_cast<TimeNs>(params.getReal("commit_s") * 1e9);
    options.keepBytes = static_cast<std::int64_t>(params.getReal("keep_gb") * 1e9);
    options.trigger = [](const CommittedInterval& interval) { ArchiveTriggers::instance().notify(interval); };
    LiveRecorder live;
    try {
        live.recording = std::make_unique<LiveRecording>(params.getString("path"), std::move(info), std::move(options), params.getReal("keep_hours"),
                                                         params.getReal("live_s"));
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    live.node = *now.findNode(recorderId);
    live.wires = wires;
    for (std::size_t channel = 0; channel < inputs.size(); ++channel) {
        const Endpoint& port = inputs[channel].second;
        live.ports.push_back(port);
        recordTaps_[{port.node, port.name}] = live.recording->taps()[channel];
        refreshTap(port);
    }
    liveRecorders_.emplace(recorderId, std::move(live));
    return {};
}

void RunController::endLiveRecordings() {
    if (liveRecorders_.empty()) return;
    for (auto& [id, recorder] : liveRecorders_) {
        for (const Endpoint& port : recorder.ports) recordTaps_.erase({port.node, port.name});
        endLiveRecording(id, *recorder.recording);
    }
    liveRecorders_.clear();
    if (document_) document_->problems()->setProblems(kLiveRecordingProblems, {});
}

void RunController::endLiveRecording(const std::string& recorderId, LiveRecording& recording) {
    std::optional<std::string> unfolded = recording.end();  // writes what its taps still hold, commits, folds the log
    if (!unfolded) return;
    std::erase_if(dataAtRisk_, [&](const DataAtRisk& risk) { return risk.recorder == recorderId; });
    dataAtRisk_.push_back(DataAtRisk{recorderId, QString::fromStdString(recording.path() + "-wal"), dataAtRiskWarning(*unfolded)});
    checkDataAtRisk();
}

void RunController::keepDataAtRiskOfRun(const std::map<std::string, std::string>& recorderLogs, const QVariantMap& summary) {
    const QVariantMap nodes = summary.value("nodes").toMap();
    for (const auto& [recorder, log] : recorderLogs) {
        for (const QString& warning : nodes.value(QString::fromStdString(recorder)).toMap().value("warnings").toStringList()) {
            if (!isDataAtRiskWarning(warning.toStdString())) continue;
            std::erase_if(dataAtRisk_, [&](const DataAtRisk& risk) { return risk.recorder == recorder; });
            dataAtRisk_.push_back(DataAtRisk{recorder, QString::fromStdString(log), warning.toStdString()});
        }
    }
    checkDataAtRisk();
}

void RunController::checkDataAtRisk() {
    // The log is folded once a later recording (or sqlite3) closes the archive with room on the disk:
    // SQLite then removes it, and the archive file alone holds everything.
    std::erase_if(dataAtRisk_, [](const DataAtRisk& risk) { return QFileInfo(risk.log).size() == 0; });
    std::vector<GraphError> rows;
    for (const DataAtRisk& risk : dataAtRisk_) rows.push_back(GraphError{risk.recorder, "", "", risk.warning});
    if (dataAtRisk_.empty()) dataAtRiskTimer_.stop();
    else if (!dataAtRiskTimer_.isActive()) dataAtRiskTimer_.start();
    if (!document_) return;
    const std::vector<GraphError>& shown = document_->problems()->problemsOf(kDataAtRiskProblems);
    const bool same = std::equal(rows.begin(), rows.end(), shown.begin(), shown.end(),
                                 [](const GraphError& a, const GraphError& b) { return a.node == b.node && a.message == b.message; });
    if (!same) document_->problems()->setProblems(kDataAtRiskProblems, std::move(rows));
}

void RunController::dismissDataAtRisk(const QString& recorderId) {
    std::erase_if(dataAtRisk_, [&](const DataAtRisk& risk) { return risk.recorder == recorderId.toStdString(); });
    checkDataAtRisk();
}

void RunController::refreshTap(const Endpoint& output) {
    const auto probe = probeTaps_.find({output.node, output.name});
    const auto record = recordTaps_.find({output.node, output.name});
    std::shared_ptr<WireTap> tap;
    if (probe != probeTaps_.end() && record != recordTaps_.end()) tap = std::make_shared<TapFanOut>(probe->second, record->second);
    else if (probe != probeTaps_.end()) tap = probe->second;
    else if (record != recordTaps_.end()) tap = record->second;
    if (running()) setEngineTap(output, std::move(tap));
}

void RunController::reportLiveRecordingProblems() {
    if (!document_ || liveRecorders_.empty()) return;
    std::vector<GraphError> problems;
    for (const auto& [id, recorder] : liveRecorders_) {
        if (std::optional<std::string> problem = recorder.recording->problem()) problems.push_back(GraphError{id, "", "", *problem});
    }
    if (!problems.empty()) document_->problems()->setProblems(kLiveRecordingProblems, std::move(problems));
}

}  // namespace isochron::ui
