#include "ui/model/edge_list_model.h"

#include <QLineF>

#include "ui/canvas/node_geometry.h"
#include "ui/canvas/port_colors.h"
#include "ui/layout/label_placement.h"

namespace isochron::ui {
namespace {

constexpr double kLoopClearance = 24;  // canvas units between a node's bottom and its self-loop wire

double distanceToSegment(QPointF p, QPointF a, QPointF b) {
    const QPointF ab = b - a;
    const double length2 = QPointF::dotProduct(ab, ab);
    const double t = length2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / length2, 0.0, 1.0) : 0.0;
    return QLineF(p, a + t * ab).length();
}

}  // namespace

EdgeListModel::EdgeListModel(GraphStore& store, ResolutionCache& resolution, Selection& selection, QObject* parent)
    : QAbstractListModel(parent), store_(store), resolution_(resolution), selection_(selection) {
    connect(&store, &GraphStore::aboutToReset, this, [this] { beginResetModel(); });
    connect(&store, &GraphStore::wasReset, this, [this] {
        recomputeAll();
        endResetModel();
    });
    connect(&store, &GraphStore::edgeAboutToBeInserted, this, [this](int i) { beginInsertRows({}, i, i); });
    connect(&store, &GraphStore::edgeInserted, this, [this](int i) {
        wires_.insert(wires_.begin() + i, compute(store_.spec().edges[static_cast<std::size_t>(i)]));
        endInsertRows();
        Q_EMIT geometryChanged();
    });
    connect(&store, &GraphStore::edgeAboutToBeRemoved, this, [this](int i) { beginRemoveRows({}, i, i); });
    connect(&store, &GraphStore::edgeRemoved, this, [this](int i) {
        wires_.erase(wires_.begin() + i);
        endRemoveRows();
        Q_EMIT geometryChanged();
    });
    connect(&store, &GraphStore::edgeChanged, this, [this](int i) {
        wires_[static_cast<std::size_t>(i)] = compute(store_.spec().edges[static_cast<std::size_t>(i)]);
        Q_EMIT dataChanged(index(i), index(i));
        Q_EMIT geometryChanged();
    });
    connect(&store, &GraphStore::nodeMoved, this, &EdgeListModel::recomputeTouching);
    connect(&store, &GraphStore::nodesMoved, this, &EdgeListModel::recomputeAll);
    connect(&resolution, &ResolutionCache::updated, this, &EdgeListModel::recomputeAll);
    connect(&selection, &Selection::wireToggled, this, [this](const QString& key) {
        const int row = indexOf(key);
        if (row < 0) return;
        wires_[static_cast<std::size_t>(row)].selected = selection_.hasWire(key);
        Q_EMIT dataChanged(index(row), index(row), {SelectedRole});
        Q_EMIT geometryChanged();
    });
}

QString EdgeListModel::keyOf(const EdgeSpec& edge) { return QString::fromStdString(edge.from() + ">" + edge.to()); }

int EdgeListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(store_.spec().edges.size());
}

QHash<int, QByteArray> EdgeListModel::roleNames() const {
    return {{KeyRole, "key"},       {FromNodeRole, "fromNode"}, {FromPortRole, "fromPort"}, {ToNodeRole, "toNode"},
            {ToPortRole, "toPort"}, {TypeRole, "type"},         {ColorRole, "color"},       {FromXRole, "fromX"},
            {FromYRole, "fromY"},   {ToXRole, "toX"},           {ToYRole, "toY"},           {BusRole, "bus"},
            {SelectedRole, "selected"}, {LiveTextRole, "liveText"}};
}

QVariant EdgeListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const EdgeSpec& edge = store_.spec().edges[static_cast<std::size_t>(index.row())];
    const WireGeometry& wire = wires_[static_cast<std::size_t>(index.row())];
    switch (role) {
        case KeyRole: return keyOf(edge);
        case FromNodeRole: return QString::fromStdString(edge.fromNode);
        case FromPortRole: return QString::fromStdString(edge.fromPort);
        case ToNodeRole: return QString::fromStdString(edge.toNode);
        case ToPortRole: return QString::fromStdString(edge.toPort);
        case TypeRole: {
            const GraphResolution& r = resolution_.current();
            const int port = r.portIndex(edge.fromNode, edge.fromPort, true);
            return port < 0 ? QString() : QString::fromStdString(r.node(edge.fromNode)->outputs[static_cast<std::size_t>(port)].type);
        }
        case ColorRole: return wire.color;
        case FromXRole: return wire.from.x();
        case FromYRole: return wire.from.y();
        case ToXRole: return wire.to.x();
        case ToYRole: return wire.to.y();
        case BusRole: return wire.bus;
        case SelectedRole: return wire.selected;
        case LiveTextRole: return liveTexts_.value(keyOf(edge));
        default: return {};
    }
}

