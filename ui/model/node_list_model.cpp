#include "ui/model/node_list_model.h"

#include <QRectF>

#include <vector>

#include "engine/graph/subgraph.h"
#include "ui/canvas/node_geometry.h"
#include "ui/canvas/port_colors.h"

namespace isochron::ui {

NodeListModel::NodeListModel(GraphStore& store, ResolutionCache& resolution, Selection& selection, QObject* parent)
    : QAbstractListModel(parent), store_(store), resolution_(resolution), selection_(selection) {
    connect(&store, &GraphStore::aboutToReset, this, [this] { beginResetModel(); });
    connect(&store, &GraphStore::wasReset, this, [this] { endResetModel(); });
    connect(&store, &GraphStore::nodeAboutToBeInserted, this, [this](int i) { beginInsertRows({}, i, i); });
    connect(&store, &GraphStore::nodeInserted, this, [this] { endInsertRows(); });
    connect(&store, &GraphStore::nodeAboutToBeRemoved, this, [this](int i) { beginRemoveRows({}, i, i); });
    connect(&store, &GraphStore::nodeRemoved, this, [this] { endRemoveRows(); });
    connect(&store, &GraphStore::nodeChanged, this, [this](int i) { Q_EMIT dataChanged(index(i), index(i)); });
    connect(&store, &GraphStore::nodeMoved, this, [this](int i) { Q_EMIT dataChanged(index(i), index(i), {XRole, YRole}); });
    connect(&store, &GraphStore::nodesMoved, this, [this] { refreshAll({XRole, YRole}); });
    connect(&resolution, &ResolutionCache::updated, this, [this] {
        refreshAll({CategoryRole, SummaryRole, InputsRole, OutputsRole, ProblemsRole, StatusRole, StatusTextRole, HeightRole, KnownRole});
    });
    connect(&selection, &Selection::nodeToggled, this, [this](const QString& id) {
        if (int row = indexOf(id); row >= 0) Q_EMIT dataChanged(index(row), index(row), {SelectedRole});
    });
}

int NodeListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(store_.spec().nodes.size());
}

QHash<int, QByteArray> NodeListModel::roleNames() const {
    return {{IdRole, "nodeId"},     {TypeRole, "typeName"},     {CategoryRole, "category"},   {SummaryRole, "summary"},
            {XRole, "posX"},        {YRole, "posY"},            {WidthRole, "boxWidth"},      {HeightRole, "boxHeight"},
            {InputsRole, "inputs"}, {OutputsRole, "outputs"},   {ProblemsRole, "problems"},   {StatusRole, "status"},
            {StatusTextRole, "statusText"}, {SelectedRole, "selected"}, {CommentRole, "comment"}, {KnownRole, "known"},
            {SkewTextRole, "skewText"}, {PartitionRole, "partition"}};
}

QVariantList NodeListModel::portList(const NodeSpec& node, bool outputs) const {
    QVariantList list;
    const NodeResolution* view = resolution_.current().node(node.id);
    if (!view) return list;
    const auto& ports = outputs ? view->outputs : view->inputs;
    for (std::size_t i = 0; i < ports.size(); ++i) {
        const PortView& port = ports[i];
        bool connected = false;
        for (const EdgeSpec& edge : store_.spec().edges) {
            const bool bus = outputs ? edge.fromPort.ends_with('*') : edge.toPort.ends_with('*');
            const std::string& end = outputs ? edge.fromPort : edge.toPort;
            const std::string& endNode = outputs ? edge.fromNode : edge.toNode;
            if (endNode != node.id) continue;
            if (end == port.name || (bus && port.name.starts_with(end.substr(0, end.size() - 1)))) connected = true;
        }
        list.append(QVariantMap{{"name", QString::fromStdString(port.name)},
                                {"type", QString::fromStdString(port.type)},
                                {"doc", QString::fromStdString(port.doc)},
                                {"optional", port.optional},
                                {"concrete", port.concrete},
                                {"channels", QString::fromStdString(port.channels)},
                                {"connected", connected},
                                {"color", portTypeColor(port.type)},
                                {"offsetY", geometry::portOffsetY(static_cast<int>(i))}});
    }
    return list;
}

QVariant NodeListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const NodeSpec& node = store_.spec().nodes[static_cast<std::size_t>(index.row())];
    const QString id = QString::fromStdString(node.id);
    auto resolved = [&]() { return resolution_.current().node(node.id); };
    switch (role) {
        case IdRole: return id;
        case TypeRole: return QString::fromStdString(isSubgraphNode(node) ? subgraphReference(node) : node.type);
        case CategoryRole:
        case SummaryRole: {
            if (isSubgraphNode(node)) return role == CategoryRole ? QStringLiteral("subgraph") : tr("Subgraph: %1").arg(QString::fromStdString(subgraphReference(node)));
            const OperatorDescriptor* d = resolution_.registry().find(node.type);
            if (!d) return QString();
            return QString::fromStdString(role == CategoryRole ? d->category : d->summary);
        }
        case XRole: return node.position ? node.position->x : 0.0;
        case YRole: return node.position ? node.position->y : 0.0;
        case WidthRole: return geometry::kNodeWidth;
        case HeightRole: {
            const NodeResolution* view = resolved();
            if (!view) return geometry::nodeHeight(0, 0);
            return geometry::nodeHeight(static_cast<int>(view->inputs.size()), static_cast<int>(view->outputs.size()));
        }
        case InputsRole: return portList(node, false);
        case OutputsRole: return portList(node, true);
        case ProblemsRole: {
            QStringList problems;
            if (const NodeResolution* view = resolved()) {
                for (const GraphError& e : view->problems) problems.append(QString::fromStdString(e.toString()));
            }
            return problems;
        }
        case StatusRole:
        case StatusTextRole: {
            auto run = runStates_.constFind(id);
            const NodeResolution* view = resolved();
            const bool hasProblems = view && !view->problems.empty();
            if (run != runStates_.cend() && !run->state.isEmpty()) {
                return role == StatusRole ? run->state : run->detail;
            }
            if (hasProblems) {
                return role == StatusRole ? QStringLiteral("error")
                                          : QString::fromStdString(view->problems.front().message);
            }
            return QString();
        }
        case SkewTextRole: {
            auto run = runStates_.constFind(id);
            return run != runStates_.cend() ? run->skew : QString();
        }
        case SelectedRole: return selection_.hasNode(id);
        case PartitionRole: return node.partition.value_or(-1);
        case CommentRole:
            return node.extra.contains("comment") && node.extra["comment"].is_string()
                       ? QString::fromStdString(node.extra["comment"].get<std::string>())
                       : QString();
        case KnownRole: {
            const NodeResolution* view = resolved();
            return view && view->known;
        }
        default: return {};
    }
}

