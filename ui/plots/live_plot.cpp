#include "ui/plots/live_plot.h"

#include <QSGFlatColorMaterial>
#include <QSGGeometryNode>

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/canvas/ribbon_geometry.h"
#include "ui/plots/axis_ticks.h"
#include "ui/plots/decimation.h"

namespace isochron::ui {

LivePlot::LivePlot(QQuickItem* parent) : QQuickItem(parent) { setFlag(ItemHasContents, true); }

void LivePlot::setStore(TelemetryStore* store) {
    if (store_ == store) return;
    disconnect(updates_);
    store_ = store;
    if (store_) {
        updates_ = connect(store_, &TelemetryStore::updated, this, [this] {
            refreshRange();
            update();
        });
    }
    Q_EMIT storeChanged();
    refreshRange();
    update();
}

void LivePlot::setSeries(const QVariantList& series) {
    series_ = series;
    Q_EMIT seriesChanged();
    refreshRange();
    update();
}

void LivePlot::setTimeWindow(double seconds) {
    if (seconds == timeWindow_) return;
    timeWindow_ = seconds;
    Q_EMIT seriesChanged();
    refreshRange();
    update();
}

void LivePlot::geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) {
    QQuickItem::geometryChange(newGeometry, oldGeometry);
    if (newGeometry.height() != oldGeometry.height()) refreshRange();  // fewer labels on a shorter plot
    update();
}

void LivePlot::refreshRange() {
    double newest = 0;
    double low = std::numeric_limits<double>::max(), high = std::numeric_limits<double>::lowest();
    if (store_) {
        for (const QVariant& entry : series_) {
            const QVariantMap s = entry.toMap();
            const SeriesRing* ring = store_->series(s.value("run", -1).toInt(), s.value("key").toString().toStdString());
            if (ring && ring->size()) newest = std::max(newest, ring->time(ring->size() - 1));
        }
    }
    // A run shorter than the window fills the plot (a 3 s run would otherwise use a tenth of a 30 s
    // axis); once longer, the window scrolls with the newest point.
    constexpr double kShortestSpan = 0.1;  // s: the first points of a run are not stretched over the whole width
    timeTo_ = timeWindow_ > 0 ? std::max(newest, kShortestSpan) : std::max(newest, 1.0);
    timeFrom_ = timeWindow_ > 0 ? std::max(0.0, timeTo_ - timeWindow_) : 0;
    if (store_) {
        for (const QVariant& entry : series_) {
            const QVariantMap s = entry.toMap();
            const SeriesRing* ring = store_->series(s.value("run", -1).toInt(), s.value("key").toString().toStdString());
            if (!ring) continue;
            for (std::size_t i = ring->size(); i-- > 0;) {
                if (ring->time(i) < timeFrom_) break;
                low = std::min(low, ring->value(i));
                high = std::max(high, ring->value(i));
            }
        }
    }
    if (fixedMaximum_ > fixedMinimum_) {
        low = fixedMinimum_;
        high = fixedMaximum_;
    } else {
        if (low > high) low = high = 0;
        if (includeZero_) low = std::min(low, 0.0);
        if (high - low < 1e-9) high = low + 1;
        high += (high - low) * 0.08;
    }
    // About one labelled grid line per 28 px of height, so the value labels never overlap.
    const int intervals = std::clamp(static_cast<int>(height() / 28), 1, 4);
    const double step = niceStep(high - low, intervals);
    if (!(fixedMaximum_ > fixedMinimum_)) {
        low = std::floor(low / step) * step;
        high = std::ceil(high / step) * step;
    }
    QVariantList ticks;
    for (double v : niceTicks(low, high, intervals)) ticks.append(v);
    low_ = low;
    high_ = high;
    ticks_ = ticks;
    Q_EMIT rangeChanged();
}

QSGNode* LivePlot::updatePaintNode(QSGNode* old, UpdatePaintNodeData*) {
    QSGNode* root = old;
    if (!root) {
        root = new QSGNode;
        auto* grid = new QSGGeometryNode;
        auto* geometry = new QSGGeometry(QSGGeometry::defaultAttributes_Point2D(), 0);
        geometry->setDrawingMode(QSGGeometry::DrawLines);
        grid->setGeometry(geometry);
        grid->setFlag(QSGNode::OwnsGeometry);
        grid->setMaterial(new QSGFlatColorMaterial);
        grid->setFlag(QSGNode::OwnsMaterial);
        root->appendChildNode(grid);
        root->appendChildNode(RibbonBuilder::createNode());
    }
    const double w = width(), h = height();
    auto toY = [&](double v) { return h - (v - low_) / (high_ - low_) * h; };
    auto toX = [&](double t) { return (t - timeFrom_) / (timeTo_ - timeFrom_) * w; };

    auto* grid = static_cast<QSGGeometryNode*>(root->childAtIndex(0));
    grid->geometry()->allocate(2 * static_cast<int>(ticks_.size()));
    QSGGeometry::Point2D* line = grid->geometry()->vertexDataAsPoint2D();
    for (const QVariant& tick : ticks_) {
        const float y = static_cast<float>(std::round(toY(tick.toDouble())) + 0.5);
        *line++ = {0.f, y};
        *line++ = {static_cast<float>(w), y};
    }
    static_cast<QSGFlatColorMaterial*>(grid->material())->setColor(gridColor_);
    grid->markDirty(QSGNode::DirtyGeometry | QSGNode::DirtyMaterial);

    RibbonBuilder ribbons;
    if (store_ && w > 1) {
        std::vector<QPointF> points;
        for (const QVariant& entry : series_) {
            const QVariantMap s = entry.toMap();
            const SeriesRing* ring = store_->series(s.value("run", -1).toInt(), s.value("key").toString().toStdString());
            if (!ring) continue;
            const std::vector<PlotPoint> reduced = decimateMinMax(*ring, timeFrom_, timeTo_, static_cast<int>(w));
            points.clear();
            for (const PlotPoint& p : reduced) points.emplace_back(toX(p.time), std::clamp(toY(p.value), -1.0, h + 1));
            const QColor color = s.value("color").value<QColor>();
            ribbons.add(points.data(), static_cast<int>(points.size()), color.isValid() ? color : QColor(Qt::gray),
                        s.value("width", 1.5).toDouble() / 2, 1.0);
        }
    }
    ribbons.fill(static_cast<QSGGeometryNode*>(root->childAtIndex(1)));
    return root;
}

}  // namespace isochron::ui
