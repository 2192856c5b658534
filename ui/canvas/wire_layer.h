// Draws every wire of a graph as one scene-graph geometry node: anti-aliased Bézier ribbons in the
// type's colour, rebuilt only when the edge model reports a change, plus the wire being dragged.
#pragma once

#include <QColor>
#include <QPointer>
#include <QPointF>
#include <QQuickItem>

#include "ui/model/edge_list_model.h"

namespace isochron::ui {

/// The wires of a canvas, in canvas units (it lives inside the zoomed world item). [ui thread;
/// updatePaintNode on the render thread while the ui thread waits]
class WireLayer : public QQuickItem {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(isochron::ui::EdgeListModel* edges READ edges WRITE setEdges NOTIFY edgesChanged)
    /// Canvas units per screen pixel (1 / zoom), so wires keep their width on screen.
    Q_PROPERTY(qreal pixelSize READ pixelSize WRITE setPixelSize NOTIFY pixelSizeChanged)
    Q_PROPERTY(bool dragActive READ dragActive WRITE setDragActive NOTIFY dragChanged)
    Q_PROPERTY(QPointF dragFrom READ dragFrom WRITE setDragFrom NOTIFY dragChanged)
    Q_PROPERTY(QPointF dragTo READ dragTo WRITE setDragTo NOTIFY dragChanged)
    Q_PROPERTY(QColor dragColor READ dragColor WRITE setDragColor NOTIFY dragChanged)
    Q_PROPERTY(QColor selectionColor READ selectionColor WRITE setSelectionColor NOTIFY selectionColorChanged)
public:
    explicit WireLayer(QQuickItem* parent = nullptr);

    EdgeListModel* edges() const { return edges_; }
    void setEdges(EdgeListModel* edges);
    qreal pixelSize() const { return pixelSize_; }
    void setPixelSize(qreal size);
    bool dragActive() const { return dragActive_; }
    void setDragActive(bool active);
    QPointF dragFrom() const { return dragFrom_; }
    void setDragFrom(QPointF point);
    QPointF dragTo() const { return dragTo_; }
    void setDragTo(QPointF point);
    QColor dragColor() const { return dragColor_; }
    void setDragColor(const QColor& color);
    QColor selectionColor() const { return selectionColor_; }
    void setSelectionColor(const QColor& color);

Q_SIGNALS:
    void edgesChanged();
    void pixelSizeChanged();
    void dragChanged();
    void selectionColorChanged();

protected:
    QSGNode* updatePaintNode(QSGNode* old, UpdatePaintNodeData* data) override;

private:
    QPointer<EdgeListModel> edges_;
    QMetaObject::Connection geometryConnection_;
    qreal pixelSize_ = 1;
    bool dragActive_ = false;
    QPointF dragFrom_, dragTo_;
    QColor dragColor_ = Qt::gray;
    QColor selectionColor_ = QColor(0xf5, 0x9e, 0x0b);
};

}  // namespace isochron::ui
