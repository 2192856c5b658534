// The editable graph's data (the runner's GraphSpec, kept as written) and fine-grained change
// signals for the list models. Undo commands are its only writers, so every change is undoable.
#pragma once

#include <QObject>
#include <QStringList>

#include <utility>
#include <vector>

#include "engine/graph/graph_spec.h"

namespace isochron::ui {

/// The top-level fields of a graph other than its nodes and edges. [value type]
struct GraphFields {
    std::string name;
    std::string description;
    SchedulerSpec scheduler;
    nlohmann::json extra = nlohmann::json::object();
};

/// Nodes and edges in file order, with "about to"/"done" signals around every change. [ui thread]
class GraphStore : public QObject {
    Q_OBJECT
public:
    explicit GraphStore(QObject* parent = nullptr);

    const GraphSpec& spec() const { return spec_; }
    /// Index of the node with this id in file order, or -1.
    int nodeIndex(std::string_view id) const;
    const NodeSpec* node(std::string_view id) const;

    /// Replace everything (open, new).
    void reset(GraphSpec spec);
    void insertNode(int index, NodeSpec node);
    NodeSpec removeNode(int index);
    /// Replace a node's fields (type, params, extra, even its id) in place.
    void replaceNode(int index, NodeSpec node);
    void setPosition(int index, NodePosition position);
    /// Move many nodes at once (an auto-layout, a selection dragged): one nodesMoved instead of a
    /// nodeMoved per node, which on a graph of a thousand nodes redrew the canvas a thousand times.
    void setPositions(const std::vector<std::pair<int, NodePosition>>& moves);
    void insertEdge(int index, EdgeSpec edge);
    EdgeSpec removeEdge(int index);
    void replaceEdge(int index, EdgeSpec edge);
    GraphFields graphFields() const;
    /// Where relative paths resolve from (the file's folder; changes on save-as).
    void setBaseDirectory(std::filesystem::path folder);
    void setGraphFields(GraphFields fields);

Q_SIGNALS:
    void aboutToReset();
    void wasReset();
    void nodeAboutToBeInserted(int index);
    void nodeInserted(int index);
    void nodeAboutToBeRemoved(int index);
    void nodeRemoved(int index);
    void nodeChanged(int index);
    /// Parameters of one node changed value (set, reset, undone); `names` lists which.
    void parametersChanged(const QString& nodeId, const QStringList& names);
    void nodeMoved(int index);
    /// Several nodes moved at once (setPositions).
    void nodesMoved();
    void edgeAboutToBeInserted(int index);
    void edgeInserted(int index);
    void edgeAboutToBeRemoved(int index);
    void edgeRemoved(int index);
    void edgeChanged(int index);
    void graphFieldsChanged();
    /// Anything that may change ports or problems (every change but a move).
    void structureChanged();

private:
    GraphSpec spec_;
};

}  // namespace isochron::ui
