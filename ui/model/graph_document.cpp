#include "ui/model/graph_document.h"

#include <QFileInfo>
#include <QUrl>

#include <filesystem>

#include "engine/graph/graph_file.h"
#include "engine/qos/qos_graph.h"
#include "engine/schedulers/scheduler.h"
#include "nodes/register_builtin_nodes.h"
#include "ui/canvas/node_geometry.h"
#include "ui/layout/free_spot.h"
#include "ui/layout/layered_layout.h"
#include "ui/model/graph_edits.h"
#include "ui/model/graph_fragment.h"
#include "ui/model/json_variant.h"
#include "ui/model/parameter_views.h"
#include "ui/model/subgraph_grouping.h"
#include "ui/model/wire_check.h"

namespace isochron::ui {
namespace {

QString localPath(const QString& pathOrUrl) {
    if (pathOrUrl.startsWith(QStringLiteral("file:"))) return QUrl(pathOrUrl).toLocalFile();
    return pathOrUrl;
}

QString joinErrors(const GraphException& e) {
    QStringList lines;
    for (const GraphError& error : e.errors()) lines.append(QString::fromStdString(error.toString()));
    return lines.join('\n');
}

bool isIdentifier(const QString& id) {
    if (id.isEmpty()) return false;
    for (QChar c : id) {
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != '_' && c != '-') return false;
    }
    return true;
}

// A node's note (its "comment" field), or empty.
std::string commentOf(const NodeSpec& node) {
    const auto it = node.extra.find("comment");
    return it != node.extra.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Canvas notes as the file stores them: {"text", "position": [x, y], "size": [w, h]}.
nlohmann::json notesToJson(const QVariantList& notes) {
    nlohmann::json list = nlohmann::json::array();
    for (const QVariant& entry : notes) {
        const QVariantMap n = entry.toMap();
        list.push_back({{"text", n["text"].toString().toStdString()},
                        {"position", {n["x"].toDouble(), n["y"].toDouble()}},
                        {"size", {std::max(80.0, n["width"].toDouble()), std::max(40.0, n["height"].toDouble())}}});
    }
    return list;
}

}  // namespace

GraphDocument::GraphDocument(QObject* parent) : GraphDocument(builtinRegistry(), parent) {}

GraphDocument::GraphDocument(const OperatorRegistry& registry, QObject* parent)
    : QObject(parent),
      registry_(registry),
      resolution_(store_, registry),
      nodes_(store_, resolution_, selection_),
      edges_(store_, resolution_, selection_),
      problems_(resolution_) {
    connect(&undoStack_, &QUndoStack::cleanChanged, this, &GraphDocument::modifiedChanged);
    connect(&undoStack_, &QUndoStack::indexChanged, this, &GraphDocument::historyChanged);
    connect(&undoStack_, &QUndoStack::undoTextChanged, this, &GraphDocument::historyChanged);
    connect(&store_, &GraphStore::graphFieldsChanged, this, &GraphDocument::graphFieldsChanged);
    connect(&store_, &GraphStore::structureChanged, this, &GraphDocument::structureChanged);
    connect(&resolution_, &ResolutionCache::updated, this, &GraphDocument::problemsChanged);
    auto bump = [this] {
        ++revision_;
        Q_EMIT revisionChanged();
    };
    connect(&store_, &GraphStore::structureChanged, this, bump);
    connect(&store_, &GraphStore::nodeMoved, this, bump);
    connect(&store_, &GraphStore::nodesMoved, this, bump);
    connect(&resolution_, &ResolutionCache::updated, this, bump);
    connect(&store_, &GraphStore::nodeAboutToBeRemoved, this, [this](int index) {
        const std::string& id = store_.spec().nodes[static_cast<std::size_t>(index)].id;
        selection_.forgetNode(QString::fromStdString(id));
    });
    connect(&store_, &GraphStore::edgeAboutToBeRemoved, this, [this](int index) {
        selection_.forgetWire(EdgeListModel::keyOf(store_.spec().edges[static_cast<std::size_t>(index)]));
    });
    connect(&store_, &GraphStore::parametersChanged, this, [this](const QString& nodeId, const QStringList& names) {
        const NodeSpec* node = store_.node(nodeId.toStdString());
        for (const QString& name : names) {
            auto value = node->params.find(name.toStdString());
            Q_EMIT parameterChanged(nodeId, name, value == node->params.end() ? QVariant() : jsonToVariant(value->second));
        }
    });
}

QString GraphDocument::displayName() const {
    return filePath_.isEmpty() ? tr("Untitled") : QFileInfo(filePath_).fileName();
}

QVariantMap GraphDocument::schedulerParams() const {
    QVariantMap map;
    for (const auto& [name, value] : store_.spec().scheduler.params) map.insert(QString::fromStdString(name), jsonToVariant(value));
    return map;
}

QVariantList GraphDocument::notes() const {
    QVariantList list;
    const nlohmann::json& extra = store_.spec().extra;
    if (!extra.contains("editor") || !extra["editor"].is_object() || !extra["editor"].contains("notes")) return list;
    for (const nlohmann::json& note : extra["editor"]["notes"]) {
        if (!note.is_object()) continue;
        const nlohmann::json position = note.value("position", nlohmann::json::array({0, 0}));
        const nlohmann::json size = note.value("size", nlohmann::json::array({220, 100}));
        list.append(QVariantMap{{"text", QString::fromStdString(note.value("text", std::string()))},
                                {"x", position.is_array() && position.size() == 2 ? position[0].get<double>() : 0.0},
                                {"y", position.is_array() && position.size() == 2 ? position[1].get<double>() : 0.0},
                                {"width", size.is_array() && size.size() == 2 ? size[0].get<double>() : 220.0},
                                {"height", size.is_array() && size.size() == 2 ? size[1].get<double>() : 100.0}});
    }
    return list;
}

void GraphDocument::writeNotes(nlohmann::json notes, const QString& text, std::string mergeKey) {
    GraphFields after = store_.graphFields();
    if (!after.extra.contains("editor") || !after.extra["editor"].is_object()) after.extra["editor"] = nlohmann::json::object();
    if (notes.empty()) after.extra["editor"].erase("notes");
    else after.extra["editor"]["notes"] = std::move(notes);
    if (after.extra["editor"].empty()) after.extra.erase("editor");
    if (after.extra == store_.spec().extra) return;
    push(new EditGraphFields(store_, store_.graphFields(), std::move(after), text, std::move(mergeKey)));
}

int GraphDocument::addNote(qreal x, qreal y, const QString& text) {
    QVariantList list = notes();
    list.append(QVariantMap{{"text", text}, {"x", x}, {"y", y}, {"width", 220.0}, {"height", 100.0}});
    nlohmann::json notes = notesToJson(list);
    const int index = static_cast<int>(notes.size()) - 1;
    writeNotes(std::move(notes), tr("Add note"), {});
    return index;
}

void GraphDocument::editNote(int index, const QVariantMap& fields) {
    QVariantList list = notes();
    if (index < 0 || index >= list.size()) return;
    QVariantMap note = list[index].toMap();
    for (auto it = fields.begin(); it != fields.end(); ++it) note[it.key()] = it.value();
    list[index] = note;
    nlohmann::json notes = notesToJson(list);
    const bool textEdit = fields.contains("text");
    writeNotes(std::move(notes), textEdit ? tr("Edit note") : tr("Move note"),
               "note/" + std::to_string(index) + (textEdit ? "/text" : "/frame"));
}

void GraphDocument::removeNote(int index) {
    QVariantList list = notes();
    if (index < 0 || index >= list.size()) return;
    list.removeAt(index);
    writeNotes(notesToJson(list), tr("Delete note"), {});
}

bool GraphDocument::valid() { return resolution_.current().valid(); }

void GraphDocument::fail(const QString& message) {
    lastError_ = message;
    Q_EMIT lastErrorChanged();
}

void GraphDocument::push(QUndoCommand* command) { undoStack_.push(command); }

std::set<std::string> GraphDocument::takenIds() const {
    std::set<std::string> ids;
    for (const NodeSpec& node : store_.spec().nodes) ids.insert(node.id);
    return ids;
}

void GraphDocument::clearHistory() {
    undoStack_.clear();
    // clear() does nothing to an empty stack, which may be "never clean" after a recovery.
    undoStack_.setClean();
}

void GraphDocument::newGraph() { replaceGraph(GraphSpec{}, {}); }

std::optional<GraphSpec> GraphDocument::loadFile(const QString& path) {
    try {
        return loadGraphFile(path.toStdString());
    } catch (const GraphException& e) {
        fail(joinErrors(e));
        return std::nullopt;
    }
}

void GraphDocument::replaceGraph(GraphSpec spec, const QString& filePath) {
    selection_.clear();
    store_.reset(std::move(spec));
    std::vector<std::string> unplaced;
    for (const NodeSpec& node : store_.spec().nodes) {
        if (!node.position) unplaced.push_back(node.id);
    }
    if (!unplaced.empty()) layOut({}, false);
    clearHistory();
    filePath_ = filePath.isEmpty() ? QString() : QFileInfo(filePath).absoluteFilePath();
    Q_EMIT filePathChanged();
    Q_EMIT replaced();
}

bool GraphDocument::open(const QString& pathOrUrl) {
    const QString path = localPath(pathOrUrl);
    std::optional<GraphSpec> spec = loadFile(path);
    if (!spec) return false;
    replaceGraph(std::move(*spec), path);
    return true;
}

QString GraphDocument::writeRecovery(const QString& path) const {
    GraphSpec spec = store_.spec();
    spec.baseDirectory.clear();
    try {
        saveGraphFile(spec, path.toStdString());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

bool GraphDocument::restoreRecovery(const QString& recoveryPath, const QString& originalFile, const QString& baseDirectory) {
    std::optional<GraphSpec> spec = loadFile(recoveryPath);
    if (!spec) return false;
    spec->baseDirectory = baseDirectory.toStdString();
    replaceGraph(std::move(*spec), originalFile);
    undoStack_.resetClean();  // unsaved until the user saves it
    return true;
}

QString GraphDocument::writeTo(const QString& path, GraphSpec spec) {
    try {
        spec.baseDirectory.clear();
        saveGraphFile(spec, path.toStdString());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

bool GraphDocument::save() {
    if (filePath_.isEmpty()) {
        fail(tr("This graph has no file yet: use Save As."));
        return false;
    }
    if (QString error = writeTo(filePath_, store_.spec()); !error.isEmpty()) {
        fail(error);
        return false;
    }
    undoStack_.setClean();
    return true;
}

bool GraphDocument::saveAs(const QString& pathOrUrl) {
    const QString path = QFileInfo(localPath(pathOrUrl)).absoluteFilePath();
    const std::filesystem::path folder = std::filesystem::path(path.toStdString()).parent_path();
    GraphSpec spec = store_.spec();
    rebasePaths(spec, registry_, spec.baseDirectory, folder);
    if (QString error = writeTo(path, spec); !error.isEmpty()) {
        fail(error);
        return false;
    }
    spec.baseDirectory = folder;
    bool pathsRewritten = false;
    for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
        pathsRewritten |= spec.nodes[i].params != store_.spec().nodes[i].params || spec.nodes[i].extra != store_.spec().nodes[i].extra;
    }
    if (pathsRewritten) {
        // The history holds the old relative paths, which no longer name the same files from here.
        store_.reset(std::move(spec));
        clearHistory();
    } else {
        store_.setBaseDirectory(folder);
        undoStack_.setClean();
    }
    filePath_ = path;
    Q_EMIT filePathChanged();
    return true;
}

QString GraphDocument::addNode(const QString& typeName, qreal x, qreal y) {
    const OperatorDescriptor* d = registry_.find(typeName.toStdString());
    if (!d) {
        fail(tr("There is no operator type '%1'.").arg(typeName));
        return {};
    }
    NodeSpec node;
    node.type = d->typeName;
    node.id = uniqueNodeId(d->typeName.substr(d->typeName.find('.') + 1), takenIds());
    node.position = NodePosition{x, y};
    auto* edit = new StructureEdit(store_, tr("Add %1").arg(QString::fromStdString(node.id)));
    const QString id = QString::fromStdString(node.id);
    edit->addNode(std::move(node));
    push(edit);
    selection_.selectNode(id);
    return id;
}

QPointF GraphDocument::freeSpot(const QString& typeName, qreal x, qreal y) {
    const OperatorDescriptor* d = registry_.find(typeName.toStdString());
    const double height = geometry::nodeHeight(d ? static_cast<int>(d->inputs.size()) : 1, d ? static_cast<int>(d->outputs.size()) : 1);
    std::vector<CanvasRect> taken;
    const GraphResolution& resolution = resolution_.current();
    for (const NodeSpec& node : store_.spec().nodes) {
        const NodePosition p = node.position.value_or(NodePosition{});
        const NodeResolution* view = resolution.node(node.id);
        const int ins = view ? static_cast<int>(view->inputs.size()) : 0, outs = view ? static_cast<int>(view->outputs.size()) : 0;
        taken.push_back({p.x, p.y, geometry::kNodeWidth, geometry::nodeHeight(ins, outs)});
    }
    for (const QVariant& entry : notes()) {
        const QVariantMap n = entry.toMap();
        taken.push_back({n["x"].toDouble(), n["y"].toDouble(), n["width"].toDouble(), n["height"].toDouble()});
    }
    const CanvasRect spot = nearestFreeSpot(taken, geometry::kNodeWidth, height, x, y, geometry::kGridStep, geometry::kGridStep);
    return {spot.x, spot.y};
}

QString GraphDocument::wireRefusal(const QString& fromNode, const QString& fromPort, const QString& toNode, const QString& toPort) {
    return QString::fromStdString(ui::wireRefusal(store_.spec(), registry_,
                                                  EdgeSpec{fromNode.toStdString(), fromPort.toStdString(),
                                                           toNode.toStdString(), toPort.toStdString()}));
}

QString GraphDocument::connectPorts(const QString& fromNode, const QString& fromPort, const QString& toNode, const QString& toPort) {
    EdgeSpec edge{fromNode.toStdString(), fromPort.toStdString(), toNode.toStdString(), toPort.toStdString()};
    const QString reason = QString::fromStdString(ui::wireRefusal(store_.spec(), registry_, edge));
    if (!reason.isEmpty()) {
        Q_EMIT wireRefused(reason);
        return reason;
    }
    auto* edit = new StructureEdit(store_, tr("Connect %1 to %2").arg(QString::fromStdString(edge.from()), QString::fromStdString(edge.to())));
    edit->addEdge(std::move(edge));
    push(edit);
    return {};
}

QString GraphDocument::firstAcceptingInput(const QString& fromNode, const QString& fromPort, const QString& toNode) {
    const NodeResolution* view = resolution_.current().node(toNode.toStdString());
    if (!view) return {};
    const std::vector<PortView> inputs = view->inputs;
    for (const PortView& input : inputs) {
        const QString port = QString::fromStdString(input.name);
        if (wireRefusal(fromNode, fromPort, toNode, port).isEmpty()) return port;
    }
    return {};
}

QString GraphDocument::rerouteWire(const QString& key, const QString& toNode, const QString& toPort) {
    const int index = edges_.indexOf(key);
    if (index < 0) return tr("there is no such wire");
    EdgeSpec edge = store_.spec().edges[static_cast<std::size_t>(index)];
    edge.toNode = toNode.toStdString();
    edge.toPort = toPort.toStdString();
    GraphSpec without = store_.spec();
    without.edges.erase(without.edges.begin() + index);
    const QString reason = QString::fromStdString(ui::wireRefusal(without, registry_, edge));
    if (!reason.isEmpty()) {
        Q_EMIT wireRefused(reason);
        return reason;
    }
    auto* edit = new StructureEdit(store_, tr("Reroute wire to %1").arg(QString::fromStdString(edge.to())));
    edit->removeEdge(index);
    edit->addEdge(std::move(edge));
    push(edit);
    return {};
}

void GraphDocument::removeWire(const QString& key) {
    const int index = edges_.indexOf(key);
    if (index < 0) return;
    auto* edit = new StructureEdit(store_, tr("Delete wire"));
    edit->removeEdge(index);
    push(edit);
}

void GraphDocument::deleteSelection() {
    const QStringList nodes = selection_.nodes();
    const QStringList wires = selection_.wires();
    if (nodes.isEmpty() && wires.isEmpty()) return;
    auto* edit = new StructureEdit(store_, nodes.size() + wires.size() == 1 ? tr("Delete %1").arg(nodes.isEmpty() ? tr("wire") : nodes.front())
                                                                             : tr("Delete %n items", nullptr, static_cast<int>(nodes.size() + wires.size())));
    for (const QString& key : wires) {
        if (int index = edges_.indexOf(key); index >= 0) edit->removeEdge(index);
    }
    for (const QString& id : nodes) edit->removeNode(id.toStdString());
    push(edit);
}

QString GraphDocument::copySelection() const {
    std::vector<std::string> ids;
    for (const QString& id : selection_.nodes()) ids.push_back(id.toStdString());
    if (ids.empty()) return {};
    return QString::fromStdString(copyFragment(store_.spec(), ids));
}

bool GraphDocument::paste(const QString& text, qreal x, qreal y) {
    GraphFragment fragment;
    try {
        fragment = pasteFragment(text.toStdString(), takenIds(), NodePosition{x, y});
    } catch (const GraphException& e) {
        fail(tr("The clipboard does not hold a graph: %1").arg(joinErrors(e)));
        return false;
    }
    if (fragment.nodes.empty()) return false;
    QStringList ids;
    auto* edit = new StructureEdit(store_, tr("Paste %n node(s)", nullptr, static_cast<int>(fragment.nodes.size())));
    for (NodeSpec& node : fragment.nodes) {
        ids.append(QString::fromStdString(node.id));
        edit->addNode(std::move(node));
    }
    for (EdgeSpec& edge : fragment.edges) edit->addEdge(std::move(edge));
    push(edit);
    selection_.selectNodes(ids);
    return true;
}

void GraphDocument::duplicateSelection() {
    const QString text = copySelection();
    if (text.isEmpty()) return;
    const QVariantMap box = nodes_.bounds(selection_.nodes());
    paste(text, box["x"].toDouble() + 2 * geometry::kGridStep, box["y"].toDouble() + 2 * geometry::kGridStep);
}

void GraphDocument::beginMove() {
    moveStart_.clear();
    for (const QString& id : selection_.nodes()) {
        const NodeSpec* node = store_.node(id.toStdString());
        if (node) moveStart_.push_back({node->id, node->position.value_or(NodePosition{})});
    }
}

void GraphDocument::dragSelection(qreal dx, qreal dy) {
    std::vector<std::pair<int, NodePosition>> positions;
    for (const auto& [id, start] : moveStart_) {
        if (int index = store_.nodeIndex(id); index >= 0) positions.emplace_back(index, NodePosition{start.x + dx, start.y + dy});
    }
    store_.setPositions(positions);
}

void GraphDocument::endMove(qreal gridStep) {
    std::vector<MoveNodes::Move> moves;
    for (const auto& [id, start] : moveStart_) {
        const NodeSpec* node = store_.node(id);
        if (!node) continue;
        NodePosition to = node->position.value_or(start);
        if (gridStep > 0) to = {std::round(to.x / gridStep) * gridStep, std::round(to.y / gridStep) * gridStep};
        if (!(to == start)) moves.push_back({id, start, to});
        else store_.setPosition(store_.nodeIndex(id), start);
    }
    moveStart_.clear();
    if (moves.empty()) return;
    push(new MoveNodes(store_, std::move(moves), tr("Move %n node(s)", nullptr, static_cast<int>(moves.size())), false));
}

void GraphDocument::nudgeSelection(qreal dx, qreal dy) {
    std::vector<MoveNodes::Move> moves;
    for (const QString& id : selection_.nodes()) {
        const NodeSpec* node = store_.node(id.toStdString());
        if (!node) continue;
        const NodePosition from = node->position.value_or(NodePosition{});
        moves.push_back({node->id, from, {from.x + dx, from.y + dy}});
    }
    if (moves.empty()) return;
    push(new MoveNodes(store_, std::move(moves), tr("Nudge %n node(s)", nullptr, static_cast<int>(moves.size())), true));
}

QString GraphDocument::setParameter(const QString& nodeId, const QString& name, const QVariant& value) {
    const NodeSpec* node = store_.node(nodeId.toStdString());
    if (!node) return tr("there is no node '%1'").arg(nodeId);
    const OperatorDescriptor* d = registry_.find(node->type);
    const ParamSpec* p = d ? d->findParam(name.toStdString()) : nullptr;
    const std::optional<ParamSpec> exposed = isSubgraphNode(*node) ? exposedParameter(*node, name.toStdString()) : std::nullopt;
    if (exposed) p = &*exposed;
    if (!p) return tr("'%1' has no parameter '%2'").arg(nodeId, name);
    std::string why;
    auto checked = parameterFromVariant(*p, value, why);
    if (!checked) return QString::fromStdString(why);
    NodeSpec after = *node;
    after.params[p->name] = paramValueToJson(*checked);
    if (after.params == node->params) return {};
    push(new EditNode(store_, *node, std::move(after), tr("Set %1.%2").arg(nodeId, name), node->id + "/params." + p->name));
    return {};
}

void GraphDocument::resetParameter(const QString& nodeId, const QString& name) {
    const NodeSpec* node = store_.node(nodeId.toStdString());
    if (!node || !node->params.count(name.toStdString())) return;
    NodeSpec after = *node;
    after.params.erase(name.toStdString());
    push(new EditNode(store_, *node, std::move(after), tr("Reset %1.%2").arg(nodeId, name)));
}

void GraphDocument::setComment(const QString& nodeId, const QString& text) {
    const NodeSpec* node = store_.node(nodeId.toStdString());
    if (!node) return;
    NodeSpec after = *node;
    if (text.isEmpty()) after.extra.erase("comment");
    else after.extra["comment"] = text.toStdString();
    if (after.extra == node->extra) return;
    push(new EditNode(store_, *node, std::move(after), tr("Comment on %1").arg(nodeId), node->id + "/comment"));
}

QVariantList GraphDocument::qosOf(const QString& nodeId) const {
    const NodeSpec* node = store_.node(nodeId.toStdString());
    QVariantList points;
    std::optional<QosGraph> graph;
    try {
        if (node && node->extra.contains("qos")) graph = QosGraph::fromJson(node->extra["qos"]);
        else if (store_.spec().extra.contains("qos_default")) graph = QosGraph::withDeadline(store_.spec().extra["qos_default"].value("deadline_ms", kDefaultQosDeadlineMs));
    } catch (const std::exception&) {
        graph.reset();
    }
    if (!graph) graph = QosGraph::withDeadline(kDefaultQosDeadlineMs);
    for (const QosPoint& p : graph->points()) points.append(QVariantMap{{"latency", p.latencyMs}, {"utility", p.utility}});
    return points;
}

QString GraphDocument::setQos(const QString& nodeId, const QVariantList& points) {
    const NodeSpec* node = store_.node(nodeId.toStdString());
    if (!node) return tr("there is no node '%1'").arg(nodeId);
    std::vector<QosPoint> qos;
    for (const QVariant& p : points) qos.push_back({p.toMap().value("latency").toDouble(), p.toMap().value("utility").toDouble()});
    try {
        const QosGraph graph(std::move(qos));
        NodeSpec after = *node;
        after.extra["qos"] = graph.toJson();
        if (after.extra == node->extra) return {};
        push(new EditNode(store_, *node, std::move(after), tr("Edit QoS of %1").arg(nodeId), node->id + "/qos"));
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString GraphDocument::renameNode(const QString& nodeId, const QString& newId) {
    if (nodeId == newId) return {};
    if (!isIdentifier(newId)) return tr("an id uses letters, digits, '_' and '-'");
    if (store_.node(newId.toStdString())) return tr("'%1' is already taken").arg(newId);
    if (!store_.node(nodeId.toStdString())) return tr("there is no node '%1'").arg(nodeId);
    const bool wasSelected = selection_.hasNode(nodeId);
    push(new RenameNode(store_, nodeId.toStdString(), newId.toStdString()));
    if (wasSelected) selection_.selectNode(newId);
    return {};
}

void GraphDocument::setGraphName(const QString& name) {
    GraphFields after = store_.graphFields();
    if (after.name == name.toStdString()) return;
    after.name = name.toStdString();
    push(new EditGraphFields(store_, store_.graphFields(), std::move(after), tr("Rename graph")));
}

void GraphDocument::setDescription(const QString& text) {
    GraphFields after = store_.graphFields();
    if (after.description == text.toStdString()) return;
    after.description = text.toStdString();
    push(new EditGraphFields(store_, store_.graphFields(), std::move(after), tr("Edit description")));
}

QString GraphDocument::setScheduler(const QString& name) {
    GraphFields after = store_.graphFields();
    if (after.scheduler.name == name.toStdString()) return {};
    after.scheduler = SchedulerSpec{name.toStdString(), {}};
    try {
        isochron::schedulerParams(after.scheduler);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    push(new EditGraphFields(store_, store_.graphFields(), std::move(after), tr("Use scheduler %1").arg(name)));
    return {};
}

QString GraphDocument::setSchedulerParameter(const QString& name, const QVariant& value) {
    GraphFields after = store_.graphFields();
    const SchedulerInfo* info = nullptr;
    for (const SchedulerInfo& s : availableSchedulers()) {
        if (s.name == after.scheduler.name) info = &s;
    }
    const ParamSpec* p = nullptr;
    for (std::size_t i = 0; info && i < info->params.size(); ++i) {
        if (info->params[i].name == name.toStdString()) p = &info->params[i];
    }
    if (!p) return tr("scheduler '%1' has no parameter '%2'").arg(schedulerName(), name);
    std::string why;
    auto checked = parameterFromVariant(*p, value, why);
    if (!checked) return QString::fromStdString(why);
    after.scheduler.params[p->name] = paramValueToJson(*checked);
    push(new EditGraphFields(store_, store_.graphFields(), std::move(after), tr("Set scheduler %1").arg(name)));
    return {};
}

void GraphDocument::resetSchedulerParameter(const QString& name) {
    GraphFields after = store_.graphFields();
    if (!after.scheduler.params.erase(name.toStdString())) return;
    push(new EditGraphFields(store_, store_.graphFields(), std::move(after), tr("Reset scheduler %1").arg(name)));
}

void GraphDocument::layOut(const std::vector<std::string>& ids, bool undoable) {
    const GraphResolution& resolution = resolution_.current();
    std::vector<std::string> chosen = ids;
    if (chosen.empty()) {
        for (const NodeSpec& node : store_.spec().nodes) chosen.push_back(node.id);
    }
    std::map<std::string, int> indexOf;
    std::vector<LayoutBox> boxes;
    double left = std::numeric_limits<double>::max(), top = std::numeric_limits<double>::max();
    for (const std::string& id : chosen) {
        indexOf[id] = static_cast<int>(boxes.size());
        const NodeResolution* view = resolution.node(id);
        const int ins = view ? static_cast<int>(view->inputs.size()) : 0;
        const int outs = view ? static_cast<int>(view->outputs.size()) : 0;
        const NodeSpec* node = store_.node(id);
        // The box includes the node's note above it, so no note lands on another node.
        boxes.push_back({geometry::kNodeWidth, geometry::nodeHeight(ins, outs) + geometry::commentHeight(commentOf(*node).size())});
        if (node->position) {
            left = std::min(left, node->position->x);
            top = std::min(top, node->position->y);
        }
    }
    if (ids.empty() || left == std::numeric_limits<double>::max()) left = top = 0;
    std::vector<LayoutLink> links;
    for (const EdgeSpec& edge : store_.spec().edges) {
        auto from = indexOf.find(edge.fromNode), to = indexOf.find(edge.toNode);
        if (from != indexOf.end() && to != indexOf.end()) links.push_back({from->second, to->second});
    }
    const LayoutResult layout = layeredLayout(boxes, links);
    std::vector<MoveNodes::Move> moves;
    std::vector<std::pair<int, NodePosition>> positions;
    for (const std::string& id : chosen) {
        const int i = indexOf[id];
        const double noteRoom = geometry::commentHeight(commentOf(*store_.node(id)).size());
        const NodePosition to{std::round((left + layout.x[static_cast<std::size_t>(i)]) / geometry::kGridStep) * geometry::kGridStep,
                              std::ceil((top + layout.y[static_cast<std::size_t>(i)] + noteRoom) / geometry::kGridStep) * geometry::kGridStep};
        const NodePosition from = store_.node(id)->position.value_or(NodePosition{});
        if (undoable) moves.push_back({id, from, to});
        else positions.emplace_back(store_.nodeIndex(id), to);
    }
    store_.setPositions(positions);
    if (undoable && !moves.empty()) push(new MoveNodes(store_, std::move(moves), tr("Auto-layout"), false));
}

void GraphDocument::autoLayout() {
    std::vector<std::string> ids;
    for (const QString& id : selection_.nodes()) ids.push_back(id.toStdString());
    layOut(ids, true);
}

void GraphDocument::revalidate() { resolution_.invalidate(); }

QVariantList GraphDocument::parametersOf(const QString& nodeId) {
    const NodeSpec* node = store_.node(nodeId.toStdString());
    if (!node) return {};
    std::vector<ParamSpec> specs;
    if (const OperatorDescriptor* d = registry_.find(node->type)) specs = d->params;
    const auto& subgraphs = resolution_.current().expanded().subgraphs;
    if (auto subgraph = subgraphs.find(node->id); subgraph != subgraphs.end()) {
        const std::vector<ExposedEndpoint> exposed = subgraph->second.flat.params;  // exposedParameter() may recompute the resolution
        for (const ExposedEndpoint& param : exposed) {
            if (auto spec = exposedParameter(*node, param.name)) specs.push_back(std::move(*spec));
        }
    }
    const NodeResolution* view = resolution_.current().node(node->id);
    QVariantList list;
    for (const ParamSpec& p : specs) {
        auto written = node->params.find(p.name);
        QVariantMap entry = parameterView(p, written == node->params.end() ? nullptr : &written->second);
        if (view) {
            for (const GraphError& e : view->problems) {
                if (e.field == "params." + p.name) entry["problem"] = QString::fromStdString(e.message);
            }
        }
        list.append(entry);
    }
    return list;
}

QVariantMap GraphDocument::operatorOf(const QString& nodeId) const {
    const NodeSpec* node = store_.node(nodeId.toStdString());
    if (node && isSubgraphNode(*node)) {
        return {{"typeName", tr("subgraph")}, {"category", QStringLiteral("subgraph")},
                {"summary", tr("Stands for %1 (double-click to open it)").arg(QString::fromStdString(subgraphReference(*node)))},
                {"documentation", QString()}, {"origin", subgraphFileOf(nodeId)}};
    }
    const OperatorDescriptor* d = node ? registry_.find(node->type) : nullptr;
    if (!d) return {};
    return {{"typeName", QString::fromStdString(d->typeName)},
            {"category", QString::fromStdString(d->category)},
            {"summary", QString::fromStdString(d->summary)},
            {"documentation", QString::fromStdString(d->documentation)},
            {"origin", QString::fromStdString(d->origin)}};
}

QVariantList GraphDocument::schedulers() const {
    QVariantList list;
    const SchedulerSpec& current = store_.spec().scheduler;
    for (const SchedulerInfo& s : availableSchedulers()) {
        QVariantList params;
        for (const ParamSpec& p : s.params) {
            auto written = current.name == s.name ? current.params.find(p.name) : current.params.end();
            params.append(parameterView(p, written == current.params.end() ? nullptr : &written->second));
        }
        list.append(QVariantMap{{"name", QString::fromStdString(s.name)},
                                {"summary", QString::fromStdString(s.summary)},
                                {"params", params}});
    }
    return list;
}

}  // namespace isochron::ui
