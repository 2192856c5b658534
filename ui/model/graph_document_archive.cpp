// GraphDocument's record toggle on wires: "Record this wire" adds an io.archive_sink fed by the
// wire's output, "Stop recording" removes it again; "Replay" adds an io.archive_source standing in for
// a recorded output (signals, events or scalars). Each is one undo step (docs/archive.md, "In the editor").
#include <QDir>
#include <QFileInfo>
#include <QUrl>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "ui/canvas/node_geometry.h"
#include "ui/canvas/wire_curve.h"
#include "ui/model/graph_document.h"
#include "ui/model/graph_edits.h"
#include "ui/model/graph_fragment.h"

namespace isochron::ui {
namespace {

constexpr const char* kRecorderType = "io.archive_sink";
constexpr const char* kReplayType = "io.archive_source";

// A port name without a bus's trailing '*' ("out*" -> "out").
std::string portBase(const std::string& port) { return !port.empty() && port.back() == '*' ? port.substr(0, port.size() - 1) : port; }

// Whether `type` (as the validator spells it) is something io.archive_sink records: an f32 signal,
// scalars or events; an unresolved type ("any", "signal<?>") is let through, the run says more.
bool recordable(const std::string& type) {
    if (type == "signal<f32>" || type == "scalar" || type == "event") return true;
    return type.find('?') != std::string::npos || type == "any";
}

}  // namespace

QString GraphDocument::defaultArchivePath() const {
    if (filePath_.isEmpty()) return QStringLiteral("recording.archive.sqlite");
    QString name = QFileInfo(filePath_).fileName();
    for (const QString& suffix : {QStringLiteral(".isograph.json"), QStringLiteral(".json")}) {
        if (name.endsWith(suffix)) {
            name.chop(suffix.size());
            break;
        }
    }
    return name + QStringLiteral(".archive.sqlite");
}

QString GraphDocument::recorderOf(const QString& key) const {
    const int index = edges_.indexOf(key);
    if (index < 0) return {};
    const EdgeSpec& wire = store_.spec().edges[static_cast<std::size_t>(index)];
    for (const NodeSpec& node : store_.spec().nodes) {
        if (node.type != kRecorderType) continue;
        int fromThisOutput = 0, fromElsewhere = 0;
        for (const EdgeSpec& edge : store_.spec().edges) {
            if (edge.toNode != node.id) continue;
            (edge.fromNode == wire.fromNode && edge.fromPort == wire.fromPort ? fromThisOutput : fromElsewhere) += 1;
        }
        if (fromThisOutput == 1 && fromElsewhere == 0) return QString::fromStdString(node.id);
    }
    return {};
}

QString GraphDocument::recordWire(const QString& key) {
    const int index = edges_.indexOf(key);
    if (index < 0) {
        fail(tr("There is no wire '%1'.").arg(key));
        return {};
    }
    if (const QString recorder = recorderOf(key); !recorder.isEmpty()) {
        fail(tr("This output is already recorded by '%1'.").arg(recorder));
        return {};
    }
    const EdgeSpec wire = store_.spec().edges[static_cast<std::size_t>(index)];
    const bool bus = wire.fromPort.ends_with('*');
    const std::string base = portBase(wire.fromPort);
    int channels = 1;
    if (const NodeResolution* source = resolution_.current().node(wire.fromNode)) {
        const int first = resolution_.current().portIndex(wire.fromNode, wire.fromPort, true);
        if (first >= 0) {
            const std::string& type = source->outputs[static_cast<std::size_t>(first)].type;
            if (!recordable(type)) {
                fail(tr("An archive records f32 signals, scalars and events; %1 carries %2.")
                         .arg(QString::fromStdString(wire.from()), QString::fromStdString(type)));
                return {};
            }
        }
        if (bus) channels = std::max(resolution_.current().busWidth(wire.fromNode, wire.fromPort, true), 1);
    }
    NodeSpec recorder;
    recorder.type = kRecorderType;
    recorder.id = uniqueNodeId("record_" + wire.fromNode + "_" + base, takenIds());
    recorder.params["path"] = defaultArchivePath().toStdString();
    recorder.params["stream"] = wire.fromNode + "." + base;
    recorder.params["channels"] = channels;
    if (!filePath_.isEmpty()) recorder.params["graph"] = displayName().toStdString();
    else if (!graphName().isEmpty()) recorder.params["graph"] = graphName().toStdString();
    const NodeSpec* source = store_.node(wire.fromNode);
    // On the rank of the output it records: what it records never crosses ranks, and no channel
    // runs back to an earlier rank (docs/scale-out.md).
    if (source) recorder.partition = source->partition;
    const NodePosition near = source && source->position ? *source->position : NodePosition{};
    const QPointF spot = freeSpot(QString::fromLatin1(kRecorderType), near.x + geometry::kNodeWidth + 3 * geometry::kGridStep,
                                  near.y + 5 * geometry::kGridStep);
    recorder.position = NodePosition{spot.x(), spot.y()};
    const QString id = QString::fromStdString(recorder.id);
    auto* edit = new StructureEdit(store_, tr("Record %1").arg(QString::fromStdString(wire.from())));
    edit->addNode(std::move(recorder));
    edit->addEdge(EdgeSpec{wire.fromNode, wire.fromPort, id.toStdString(), bus ? "in*" : "in0"});
    push(edit);
    return id;
}

bool GraphDocument::stopRecordingWire(const QString& key) {
    const QString recorder = recorderOf(key);
    if (recorder.isEmpty()) return false;
    const EdgeSpec& wire = store_.spec().edges[static_cast<std::size_t>(edges_.indexOf(key))];
    auto* edit = new StructureEdit(store_, tr("Stop recording %1").arg(QString::fromStdString(wire.from())));
    edit->removeNode(recorder.toStdString());
    push(edit);
    return true;
}

bool GraphDocument::toggleRecording(const QString& key) {
    if (stopRecordingWire(key)) return false;
    return !recordWire(key).isEmpty();
}

QString GraphDocument::replayArchive(const QString& path, const QString& stream, const QString& type, int channels, double from, double duration,
                                     qreal x, qreal y) {
    const bool items = type == QStringLiteral("event") || type == QStringLiteral("scalar");
    if (!items && type != QStringLiteral("signal<f32>")) {
        fail(tr("An archive replays signal<f32>, event or scalar streams, not '%1'.").arg(type));
        return {};
    }
    if (items) channels = 1;  // an item stream replays on out0
    if (!(from >= 0) || !(duration > 0)) {
        fail(tr("Choose an interval to replay (from %1 s for %2 s is none).").arg(from).arg(duration));
        return {};
    }
    // The archive by a path relative to the graph when it sits beside it (it moves with the graph).
    QString archive = QFileInfo(path.startsWith(QStringLiteral("file:")) ? QUrl(path).toLocalFile() : path).absoluteFilePath();
    if (!baseDirectory().isEmpty() && QFileInfo(archive).absolutePath() == QDir(baseDirectory()).absolutePath()) {
        archive = QFileInfo(archive).fileName();
    }
    NodeSpec replay;
    replay.type = kReplayType;
    std::string base = "replay_" + stream.toStdString();
    for (char& c : base) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
    }
    replay.id = uniqueNodeId(base, takenIds());
    replay.params["path"] = archive.toStdString();
    replay.params["stream"] = stream.toStdString();
    replay.params["channels"] = std::max(1, channels);
    // Said, not read from the archive: the node stays valid where the file is not (yet) present.
    replay.params["type"] = type.toStdString();
    replay.params["from"] = from;
    replay.params["duration"] = duration;
    // A stream recordWire named "node.port" stands in for that output.
    const std::string name = stream.toStdString();
    const std::size_t dot = name.rfind('.');
    const NodeSpec* origin = dot == std::string::npos ? nullptr : store_.node(name.substr(0, dot));
    const std::string originPort = dot == std::string::npos ? std::string() : name.substr(dot + 1);
    // On the rank of the output it stands in for, so its wires cross ranks as that output's did.
    if (origin) replay.partition = origin->partition;
    const QString id = QString::fromStdString(replay.id);
    // The output's wires move to the replay: the port itself (one channel) to out0, its bus
    // ("port*", recorded as one stream of its channels) to out*, one port of the bus to the same index.
    std::vector<int> movedEdges;
    std::vector<EdgeSpec> replayEdges;
    if (origin) {
        const auto& edges = store_.spec().edges;
        for (std::size_t e = 0; e < edges.size(); ++e) {
            const EdgeSpec& edge = edges[e];
            if (edge.fromNode != origin->id || !edge.fromPort.starts_with(originPort)) continue;
            const std::string suffix = edge.fromPort.substr(originPort.size());
            const bool digits = !suffix.empty() && suffix.find_first_not_of("0123456789") == std::string::npos;
            std::string port;
            if (suffix.empty() && channels == 1) port = "out0";
            else if (suffix == "*") port = "out*";
            else if (digits && std::stoi(suffix) < channels) port = "out" + suffix;
            const NodeSpec* consumer = store_.node(edge.toNode);
            if (port.empty() || (consumer && consumer->type == kRecorderType)) continue;
            movedEdges.push_back(static_cast<int>(e));
            replayEdges.push_back(EdgeSpec{id.toStdString(), port, edge.toNode, edge.toPort});
        }
    }
    const QPointF spot = origin && origin->position ? replaySpot(*origin, replayEdges, items ? 1 : std::max(1, channels))
                                                    : freeSpot(QString::fromLatin1(kReplayType), x, y);
    replay.position = NodePosition{spot.x(), spot.y()};
    auto* edit = new StructureEdit(store_, tr("Replay %1 from %2 s").arg(stream).arg(from));
    edit->addNode(std::move(replay));
    for (int e : movedEdges) edit->removeEdge(e);
    for (EdgeSpec& edge : replayEdges) edit->addEdge(std::move(edge));
    push(edit);
    selection_.selectNode(id);
    return id;
}