WireGeometry EdgeListModel::compute(const EdgeSpec& edge) const {
    WireGeometry wire;
    const GraphResolution& r = resolution_.current();
    auto anchor = [&](const std::string& nodeId, const std::string& port, bool output) {
        const NodeSpec* node = store_.node(nodeId);
        const NodePosition p = node && node->position ? *node->position : NodePosition{};
        const int i = r.portIndex(nodeId, port, output);
        if (i < 0) wire.broken = true;
        return QPointF(p.x + (output ? geometry::kNodeWidth : 0.0), p.y + (i < 0 ? geometry::kHeaderHeight / 2 : geometry::portOffsetY(i)));
    };
    wire.from = anchor(edge.fromNode, edge.fromPort, true);
    wire.to = anchor(edge.toNode, edge.toPort, false);
    if (edge.fromNode == edge.toNode) {
        const NodeSpec* node = store_.node(edge.fromNode);
        const NodeResolution* view = r.node(edge.fromNode);
        const double top = node && node->position ? node->position->y : 0.0;
        const int ins = view ? static_cast<int>(view->inputs.size()) : 0, outs = view ? static_cast<int>(view->outputs.size()) : 0;
        wire.loopBelowY = top + geometry::nodeHeight(ins, outs) + kLoopClearance;
    }
    wire.bus = edge.fromPort.ends_with('*');
    const int port = r.portIndex(edge.fromNode, edge.fromPort, true);
    wire.color = port < 0 ? QColor(0xef, 0x44, 0x44) : portTypeColor(r.node(edge.fromNode)->outputs[static_cast<std::size_t>(port)].type);
    wire.selected = selection_.hasWire(keyOf(edge));
    return wire;
}

void EdgeListModel::recomputeAll() {
    const auto& edges = store_.spec().edges;
    wires_.resize(edges.size());
    for (std::size_t i = 0; i < edges.size(); ++i) wires_[i] = compute(edges[i]);
    if (!edges.empty()) Q_EMIT dataChanged(index(0), index(rowCount() - 1));
    Q_EMIT geometryChanged();
}

void EdgeListModel::recomputeTouching(int nodeIndex) {
    const std::string& id = store_.spec().nodes[static_cast<std::size_t>(nodeIndex)].id;
    const auto& edges = store_.spec().edges;
    bool any = false;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        if (edges[i].fromNode != id && edges[i].toNode != id) continue;
        wires_[i] = compute(edges[i]);
        const int row = static_cast<int>(i);
        Q_EMIT dataChanged(index(row), index(row), {FromXRole, FromYRole, ToXRole, ToYRole});
        any = true;
    }
    if (any) Q_EMIT geometryChanged();
}

int EdgeListModel::indexOf(const QString& key) const {
    const auto& edges = store_.spec().edges;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        if (keyOf(edges[i]) == key) return static_cast<int>(i);
    }
    return -1;
}

QVariantMap EdgeListModel::wireInto(const QString& nodeId, const QString& port) const {
    const auto& edges = store_.spec().edges;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        if (QString::fromStdString(edges[i].toNode) != nodeId || QString::fromStdString(edges[i].toPort) != port) continue;
        return {{"key", keyOf(edges[i])},
                {"fromNode", QString::fromStdString(edges[i].fromNode)},
                {"fromPort", QString::fromStdString(edges[i].fromPort)},
                {"fromX", wires_[i].from.x()},
                {"fromY", wires_[i].from.y()},
                {"color", wires_[i].color}};
    }
    return {};
}

QString EdgeListModel::wireAt(qreal x, qreal y, qreal tolerance) const {
    const QPointF p(x, y);
    QString best;
    double bestDistance = tolerance;
    for (std::size_t i = 0; i < wires_.size(); ++i) {
        const WireGeometry& w = wires_[i];
        QPointF previous = w.from;
        for (int step = 1; step <= 24; ++step) {
            const QPointF next = w.pointAt(step / 24.0);
            const double d = distanceToSegment(p, previous, next);
            if (d <= bestDistance) {
                bestDistance = d;
                best = keyOf(store_.spec().edges[i]);
            }
            previous = next;
        }
    }
    return best;
}

void EdgeListModel::setLiveTexts(QHash<QString, QString> texts) {
    liveTexts_ = std::move(texts);
    if (rowCount() > 0) Q_EMIT dataChanged(index(0), index(rowCount() - 1), {LiveTextRole});
    Q_EMIT liveTextsChanged();
}

QVariantList EdgeListModel::liveLabelPlaces(qreal charWidth, qreal padding, qreal height) const {
    const auto& edges = store_.spec().edges;
    const GraphResolution& r = resolution_.current();
    std::vector<CanvasRect> nodes;
    for (const NodeSpec& node : store_.spec().nodes) {
        const NodePosition p = node.position.value_or(NodePosition{});
        const NodeResolution* view = r.node(node.id);
        const int ins = view ? static_cast<int>(view->inputs.size()) : 0, outs = view ? static_cast<int>(view->outputs.size()) : 0;
        nodes.push_back({p.x, p.y, geometry::kNodeWidth, geometry::nodeHeight(ins, outs)});
        // The node's note above it: a label there would cover its text.
        const auto comment = node.extra.find("comment");
        if (comment != node.extra.end() && comment->is_string()) {
            const double room = geometry::commentHeight(QString::fromStdString(comment->get<std::string>()).size());
            if (room > 0) nodes.push_back({p.x, p.y - room, geometry::kNodeWidth, room});
        }
    }
    std::vector<LabelRequest> requests(edges.size());
    for (std::size_t i = 0; i < edges.size() && i < wires_.size(); ++i) {
        const QString text = liveTexts_.value(keyOf(edges[i]));
        if (text.isEmpty()) continue;
        requests[i].width = static_cast<double>(text.size()) * charWidth + padding;
        requests[i].height = height;
        for (double t : {0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8}) {
            const QPointF a = wires_[i].pointAt(t);
            requests[i].anchors.push_back({a.x(), a.y()});
        }
    }
    const std::vector<CanvasRect> places = placeLabels(requests, nodes);
    QVariantList list;
    for (std::size_t i = 0; i < places.size(); ++i) {
        list.append(requests[i].anchors.empty() ? QVariantMap() : QVariantMap{{"x", places[i].x}, {"y", places[i].y}});
    }
    return list;
}

}  // namespace isochron::ui
