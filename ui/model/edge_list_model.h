// The canvas's wires: one row per edge in file order, with end points (from the shared node
// geometry), type colour and selection; the wire layer draws them all from geometry().
#pragma once

#include <QAbstractListModel>
#include <QColor>
#include <QPointF>
#include <QtQml/qqmlregistration.h>

#include <optional>
#include <vector>

#include "ui/canvas/wire_curve.h"
#include "ui/model/graph_store.h"
#include "ui/model/resolution_cache.h"
#include "ui/model/selection.h"

namespace isochron::ui {

/// Where one wire runs and how it looks. [value type]
struct WireGeometry {
    QPointF from, to;  ///< output port centre, input port centre (canvas units)
    QColor color;
    bool selected = false;
    bool bus = false;     ///< joins whole port groups
    bool broken = false;  ///< an end names a port the node does not have
    /// A wire from a node into its own input runs under the node, at this y (canvas units).
    std::optional<double> loopBelowY;

    /// Point at parameter t in [0, 1] along the wire as drawn.
    QPointF pointAt(double t) const { return loopBelowY ? loopCurvePoint(from, to, *loopBelowY, t) : wireCurvePoint(from, to, t); }
};

/// Wires for the canvas. [ui thread]
class EdgeListModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("owned by a GraphDocument")
public:
    enum Role {
        KeyRole = Qt::UserRole + 1,
        FromNodeRole,
        FromPortRole,
        ToNodeRole,
        ToPortRole,
        TypeRole,
        ColorRole,
        FromXRole,
        FromYRole,
        ToXRole,
        ToYRole,
        BusRole,
        SelectedRole,
        LiveTextRole,
    };

    EdgeListModel(GraphStore& store, ResolutionCache& resolution, Selection& selection, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// Every wire's geometry, in row order (cached; refreshed as nodes move or ports change).
    const std::vector<WireGeometry>& geometry() const { return wires_; }
    /// Row of the wire with this key ("node.port>node.port"), or -1.
    Q_INVOKABLE int indexOf(const QString& key) const;
    /// The wire feeding input `port` of `nodeId`: {key, fromNode, fromPort, fromX, fromY, color}; empty if none.
    Q_INVOKABLE QVariantMap wireInto(const QString& nodeId, const QString& port) const;
    /// Key of the wire passing within `tolerance` of (x, y) in canvas units, or empty.
    Q_INVOKABLE QString wireAt(qreal x, qreal y, qreal tolerance) const;
    /// Short live readouts per wire key (item rate, last value); empty map to clear.
    void setLiveTexts(QHash<QString, QString> texts);
    /// Top-left corner (canvas units) of each wire's live label, in row order: near the wire's
    /// middle, clear of every node (and its note) and of the other labels when there is room. A label is
    /// `charWidth` per character plus `padding` wide and `height` high (canvas units: the view's
    /// pixel sizes over its zoom). [{x, y}] per row, {} for wires without a readout.
    Q_INVOKABLE QVariantList liveLabelPlaces(qreal charWidth, qreal padding, qreal height) const;

    /// A wire's key, "from.port>to.port" (stable across edits that do not touch the wire).
    static QString keyOf(const EdgeSpec& edge);

Q_SIGNALS:
    /// Some wire moved, appeared, vanished or changed look.
    void geometryChanged();
    /// The live readouts changed.
    void liveTextsChanged();

private:
    WireGeometry compute(const EdgeSpec& edge) const;
    void recomputeAll();
    void recomputeTouching(int nodeIndex);
    GraphStore& store_;
    ResolutionCache& resolution_;
    Selection& selection_;
    std::vector<WireGeometry> wires_;
    QHash<QString, QString> liveTexts_;
};

}  // namespace isochron::ui
