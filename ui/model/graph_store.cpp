#include "ui/model/graph_store.h"

namespace isochron::ui {

GraphStore::GraphStore(QObject* parent) : QObject(parent) {}

int GraphStore::nodeIndex(std::string_view id) const {
    for (std::size_t i = 0; i < spec_.nodes.size(); ++i) {
        if (spec_.nodes[i].id == id) return static_cast<int>(i);
    }
    return -1;
}

const NodeSpec* GraphStore::node(std::string_view id) const { return spec_.findNode(id); }

void GraphStore::reset(GraphSpec spec) {
    Q_EMIT aboutToReset();
    spec_ = std::move(spec);
    Q_EMIT wasReset();
    Q_EMIT graphFieldsChanged();
    Q_EMIT structureChanged();
}

void GraphStore::insertNode(int index, NodeSpec node) {
    Q_EMIT nodeAboutToBeInserted(index);
    spec_.nodes.insert(spec_.nodes.begin() + index, std::move(node));
    Q_EMIT nodeInserted(index);
    Q_EMIT structureChanged();
}

NodeSpec GraphStore::removeNode(int index) {
    Q_EMIT nodeAboutToBeRemoved(index);
    NodeSpec removed = std::move(spec_.nodes[static_cast<std::size_t>(index)]);
    spec_.nodes.erase(spec_.nodes.begin() + index);
    Q_EMIT nodeRemoved(index);
    Q_EMIT structureChanged();
    return removed;
}

void GraphStore::replaceNode(int index, NodeSpec node) {
    NodeSpec& current = spec_.nodes[static_cast<std::size_t>(index)];
    QStringList changed;
    for (const auto& [name, value] : node.params) {
        auto old = current.params.find(name);
        if (old == current.params.end() || old->second != value) changed.append(QString::fromStdString(name));
    }
    for (const auto& [name, value] : current.params) {
        if (!node.params.count(name)) changed.append(QString::fromStdString(name));
    }
    current = std::move(node);
    Q_EMIT nodeChanged(index);
    if (!changed.isEmpty()) Q_EMIT parametersChanged(QString::fromStdString(current.id), changed);
    Q_EMIT structureChanged();
}

void GraphStore::setPosition(int index, NodePosition position) {
    spec_.nodes[static_cast<std::size_t>(index)].position = position;
    Q_EMIT nodeMoved(index);
}

void GraphStore::setPositions(const std::vector<std::pair<int, NodePosition>>& moves) {
    if (moves.size() == 1) {
        setPosition(moves.front().first, moves.front().second);
        return;
    }
    for (const auto& [index, position] : moves) spec_.nodes[static_cast<std::size_t>(index)].position = position;
    if (!moves.empty()) Q_EMIT nodesMoved();
}

void GraphStore::insertEdge(int index, EdgeSpec edge) {
    Q_EMIT edgeAboutToBeInserted(index);
    spec_.edges.insert(spec_.edges.begin() + index, std::move(edge));
    Q_EMIT edgeInserted(index);
    Q_EMIT structureChanged();
}

EdgeSpec GraphStore::removeEdge(int index) {
    Q_EMIT edgeAboutToBeRemoved(index);
    EdgeSpec removed = std::move(spec_.edges[static_cast<std::size_t>(index)]);
    spec_.edges.erase(spec_.edges.begin() + index);
    Q_EMIT edgeRemoved(index);
    Q_EMIT structureChanged();
    return removed;
}

void GraphStore::replaceEdge(int index, EdgeSpec edge) {
    spec_.edges[static_cast<std::size_t>(index)] = std::move(edge);
    Q_EMIT edgeChanged(index);
    Q_EMIT structureChanged();
}

void GraphStore::setBaseDirectory(std::filesystem::path folder) {
    spec_.baseDirectory = std::move(folder);
    Q_EMIT structureChanged();
}

GraphFields GraphStore::graphFields() const {
    return {spec_.name, spec_.description, spec_.scheduler, spec_.extra};
}

void GraphStore::setGraphFields(GraphFields fields) {
    spec_.name = std::move(fields.name);
    spec_.description = std::move(fields.description);
    spec_.scheduler = std::move(fields.scheduler);
    spec_.extra = std::move(fields.extra);
    Q_EMIT graphFieldsChanged();
    Q_EMIT structureChanged();
}

}  // namespace isochron::ui
