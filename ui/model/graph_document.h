// One open graph in the editor: the runner's *.isograph.json file, its undo history, selection and
// the list models the canvas shows. Every edit goes through here as an undoable command; wires are
// checked with the engine's validator before they are made.
#pragma once

#include <QObject>
#include <QPointF>
#include <QUndoStack>
#include <QVariant>
#include <QtQml/qqmlregistration.h>

#include <optional>
#include <set>

#include "engine/operators/registry.h"
#include "ui/model/edge_list_model.h"
#include "ui/model/graph_store.h"
#include "ui/model/node_list_model.h"
#include "ui/model/problem_list_model.h"
#include "ui/model/resolution_cache.h"
#include "ui/model/selection.h"

namespace isochron::ui {

/// An editable graph document. [ui thread]
class GraphDocument : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString filePath READ filePath NOTIFY filePathChanged)
    Q_PROPERTY(QString displayName READ displayName NOTIFY filePathChanged)
    /// The folder the graph's relative paths resolve against: its file's ("" while untitled).
    Q_PROPERTY(QString baseDirectory READ baseDirectory NOTIFY filePathChanged)
    Q_PROPERTY(bool modified READ modified NOTIFY modifiedChanged)
    Q_PROPERTY(bool canUndo READ canUndo NOTIFY historyChanged)
    Q_PROPERTY(bool canRedo READ canRedo NOTIFY historyChanged)
    Q_PROPERTY(QString undoText READ undoText NOTIFY historyChanged)
    Q_PROPERTY(QString redoText READ redoText NOTIFY historyChanged)
    Q_PROPERTY(QString graphName READ graphName WRITE setGraphName NOTIFY graphFieldsChanged)
    Q_PROPERTY(QString description READ description WRITE setDescription NOTIFY graphFieldsChanged)
    Q_PROPERTY(QString schedulerName READ schedulerName NOTIFY graphFieldsChanged)
    Q_PROPERTY(QVariantMap schedulerParams READ schedulerParams NOTIFY graphFieldsChanged)
    /// Notes on the canvas: [{text, x, y, width, height}], saved in the file's "editor" field.
    Q_PROPERTY(QVariantList notes READ notes NOTIFY graphFieldsChanged)
    Q_PROPERTY(int nodeCount READ nodeCount NOTIFY structureChanged)
    /// The partitions nodes are in, for mpirun (docs/scale-out.md): [{partition, nodes}] by partition,
    /// nodes without one counted in 0; empty while no node names a partition.
    Q_PROPERTY(QVariantList partitions READ partitions NOTIFY revisionChanged)
    /// The largest partition setPartitionOfSelection takes.
    Q_PROPERTY(int maxPartition READ maxPartition CONSTANT)
    /// Counts every change (edits, undo/redo, moves, also the transient ones of a drag), for QML
    /// bindings that depend on the whole graph.
    Q_PROPERTY(int revision READ revision NOTIFY revisionChanged)
    Q_PROPERTY(bool valid READ valid NOTIFY problemsChanged)
    Q_PROPERTY(QString lastError READ lastError NOTIFY lastErrorChanged)
    Q_PROPERTY(isochron::ui::NodeListModel* nodes READ nodes CONSTANT)
    Q_PROPERTY(isochron::ui::EdgeListModel* edges READ edges CONSTANT)
    Q_PROPERTY(isochron::ui::ProblemListModel* problems READ problems CONSTANT)
    Q_PROPERTY(isochron::ui::Selection* selection READ selection CONSTANT)
