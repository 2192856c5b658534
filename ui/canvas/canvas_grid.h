// The canvas background grid: minor and major lines for the visible part of the canvas, drawn as
// one line geometry in screen space so it stays one pixel wide at any zoom.
#pragma once

#include <QColor>
#include <QQuickItem>

namespace isochron::ui {

/// Grid lines under the world at pan (originX, originY) and `zoom`. [ui thread]
class CanvasGrid : public QQuickItem {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(qreal originX MEMBER originX_ WRITE setOriginX NOTIFY viewChanged)
    Q_PROPERTY(qreal originY MEMBER originY_ WRITE setOriginY NOTIFY viewChanged)
    Q_PROPERTY(qreal zoom MEMBER zoom_ WRITE setZoom NOTIFY viewChanged)
    /// Canvas units between minor lines; every fifth line is major.
    Q_PROPERTY(qreal step MEMBER step_ WRITE setStep NOTIFY viewChanged)
    Q_PROPERTY(QColor minorColor MEMBER minorColor_ WRITE setMinorColor NOTIFY viewChanged)
    Q_PROPERTY(QColor majorColor MEMBER majorColor_ WRITE setMajorColor NOTIFY viewChanged)
public:
    explicit CanvasGrid(QQuickItem* parent = nullptr);
    void setOriginX(qreal v);
    void setOriginY(qreal v);
    void setZoom(qreal v);
    void setStep(qreal v);
    void setMinorColor(const QColor& c);
    void setMajorColor(const QColor& c);

Q_SIGNALS:
    void viewChanged();

protected:
    QSGNode* updatePaintNode(QSGNode* old, UpdatePaintNodeData* data) override;
    void geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) override;

private:
    void changed();
    qreal originX_ = 0, originY_ = 0, zoom_ = 1, step_ = 20;
    QColor minorColor_ = QColor(0, 0, 0, 18), majorColor_ = QColor(0, 0, 0, 40);
};

}  // namespace isochron::ui
