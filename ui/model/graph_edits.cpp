#include "ui/model/graph_edits.h"

#include <algorithm>

namespace isochron::ui {

StructureEdit::StructureEdit(GraphStore& store, const QString& text) : QUndoCommand(text), store_(store) {}

void StructureEdit::addNode(NodeSpec node) { addedNodes_.push_back(std::move(node)); }

void StructureEdit::addEdge(EdgeSpec edge) { addedEdges_.push_back(std::move(edge)); }

void StructureEdit::removeEdge(int index) {
    auto at = std::lower_bound(removedEdges_.begin(), removedEdges_.end(), index,
                               [](const auto& entry, int i) { return entry.first < i; });
    if (at != removedEdges_.end() && at->first == index) return;
    removedEdges_.insert(at, {index, store_.spec().edges[static_cast<std::size_t>(index)]});
}

void StructureEdit::removeNode(const std::string& id) {
    const int index = store_.nodeIndex(id);
    if (index < 0) return;
    auto at = std::lower_bound(removedNodes_.begin(), removedNodes_.end(), index,
                               [](const auto& entry, int i) { return entry.first < i; });
    if (at != removedNodes_.end() && at->first == index) return;
    removedNodes_.insert(at, {index, store_.spec().nodes[static_cast<std::size_t>(index)]});
    const auto& edges = store_.spec().edges;
    for (std::size_t e = 0; e < edges.size(); ++e) {
        if (edges[e].fromNode == id || edges[e].toNode == id) removeEdge(static_cast<int>(e));
    }
}

bool StructureEdit::isEmpty() const {
    return addedNodes_.empty() && addedEdges_.empty() && removedNodes_.empty() && removedEdges_.empty();
}

void StructureEdit::redo() {
    for (auto it = removedEdges_.rbegin(); it != removedEdges_.rend(); ++it) store_.removeEdge(it->first);
    for (auto it = removedNodes_.rbegin(); it != removedNodes_.rend(); ++it) store_.removeNode(it->first);
    for (const NodeSpec& node : addedNodes_) store_.insertNode(static_cast<int>(store_.spec().nodes.size()), node);
    for (const EdgeSpec& edge : addedEdges_) store_.insertEdge(static_cast<int>(store_.spec().edges.size()), edge);
}

void StructureEdit::undo() {
    for (std::size_t i = 0; i < addedEdges_.size(); ++i) store_.removeEdge(static_cast<int>(store_.spec().edges.size()) - 1);
    for (std::size_t i = 0; i < addedNodes_.size(); ++i) store_.removeNode(static_cast<int>(store_.spec().nodes.size()) - 1);
    for (const auto& [index, node] : removedNodes_) store_.insertNode(index, node);
    for (const auto& [index, edge] : removedEdges_) store_.insertEdge(index, edge);
}

MoveNodes::MoveNodes(GraphStore& store, std::vector<Move> moves, const QString& text, bool mergeable)
    : QUndoCommand(text), store_(store), moves_(std::move(moves)), mergeable_(mergeable) {}

void MoveNodes::redo() {
    std::vector<std::pair<int, NodePosition>> positions;
    for (const Move& m : moves_) {
        if (int index = store_.nodeIndex(m.id); index >= 0) positions.emplace_back(index, m.to);
    }
    store_.setPositions(positions);
}

void MoveNodes::undo() {
    std::vector<std::pair<int, NodePosition>> positions;
    for (const Move& m : moves_) {
        if (int index = store_.nodeIndex(m.id); index >= 0) positions.emplace_back(index, m.from);
    }
    store_.setPositions(positions);
}

bool MoveNodes::mergeWith(const QUndoCommand* other) {
    const auto* next = static_cast<const MoveNodes*>(other);
    if (next->moves_.size() != moves_.size()) return false;
    for (std::size_t i = 0; i < moves_.size(); ++i) {
        if (moves_[i].id != next->moves_[i].id || !(moves_[i].to == next->moves_[i].from)) return false;
    }
    for (std::size_t i = 0; i < moves_.size(); ++i) moves_[i].to = next->moves_[i].to;
    return true;
}

EditNode::EditNode(GraphStore& store, NodeSpec before, NodeSpec after, const QString& text, std::string mergeKey)
    : QUndoCommand(text), store_(store), before_(std::move(before)), after_(std::move(after)), mergeKey_(std::move(mergeKey)) {}

void EditNode::redo() {
    if (int index = store_.nodeIndex(before_.id); index >= 0) store_.replaceNode(index, after_);
}

void EditNode::undo() {
    if (int index = store_.nodeIndex(after_.id); index >= 0) store_.replaceNode(index, before_);
}

bool EditNode::mergeWith(const QUndoCommand* other) {
    const auto* next = static_cast<const EditNode*>(other);
    if (next->mergeKey_ != mergeKey_ || next->before_.id != after_.id) return false;
    after_ = next->after_;
    return true;
}

RenameNode::RenameNode(GraphStore& store, std::string from, std::string to)
    : QUndoCommand(QObject::tr("Rename %1 to %2").arg(QString::fromStdString(from), QString::fromStdString(to))),
      store_(store),
      from_(std::move(from)),
      to_(std::move(to)) {}

void RenameNode::redo() { rename(from_, to_); }

void RenameNode::undo() { rename(to_, from_); }

void RenameNode::rename(const std::string& from, const std::string& to) {
    const int index = store_.nodeIndex(from);
    if (index < 0) return;
    NodeSpec node = store_.spec().nodes[static_cast<std::size_t>(index)];
    node.id = to;
    store_.replaceNode(index, std::move(node));
    const auto& edges = store_.spec().edges;
    for (std::size_t e = 0; e < edges.size(); ++e) {
        if (edges[e].fromNode != from && edges[e].toNode != from) continue;
        EdgeSpec edge = edges[e];
        if (edge.fromNode == from) edge.fromNode = to;
        if (edge.toNode == from) edge.toNode = to;
        store_.replaceEdge(static_cast<int>(e), std::move(edge));
    }
}

EditGraphFields::EditGraphFields(GraphStore& store, GraphFields before, GraphFields after, const QString& text, std::string mergeKey)
    : QUndoCommand(text), store_(store), before_(std::move(before)), after_(std::move(after)), mergeKey_(std::move(mergeKey)) {}

bool EditGraphFields::mergeWith(const QUndoCommand* other) {
    const auto* next = static_cast<const EditGraphFields*>(other);
    if (next->mergeKey_ != mergeKey_) return false;
    after_ = next->after_;
    return true;
}

void EditGraphFields::redo() { store_.setGraphFields(after_); }

void EditGraphFields::undo() { store_.setGraphFields(before_); }

}  // namespace isochron::ui