public:
    /// A document over the built-in operators (plugins register into the same registry).
    explicit GraphDocument(QObject* parent = nullptr);
    GraphDocument(const OperatorRegistry& registry, QObject* parent);

    QString filePath() const { return filePath_; }
    /// The file's name, or "Untitled".
    QString displayName() const;
    bool modified() const { return !undoStack_.isClean(); }
    bool canUndo() const { return undoStack_.canUndo(); }
    bool canRedo() const { return undoStack_.canRedo(); }
    QString undoText() const { return undoStack_.undoText(); }
    QString redoText() const { return undoStack_.redoText(); }
    QString graphName() const { return QString::fromStdString(store_.spec().name); }
    QString description() const { return QString::fromStdString(store_.spec().description); }
    QString schedulerName() const { return QString::fromStdString(store_.spec().scheduler.name); }
    QVariantMap schedulerParams() const;
    QVariantList notes() const;
    int nodeCount() const { return static_cast<int>(store_.spec().nodes.size()); }
    QVariantList partitions() const;
    static int maxPartition() { return kMaxEditorPartition; }
    int revision() const { return revision_; }
    /// Whether the engine's validator finds no problem.
    bool valid();
    QString lastError() const { return lastError_; }
    NodeListModel* nodes() { return &nodes_; }
    EdgeListModel* edges() { return &edges_; }
    ProblemListModel* problems() { return &problems_; }
    Selection* selection() { return &selection_; }
    const GraphSpec& spec() const { return store_.spec(); }
    const GraphResolution& resolution() { return resolution_.current(); }
    const OperatorRegistry& registry() const { return registry_; }
    QUndoStack& undoStack() { return undoStack_; }

    // ---- Files ----
    /// An empty, unmodified, untitled graph.
    Q_INVOKABLE void newGraph();
    /// Open a graph file (a path or a file: URL). On failure keeps the current graph, sets lastError
    /// (every problem, one per line) and returns false. A graph with unplaced nodes is laid out.
    Q_INVOKABLE bool open(const QString& pathOrUrl);
    /// Save to the current file; false with lastError if that fails or there is no file yet.
    Q_INVOKABLE bool save();
    /// Save to another file; relative paths in parameters are rewritten to keep pointing at the same files.
    Q_INVOKABLE bool saveAs(const QString& pathOrUrl);
    /// Write the graph as it is now to `path` for crash recovery, leaving its file name, history
    /// and modified state alone (relative paths stay relative to baseDirectory()). Returns why
    /// not, or empty.
    QString writeRecovery(const QString& path) const;
    /// Replace the graph by a file writeRecovery wrote: its relative paths resolve against
    /// `baseDirectory`, it takes `originalFile` as its file (empty: untitled) and stays modified
    /// until saved. False with lastError when the file cannot be read.
    bool restoreRecovery(const QString& recoveryPath, const QString& originalFile, const QString& baseDirectory);
    QString baseDirectory() const { return QString::fromStdString(store_.spec().baseDirectory.string()); }

    // ---- Edits (each one undoable) ----
    /// Add an operator at (x, y); returns the new node's id (selected), or empty with lastError.
    Q_INVOKABLE QString addNode(const QString& typeName, qreal x, qreal y);
    /// Where a new `typeName` node meant for (x, y) goes so that it covers no node and no note:
    /// (x, y) when that is free, else the nearest free point of the snap grid around it.
    Q_INVOKABLE QPointF freeSpot(const QString& typeName, qreal x, qreal y);
    /// Wire an output to an input. Returns why the engine refuses it, or empty when wired.
    Q_INVOKABLE QString connectPorts(const QString& fromNode, const QString& fromPort, const QString& toNode, const QString& toPort);
    /// Why such a wire would be refused, without making it (empty if it fits).
    Q_INVOKABLE QString wireRefusal(const QString& fromNode, const QString& fromPort, const QString& toNode, const QString& toPort);
    /// The first unconnected input of `toNode` that would accept the wire, or empty (for drops on a node's body).
    Q_INVOKABLE QString firstAcceptingInput(const QString& fromNode, const QString& fromPort, const QString& toNode);
    /// Move a wire's input end to another input (one step); returns the refusal, or empty.
    Q_INVOKABLE QString rerouteWire(const QString& key, const QString& toNode, const QString& toPort);
    /// Delete one wire by key.
    Q_INVOKABLE void removeWire(const QString& key);
    /// Delete the selected nodes (with their wires) and selected wires.
    Q_INVOKABLE void deleteSelection();
    /// The selected nodes as graph-file text, for the clipboard.
    Q_INVOKABLE QString copySelection() const;
    /// Paste graph-file text; its top-left lands at (x, y). Pasted nodes become the selection.
    /// Returns false with lastError if the text is not a graph.
    Q_INVOKABLE bool paste(const QString& text, qreal x, qreal y);
    /// Copy and paste the selection next to itself.
    Q_INVOKABLE void duplicateSelection();
    /// Interactive move of the selection: begin, drag by an offset from the start, end (one step).
    Q_INVOKABLE void beginMove();
    Q_INVOKABLE void dragSelection(qreal dx, qreal dy);
    /// End the move; with `gridStep` > 0 the dragged nodes snap to that grid.
    Q_INVOKABLE void endMove(qreal gridStep = 0);
    /// Move the selection by a step (arrow keys); repeated nudges merge into one undo step.
    Q_INVOKABLE void nudgeSelection(qreal dx, qreal dy);
    /// Set a parameter from the inspector. Returns why the value is invalid (nothing changes), or empty.
    Q_INVOKABLE QString setParameter(const QString& nodeId, const QString& name, const QVariant& value);
    /// Back to the operator's default.
    Q_INVOKABLE void resetParameter(const QString& nodeId, const QString& name);
    /// The note shown above a node (its "comment" field); empty removes it.
    Q_INVOKABLE void setComment(const QString& nodeId, const QString& text);
    /// An output's QoS graph as [{latency, utility}, ...]: its own "qos", else the graph's default.
    Q_INVOKABLE QVariantList qosOf(const QString& nodeId) const;
    /// Give an output its own QoS graph (points as qosOf gives them). Returns why not, or empty.
    Q_INVOKABLE QString setQos(const QString& nodeId, const QVariantList& points);
    /// Give a node a new id; returns why not (taken, not an identifier) or empty.
    /// The selected nodes run in `partition` (the rank under mpirun; -1: none, i.e. 0): one undo
    /// step. "" or why not (graph_document_partitions.cpp).
    Q_INVOKABLE QString setPartitionOfSelection(int partition);
    /// The largest partition the editor sets (the keyboard reaches 0-9, the inspector more).
    static constexpr int kMaxEditorPartition = 1023;
    Q_INVOKABLE QString renameNode(const QString& nodeId, const QString& newId);
    void setGraphName(const QString& name);
    void setDescription(const QString& text);
    /// Choose the scheduler (its parameters back to defaults). Returns why not, or empty.
    Q_INVOKABLE QString setScheduler(const QString& name);
    /// Set or reset one parameter of the graph's scheduler; returns why a value is invalid, or empty.
    Q_INVOKABLE QString setSchedulerParameter(const QString& name, const QVariant& value);
    Q_INVOKABLE void resetSchedulerParameter(const QString& name);
    /// Put a note on the canvas at (x, y); returns its index.
    Q_INVOKABLE int addNote(qreal x, qreal y, const QString& text);
    /// Change a note's text, x, y, width or height (the keys given in `fields`). Repeated edits of
    /// the same note's text, or moves and resizes of it, merge into one undo step.
    Q_INVOKABLE void editNote(int index, const QVariantMap& fields);
    /// Delete a canvas note.
    Q_INVOKABLE void removeNote(int index);
    /// Lay out the selection (or the whole graph when nothing is selected) in layers, left to right.
    Q_INVOKABLE void autoLayout();

    // ---- Subgraphs (graph_document_subgraphs.cpp) ----
    /// Write the selected nodes as a subgraph file (a path or file: URL; the wires crossing the
    /// selection become its ports, and `parameters` its parameters: "node.param" names, by default
    /// selectionParameters()) and replace them by one node using it, in one undo step. Returns why
    /// not, or empty.
    Q_INVOKABLE QString groupSelection(const QString& pathOrUrl, const QVariant& parameters = {});
    /// The parameters the selected nodes set, as "node.param" (what grouping exposes by default).
    Q_INVOKABLE QStringList selectionParameters() const;
    /// Inline a subgraph node back into this graph (one undo step). Returns why not, or empty.
    Q_INVOKABLE QString ungroup(const QString& nodeId);
    /// The absolute path of the file a subgraph node stands for; empty for an operator node.
    Q_INVOKABLE QString subgraphFileOf(const QString& nodeId) const;
    /// A file name not yet taken for a new subgraph, next to the graph file (or in the current folder).
    Q_INVOKABLE QString suggestedSubgraphPath() const;
    // ---- Recording wires into an archive (graph_document_archive.cpp) ----
    /// The archive a "Record this wire" writes into: "<graph file name>.archive.sqlite" beside the
    /// graph file (a relative path, so it moves with the graph; "recording.archive.sqlite" while untitled).
    Q_INVOKABLE QString defaultArchivePath() const;
    /// The io.archive_sink node that records the output wire `key` comes from (a sink fed by that
    /// output alone), or empty when that output is not recorded.
    Q_INVOKABLE QString recorderOf(const QString& key) const;
    /// Record the output wire `key` comes from: add an io.archive_sink fed by it (archive
    /// defaultArchivePath(), stream "<node>.<port>") in one undo step. Returns the new node's id,
    /// or empty with lastError (no such wire, already recorded, a type the archive cannot hold).
    Q_INVOKABLE QString recordWire(const QString& key);
    /// Stop recording that output: remove its recorder node (one undo step). False when it has none.
    Q_INVOKABLE bool stopRecordingWire(const QString& key);
    /// recordWire or stopRecordingWire, whichever applies; returns whether the output is now recorded.
    Q_INVOKABLE bool toggleRecording(const QString& key);
    /// Replay [from, from + duration) seconds of the stream `stream` of the archive `path` through the
    /// graph: a signal stream of `channels` channels (`type` "signal<f32>"), or an item stream ("event"
    /// or "scalar", one output), in one undo step: an io.archive_source node, placed at (x, y),
    /// or beside the node when `stream` names an output "node.port" of this graph (as recordWire names
    /// streams), and then taking over that output's wires (the port's, its bus's or its bus ports';
    /// its recorders excepted). Returns the new node's id (selected), or empty with lastError.
    Q_INVOKABLE QString replayArchive(const QString& path, const QString& stream, const QString& type, int channels, double from, double duration,
                                      qreal x, qreal y);

    Q_INVOKABLE void undo() { undoStack_.undo(); }
    Q_INVOKABLE void redo() { undoStack_.redo(); }

    /// The registry's operator types changed (a plugin was reloaded): validate the graph again, so
    /// nodes show their types' new ports and docs, and wires that no longer fit become problems.
    /// Nodes, wires and parameters stay as they are. [ui thread]
    Q_INVOKABLE void revalidate();

    // ---- Views for the inspector and menus ----
    /// The node's parameters for typed editors: name, kind, value, defaultValue, isDefault, minimum,
    /// maximum, unit, doc, choices, live, problem.
    Q_INVOKABLE QVariantList parametersOf(const QString& nodeId);
    /// Type, category, summary and documentation of the node's operator.
    Q_INVOKABLE QVariantMap operatorOf(const QString& nodeId) const;
    /// Every scheduler this build has: name, summary, params (as parametersOf, for the chooser).
    Q_INVOKABLE QVariantList schedulers() const;

