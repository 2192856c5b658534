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
    emit aboutToReset();
    spec_ = std::move(spec);
    emit wasReset();
    emit graphFieldsChanged();
    emit structureChanged();
}

void GraphStore::insertNode(int index, NodeSpec node) {
    emit nodeAboutToBeInserted(index);
    spec_.nodes.insert(spec_.nodes.begin() + index, std::move(node));
    emit nodeInserted(index);
    emit structureChanged();
}

NodeSpec GraphStore::removeNode(int index) {
    emit nodeAboutToBeRemoved(index);
    NodeSpec removed = std::move(spec_.nodes[static_cast<std::size_t>(index)]);
    spec_.nodes.erase(spec_.nodes.begin() + index);
    emit nodeRemoved(index);
    emit structureChanged();
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
    emit nodeChanged(index);
    if (!changed.isEmpty()) emit parametersChanged(QString::fromStdString(current.id), changed);
    emit structureChanged();
}

void GraphStore::setPosition(int index, NodePosition position) {
    spec_.nodes[static_cast<std::size_t>(index)].position = position;
    emit nodeMoved(index);
}

void GraphStore::insertEdge(int index, EdgeSpec edge) {
    emit edgeAboutToBeInserted(index);
    spec_.edges.insert(spec_.edges.begin() + index, std::move(edge));
    emit edgeInserted(index);
    emit structureChanged();
}

EdgeSpec GraphStore::removeEdge(int index) {
    emit edgeAboutToBeRemoved(index);
    EdgeSpec removed = std::move(spec_.edges[static_cast<std::size_t>(index)]);
    spec_.edges.erase(spec_.edges.begin() + index);
    emit edgeRemoved(index);
    emit structureChanged();
    return removed;
}

void GraphStore::replaceEdge(int index, EdgeSpec edge) {
    spec_.edges[static_cast<std::size_t>(index)] = std::move(edge);
    emit edgeChanged(index);
    emit structureChanged();
}

void GraphStore::setBaseDirectory(std::filesystem::path folder) {
    spec_.baseDirectory = std::move(folder);
    emit structureChanged();
}

GraphFields GraphStore::graphFields() const {
    return {spec_.name, spec_.description, spec_.scheduler, spec_.extra};
}

void GraphStore::setGraphFields(GraphFields fields) {
    spec_.name = std::move(fields.name);
    spec_.description = std::move(fields.description);
    spec_.scheduler = std::move(fields.scheduler);
    spec_.extra = std::move(fields.extra);
    emit graphFieldsChanged();
    emit structureChanged();
}

}  // namespace isochron::ui
