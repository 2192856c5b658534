// The canvas's nodes: one row per node in file order, with position, size, typed ports (colour,
// offset, connected), problems and run state, for the QML node delegates.
#pragma once

#include <QAbstractListModel>
#include <QHash>
#include <QtQml/qqmlregistration.h>

#include "ui/model/graph_store.h"
#include "ui/model/resolution_cache.h"
#include "ui/model/selection.h"

namespace isochron::ui {

/// What a running engine says about one node, shown as its badge. [value type]
struct NodeRunState {
    QString state;   ///< "running", "overloaded", "finished", "failed", or empty when idle
    QString detail;  ///< tooltip text, e.g. "1.2 k items/s, 3 queued"
    QString skew;    ///< skew between a multi-input node's inputs, e.g. "skew 2.0 s"; empty otherwise
    bool operator==(const NodeRunState&) const = default;
};

/// Nodes for the canvas. [ui thread]
class NodeListModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("owned by a GraphDocument")
public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        TypeRole,
        CategoryRole,
        SummaryRole,
        XRole,
        YRole,
        WidthRole,
        HeightRole,
        InputsRole,
        OutputsRole,
        ProblemsRole,
        StatusRole,
        StatusTextRole,
        SelectedRole,
        CommentRole,
        KnownRole,
        SkewTextRole,
        PartitionRole,
    };

    NodeListModel(GraphStore& store, ResolutionCache& resolution, Selection& selection, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// Row of a node, or -1.
    Q_INVOKABLE int indexOf(const QString& id) const;
    /// One node's roles by name (for the inspector and tests); empty if there is no such node.
    Q_INVOKABLE QVariantMap get(const QString& id) const;
    /// Ids of the nodes whose boxes intersect the rectangle (canvas units), for rubber-band selection.
    Q_INVOKABLE QStringList nodesIn(qreal x, qreal y, qreal width, qreal height) const;
    /// The port under (x, y) in canvas units, within `tolerance` of its dot: {nodeId, port, output,
    /// type, color, x, y (the dot's centre)}; {nodeId} alone over a node's body; empty elsewhere.
    Q_INVOKABLE QVariantMap portAt(qreal x, qreal y, qreal tolerance) const;
    /// Bounding box of all nodes, or of these ids: {x, y, width, height}; zero size when empty.
    Q_INVOKABLE QVariantMap bounds(const QStringList& ids = {}) const;

    /// Replace the run states (empty map when the engine stops); only the rows whose state changed
    /// are announced (a graph of thousands of nodes, a few of them changing, redraws those few).
    void setRunStates(QHash<QString, NodeRunState> states);
    /// The states setRunStates last gave, by node id.
    const QHash<QString, NodeRunState>& runStates() const { return runStates_; }

private:
    QVariantList portList(const NodeSpec& node, bool outputs) const;
    void refreshAll(const QList<int>& roles);
    GraphStore& store_;
    ResolutionCache& resolution_;
    Selection& selection_;
    QHash<QString, NodeRunState> runStates_;
};

}  // namespace isochron::ui
