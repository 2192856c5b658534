#include "ui/plots/bearing_time_plot.h"

#include <QSGGeometryNode>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "ui/canvas/ribbon_geometry.h"
#include "ui/plots/axis_ticks.h"

namespace isochron::ui {

BearingTimePlot::BearingTimePlot(QQuickItem* parent) : QQuickItem(parent) { setFlag(ItemHasContents, true); }

void BearingTimePlot::setEvents(BearingEventModel* events) {
    if (events == events_) return;
    if (events_) disconnect(events_, nullptr, this, nullptr);
    events_ = events;
    if (events_) {
        repaintOnChanges(*events_, *this);
        connect(events_, &BearingEventModel::clockChanged, this, &BearingTimePlot::refreshRange);
        connect(events_, &BearingEventModel::countChanged, this, &BearingTimePlot::refreshRange);
    }
    refreshRange();
    Q_EMIT eventsChanged();
    update();
}

void BearingTimePlot::setTracks(TrackHistory* tracks) {
    if (tracks == tracks_) return;
    if (tracks_) disconnect(tracks_, nullptr, this, nullptr);
    tracks_ = tracks;
    if (tracks_) {
        connect(tracks_, &TrackHistory::changed, this, &QQuickItem::update);
        connect(tracks_, &TrackHistory::changed, this, &BearingTimePlot::refreshRange);
    }
    refreshRange();
    Q_EMIT tracksChanged();
    update();
}

double BearingTimePlot::nowSeconds() const {
    double now = events_ ? events_->nowSeconds() : 0;
    if (tracks_ && !tracks_->points().empty()) now = std::max(now, tracks_->points().back().seconds);
    return now;
}

void BearingTimePlot::setSpanFrom(double seconds) {
    if (seconds == spanFrom_) return;
    spanFrom_ = seconds;
    refreshRange();
    Q_EMIT spanChanged();
}

void BearingTimePlot::setSpanTo(double seconds) {
    if (seconds == spanTo_) return;
    spanTo_ = seconds;
    refreshRange();
    Q_EMIT spanChanged();
}

void BearingTimePlot::refreshRange() {
    if (spanTo_ > spanFrom_) {
        // A past interval as it was chosen (its last kKeptSeconds, which is what the tracks hold).
        applyRange(std::max(spanFrom_, spanTo_ - TrackHistory::kKeptSeconds), spanTo_);
        return;
    }
    const double now = nowSeconds();
    double oldest = now;
    if (tracks_ && !tracks_->points().empty()) oldest = std::min(oldest, tracks_->points().front().seconds);
    if (tracks_ && !tracks_->background().empty()) oldest = std::min(oldest, tracks_->background().front().seconds);
    if (events_ && events_->rowCount() > 0) oldest = std::min(oldest, events_->at(events_->rowCount() - 1).startSeconds);
    // From the stream's start (or the oldest mark, at most kKeptSeconds back) to the clock, the span
    // at least kMinimumSpanSeconds.
    const double from = std::max(std::min(oldest, 0.0), now - TrackHistory::kKeptSeconds);
    applyRange(from, std::max(now, from + kMinimumSpanSeconds));
}

void BearingTimePlot::applyRange(double from, double to) {
    // About one labelled time per 60 px.
    const int intervals = std::max(1, static_cast<int>(width() / 60));
    QVariantList ticks;
    for (double t : niceTicks(from, to, intervals)) ticks.append(t);
    if (from == from_ && to == to_ && ticks == timeTicks_) return;
    from_ = from;
    to_ = to;
    timeTicks_ = ticks;
    Q_EMIT rangeChanged();
    update();
}

double BearingTimePlot::xFor(double seconds) const { return width() * (seconds - from_) / (to_ - from_); }

double BearingTimePlot::yFor(double degrees) const { return height() * (1.0 - degrees / 360.0); }

int BearingTimePlot::rowAt(double x, double y) const {
    if (!events_) return -1;
    int best = -1;
    double bestDistance = 8;
    for (int row = 0; row < events_->rowCount(); ++row) {
        const BearingEvent& e = events_->at(row);
        const double left = xFor(e.startSeconds), right = xFor(e.endSeconds);
        const double dx = x < left ? left - x : (x > right ? x - right : 0);
        const double d = std::hypot(dx, yFor(e.azimuthDeg) - y);
        if (d < bestDistance) {
            bestDistance = d;
            best = row;
        }
    }
    return best;
}

QColor BearingTimePlot::colorOf(int trackId) const {
    if (colors_.isEmpty()) return QColor(0x3b, 0x82, 0xf6);
    return colors_.at((trackId < 0 ? 0 : trackId) % colors_.size()).value<QColor>();
}

void BearingTimePlot::geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) {
    QQuickItem::geometryChange(newGeometry, oldGeometry);
    refreshRange();
    update();
}