int NodeListModel::indexOf(const QString& id) const { return store_.nodeIndex(id.toStdString()); }

QVariantMap NodeListModel::get(const QString& id) const {
    QVariantMap map;
    const int row = indexOf(id);
    if (row < 0) return map;
    const auto roles = roleNames();
    for (auto it = roles.begin(); it != roles.end(); ++it) map.insert(QString::fromUtf8(it.value()), data(index(row), it.key()));
    return map;
}

QStringList NodeListModel::nodesIn(qreal x, qreal y, qreal width, qreal height) const {
    const QRectF band = QRectF(x, y, width, height).normalized();
    QStringList ids;
    for (int row = 0; row < rowCount(); ++row) {
        const QRectF box(data(index(row), XRole).toDouble(), data(index(row), YRole).toDouble(), geometry::kNodeWidth,
                         data(index(row), HeightRole).toDouble());
        if (band.intersects(box)) ids.append(data(index(row), IdRole).toString());
    }
    return ids;
}

QVariantMap NodeListModel::portAt(qreal x, qreal y, qreal tolerance) const {
    const GraphResolution& resolution = resolution_.current();
    QVariantMap body;
    for (const NodeSpec& node : store_.spec().nodes) {
        const NodePosition p = node.position.value_or(NodePosition{});
        const NodeResolution* view = resolution.node(node.id);
        if (!view) continue;
        for (bool output : {false, true}) {
            const auto& ports = output ? view->outputs : view->inputs;
            const double dotX = p.x + (output ? geometry::kNodeWidth : 0.0);
            if (std::abs(x - dotX) > tolerance) continue;
            for (std::size_t i = 0; i < ports.size(); ++i) {
                const double dotY = p.y + geometry::portOffsetY(static_cast<int>(i));
                if (std::abs(y - dotY) > geometry::kPortRowHeight / 2) continue;
                return {{"nodeId", QString::fromStdString(node.id)}, {"port", QString::fromStdString(ports[i].name)},
                        {"output", output}, {"type", QString::fromStdString(ports[i].type)},
                        {"color", portTypeColor(ports[i].type)}, {"x", dotX}, {"y", dotY}};
            }
        }
        const double height = geometry::nodeHeight(static_cast<int>(view->inputs.size()), static_cast<int>(view->outputs.size()));
        if (x >= p.x && x <= p.x + geometry::kNodeWidth && y >= p.y && y <= p.y + height) {
            body = {{"nodeId", QString::fromStdString(node.id)}};
        }
    }
    return body;
}

QVariantMap NodeListModel::bounds(const QStringList& ids) const {
    QRectF box;
    for (int row = 0; row < rowCount(); ++row) {
        if (!ids.isEmpty() && !ids.contains(data(index(row), IdRole).toString())) continue;
        box |= QRectF(data(index(row), XRole).toDouble(), data(index(row), YRole).toDouble(), geometry::kNodeWidth,
                      data(index(row), HeightRole).toDouble());
    }
    return {{"x", box.x()}, {"y", box.y()}, {"width", box.width()}, {"height", box.height()}};
}

void NodeListModel::setRunStates(QHash<QString, NodeRunState> states) {
    std::vector<int> changed;
    const auto& nodes = store_.spec().nodes;
    for (std::size_t row = 0; row < nodes.size(); ++row) {
        const QString id = QString::fromStdString(nodes[row].id);
        const auto before = runStates_.constFind(id), after = states.constFind(id);
        const bool had = before != runStates_.cend(), has = after != states.cend();
        if (had != has || (had && !(*before == *after))) changed.push_back(static_cast<int>(row));
    }
    runStates_ = std::move(states);
    // One notification per run of adjacent changed rows.
    for (std::size_t first = 0; first < changed.size();) {
        std::size_t last = first;
        while (last + 1 < changed.size() && changed[last + 1] == changed[last] + 1) ++last;
        Q_EMIT dataChanged(index(changed[first]), index(changed[last]), {StatusRole, StatusTextRole, SkewTextRole});
        first = last + 1;
    }
}

void NodeListModel::refreshAll(const QList<int>& roles) {
    if (rowCount() > 0) Q_EMIT dataChanged(index(0), index(rowCount() - 1), roles);
}

}  // namespace isochron::ui