Q_SIGNALS:
    void filePathChanged();
    void modifiedChanged();
    void historyChanged();
    void graphFieldsChanged();
    void structureChanged();
    void revisionChanged();
    void problemsChanged();
    void lastErrorChanged();
    /// A wire was refused; the canvas shows `reason` next to the pointer.
    void wireRefused(const QString& reason);
    /// A parameter changed (edit, undo or redo), so a running engine may apply it live.
    void parameterChanged(const QString& nodeId, const QString& name, const QVariant& value);
    /// Another graph took this one's place (new, opened or recovered): runs, probes and views of
    /// the previous graph no longer apply.
    void replaced();

private:
    void fail(const QString& message);
    /// An empty history, clean (the file on disk is the graph).
    void clearHistory();
    /// The graph file at `path`, or nullopt with lastError.
    std::optional<GraphSpec> loadFile(const QString& path);
    /// Show `spec` (laid out where it has unplaced nodes) as the graph of `filePath` ("": untitled),
    /// with an empty clean history.
    void replaceGraph(GraphSpec spec, const QString& filePath);
    void push(QUndoCommand* command);
    QString writeTo(const QString& path, GraphSpec spec);
    std::set<std::string> takenIds() const;
    void layOut(const std::vector<std::string>& ids, bool undoable);
    void writeNotes(nlohmann::json notes, const QString& text, std::string mergeKey);
    /// An exposed parameter of a subgraph node as the inner parameter it stands for (named as exposed,
    /// its default the value inside the file), or nullopt.
    std::optional<ParamSpec> exposedParameter(const NodeSpec& node, const std::string& name);
    /// Where a replay of `origin`'s output goes that feeds `wires` (each from one of its `outputs`
    /// ports): below the origin, else above it, whichever lets its wires pass over no other node;
    /// below when neither does (graph_document_archive.cpp).
    QPointF replaySpot(const NodeSpec& origin, const std::vector<EdgeSpec>& wires, int outputs);

    const OperatorRegistry& registry_;
    GraphStore store_;
    ResolutionCache resolution_;
    Selection selection_;
    NodeListModel nodes_;
    EdgeListModel edges_;
    ProblemListModel problems_;
    QUndoStack undoStack_;
    QString filePath_;
    QString lastError_;
    int revision_ = 0;
    std::vector<std::pair<std::string, NodePosition>> moveStart_;
};

}  // namespace isochron::ui