QPointF GraphDocument::replaySpot(const NodeSpec& origin, const std::vector<EdgeSpec>& wires, int outputs) {
    const NodePosition at = origin.position.value_or(NodePosition{});
    const double height = geometry::nodeHeight(0, outputs);
    const GraphResolution& resolution = resolution_.current();
    std::vector<std::pair<std::string, CanvasRect>> boxes;
    for (const NodeSpec& node : store_.spec().nodes) {
        const NodePosition p = node.position.value_or(NodePosition{});
        const NodeResolution* view = resolution.node(node.id);
        const int ins = view ? static_cast<int>(view->inputs.size()) : 0, outs = view ? static_cast<int>(view->outputs.size()) : 0;
        boxes.emplace_back(node.id, CanvasRect{p.x, p.y, geometry::kNodeWidth, geometry::nodeHeight(ins, outs)});
    }
    auto clear = [&](QPointF spot) {
        for (const EdgeSpec& wire : wires) {
            const std::string& port = wire.fromPort;
            const int index = port.ends_with('*') ? 0 : std::max(0, std::atoi(port.c_str() + 3));  // "outN"
            const QPointF from(spot.x() + geometry::kNodeWidth, spot.y() + geometry::portOffsetY(index));
            const NodeSpec* consumer = store_.node(wire.toNode);
            const NodePosition c = consumer && consumer->position ? *consumer->position : NodePosition{};
            const QPointF to(c.x, c.y + geometry::portOffsetY(std::max(0, resolution.portIndex(wire.toNode, wire.toPort, false))));
            for (const auto& [id, box] : boxes) {
                if (id != wire.toNode && wirePassesOver(from, to, box)) return false;
            }
        }
        return true;
    };
    const QString type = QString::fromLatin1(kReplayType);
    const QPointF below = freeSpot(type, at.x, at.y + 6 * geometry::kGridStep);
    if (clear(below)) return below;
    const QPointF above = freeSpot(type, at.x, at.y - height - 3 * geometry::kGridStep);
    return clear(above) ? above : below;
}

}  // namespace isochron::ui
