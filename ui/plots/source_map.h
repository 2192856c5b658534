// The localization view's map when several arrays triangulate: the arrays at their poses (a disc
// and a line towards each array's azimuth 0) and each triangulated source position as a dot that
// fades over the event history, x (front) up and y (left) to the left as on the polar plot, scaled
// so that everything fits, with a grid line every `gridStep` metres.
#pragma once

#include <QColor>
#include <QPointer>
#include <QQuickItem>

#include "ui/localization/localization_feed.h"

namespace isochron::ui {

/// 2-D map of a LocalizationFeed's arrays and positions. [ui thread; updatePaintNode on the render thread while the ui thread waits]
class SourceMap : public QQuickItem {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(isochron::ui::LocalizationFeed* feed READ feed WRITE setFeed NOTIFY feedChanged)
    Q_PROPERTY(QColor arrayColor MEMBER arrayColor_ NOTIFY styleChanged)
    Q_PROPERTY(QColor sourceColor MEMBER sourceColor_ NOTIFY styleChanged)
    Q_PROPERTY(QColor gridColor MEMBER gridColor_ NOTIFY styleChanged)
    /// Metres between grid lines (chosen from the extent shown).
    Q_PROPERTY(double gridStep READ gridStep NOTIFY styleChanged)
public:
    explicit SourceMap(QQuickItem* parent = nullptr);

    LocalizationFeed* feed() const { return feed_; }
    void setFeed(LocalizationFeed* feed);
    double gridStep() const { return gridStep_; }

Q_SIGNALS:
    void feedChanged();
    void styleChanged();

protected:
    QSGNode* updatePaintNode(QSGNode* old, UpdatePaintNodeData* data) override;

private:
    QPointer<LocalizationFeed> feed_;
    QColor arrayColor_ = QColor(0x64, 0x74, 0x8b);
    QColor sourceColor_ = QColor(0xef, 0x44, 0x44);
    QColor gridColor_ = QColor(0, 0, 0, 30);
    double gridStep_ = 1;
};

}  // namespace isochron::ui