QSGNode* BearingTimePlot::updatePaintNode(QSGNode* old, UpdatePaintNodeData*) {
    QSGNode* root = old;
    if (!root) {
        root = new QSGNode;
        for (int layer = 0; layer < 5; ++layer) root->appendChildNode(RibbonBuilder::createNode());  // grid, bands, lines, bars, highlight
    }
    const double start = from_;

    RibbonBuilder grid;
    for (int azimuth = 0; azimuth <= 360; azimuth += 90) {
        const QPointF line[2] = {{0, yFor(azimuth)}, {width(), yFor(azimuth)}};
        grid.add(line, 2, gridColor_, 0.4, 1.0);
    }
    for (const QVariant& tick : timeTicks_) {
        const QPointF line[2] = {{xFor(tick.toDouble()), 0}, {xFor(tick.toDouble()), height()}};
        grid.add(line, 2, gridColor_, 0.3, 1.0);
    }
    grid.fill(static_cast<QSGGeometryNode*>(root->childAtIndex(0)));

    // Background: a band around every background bearing and every frame of a background track, as
    // wide as the time to the next one of the same source (at most a second).
    RibbonBuilder bands;
    const double bandHalf = height() * kBandDegrees / 360.0;
    // A band ends at the axis's end: the last bearing's second reaches past the clock (or a past interval's end).
    auto band = [&](double from, double to, double azimuth, double opacity) {
        from = std::max(from, start);
        to = std::min(to, to_);
        if (to <= from) return;
        QColor color = backgroundColor_;
        color.setAlphaF(static_cast<float>(color.alphaF() * opacity));
        const QPointF span[2] = {{xFor(from), yFor(azimuth)}, {xFor(to), yFor(azimuth)}};
        bands.add(span, 2, color, bandHalf, 1.0);
    };
    // Lines: observed frames of each track, broken at silences.
    RibbonBuilder lines;
    if (tracks_) {
        for (const BackgroundPoint& b : tracks_->background()) band(b.seconds, b.seconds + 1.0, b.azimuthDeg, b.steady ? 1.0 : 0.6);
        std::map<int, std::vector<QPointF>> open;   // track id -> the line being built
        std::map<int, double> lastSeen;
        auto flush = [&](int id) {
            auto& points = open[id];
            if (points.size() >= 2) lines.add(points.data(), static_cast<int>(points.size()), colorOf(id), 1.5, 1.0);
            points.clear();
        };
        for (const TrackPoint& p : tracks_->points()) {
            if (p.seconds < start - kLineGapSeconds) continue;
            if (p.background) {
                band(p.seconds, p.seconds + 0.05, p.azimuthDeg, 0.6);
                continue;
            }
            if (!p.observed) continue;
            auto& points = open[p.trackId];
            const auto seen = lastSeen.find(p.trackId);
            const bool wraps = !points.empty() && std::abs(points.back().y() - yFor(p.azimuthDeg)) > height() / 2;
            if (seen != lastSeen.end() && (p.seconds - seen->second > kLineGapSeconds || wraps)) flush(p.trackId);
            points.emplace_back(xFor(p.seconds), yFor(p.azimuthDeg));
            lastSeen[p.trackId] = p.seconds;
        }
        for (auto& [id, points] : open) flush(id);
    }
    bands.fill(static_cast<QSGGeometryNode*>(root->childAtIndex(1)));
    lines.fill(static_cast<QSGGeometryNode*>(root->childAtIndex(2)));

    RibbonBuilder bars, highlight;
    if (events_) {
        for (int row = events_->rowCount() - 1; row >= 0; --row) {
            const BearingEvent& e = events_->at(row);
            if (e.endSeconds < start) continue;
            QColor color = colorOf(e.trackId);
            color.setAlphaF(static_cast<float>(0.55 + 0.45 * std::clamp(e.confidence, 0.0, 1.0)));  // never as pale as the background
            // Within the axis: an event may start before the kept 120 s or end after a past interval.
            const double left = std::max(xFor(e.startSeconds), 0.0);
            const double right = std::min(std::max(xFor(e.endSeconds), xFor(e.startSeconds) + 3), width());
            const QPointF span[2] = {{left, yFor(e.azimuthDeg)}, {right, yFor(e.azimuthDeg)}};
            bars.add(span, 2, color, 3.0, 1.0);
        }
        const int selected = events_->selectedRow();
        if (selected >= 0) {
            const BearingEvent& e = events_->at(selected);
            const double left = xFor(e.startSeconds) - 4, right = std::max(xFor(e.endSeconds), xFor(e.startSeconds) + 3) + 4;
            const double y = yFor(e.azimuthDeg);
            const QPointF box[5] = {{left, y - 7}, {right, y - 7}, {right, y + 7}, {left, y + 7}, {left, y - 7}};
            highlight.add(box, 5, highlightColor_, 1.0, 1.0);
        }
    }
    bars.fill(static_cast<QSGGeometryNode*>(root->childAtIndex(3)));
    highlight.fill(static_cast<QSGGeometryNode*>(root->childAtIndex(4)));
    return root;
}

}  // namespace isochron::ui
