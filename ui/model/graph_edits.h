// The undoable edits of a graph. Every change the editor makes to a document is one of these,
// pushed on the document's QUndoStack; they write through GraphStore so the list models follow.
#pragma once

#include <QUndoCommand>

#include <vector>

#include "ui/model/graph_store.h"

namespace isochron::ui {

/// Adds and removes nodes and edges in one step (add node, delete selection, connect, paste, ...).
/// Removed items go back to their old places on undo; added ones are appended. [ui thread]
class StructureEdit : public QUndoCommand {
public:
    StructureEdit(GraphStore& store, const QString& text);
    void addNode(NodeSpec node);
    void addEdge(EdgeSpec edge);
    /// Remove a node and every edge touching it.
    void removeNode(const std::string& id);
    void removeEdge(int index);
    bool isEmpty() const;

    void redo() override;
    void undo() override;

private:
    GraphStore& store_;
    std::vector<NodeSpec> addedNodes_;
    std::vector<EdgeSpec> addedEdges_;
    std::vector<std::pair<int, NodeSpec>> removedNodes_;  // ascending index
    std::vector<std::pair<int, EdgeSpec>> removedEdges_;  // ascending index
};

/// Moves nodes. Consecutive nudges of the same nodes merge into one step. [ui thread]
class MoveNodes : public QUndoCommand {
public:
    struct Move {
        std::string id;
        NodePosition from, to;
    };
    MoveNodes(GraphStore& store, std::vector<Move> moves, const QString& text, bool mergeable);

    void redo() override;
    void undo() override;
    int id() const override { return mergeable_ ? kMergeId : -1; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    static constexpr int kMergeId = 1001;
    GraphStore& store_;
    std::vector<Move> moves_;
    bool mergeable_;
};

/// Replaces one node's fields (parameters, comment, QoS, label). Consecutive edits of the same
/// node and key (typing into one field) merge into one step. [ui thread]
class EditNode : public QUndoCommand {
public:
    EditNode(GraphStore& store, NodeSpec before, NodeSpec after, const QString& text, std::string mergeKey = {});

    void redo() override;
    void undo() override;
    int id() const override { return mergeKey_.empty() ? -1 : kMergeId; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    static constexpr int kMergeId = 1002;
    GraphStore& store_;
    NodeSpec before_, after_;
    std::string mergeKey_;
};

/// Gives a node a new id, rewriting the edges that name it. [ui thread]
class RenameNode : public QUndoCommand {
public:
    RenameNode(GraphStore& store, std::string from, std::string to);

    void redo() override;
    void undo() override;

private:
    void rename(const std::string& from, const std::string& to);
    GraphStore& store_;
    std::string from_, to_;
};

/// Changes the graph's name, description, scheduler or other top-level fields (canvas notes too).
/// Consecutive edits with the same merge key (typing a note, dragging it) merge into one step. [ui thread]
class EditGraphFields : public QUndoCommand {
public:
    EditGraphFields(GraphStore& store, GraphFields before, GraphFields after, const QString& text, std::string mergeKey = {});

    void redo() override;
    void undo() override;
    int id() const override { return mergeKey_.empty() ? -1 : kMergeId; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    static constexpr int kMergeId = 1003;
    GraphStore& store_;
    GraphFields before_, after_;
    std::string mergeKey_;
};

}  // namespace isochron::ui
