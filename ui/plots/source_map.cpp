#include "ui/plots/source_map.h"

#include <QSGGeometryNode>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "ui/canvas/ribbon_geometry.h"
#include "ui/plots/disc_geometry.h"

namespace isochron::ui {
namespace {

constexpr double kDegree = std::numbers::pi / 180.0;
constexpr double kMargin = 16;  // px

/// 1, 2 or 5 times a power of ten, about a fifth of `extent`.
double niceStep(double extent) {
    const double raw = std::max(extent / 5, 1e-3);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0}) {
        if (m * power >= raw) return m * power;
    }
    return 10 * power;
}

}  // namespace

SourceMap::SourceMap(QQuickItem* parent) : QQuickItem(parent) { setFlag(ItemHasContents, true); }

void SourceMap::setFeed(LocalizationFeed* feed) {
    if (feed == feed_) return;
    if (feed_) disconnect(feed_, nullptr, this, nullptr);
    feed_ = feed;
    if (feed_) {
        connect(feed_, &LocalizationFeed::positionsChanged, this, &QQuickItem::update);
        connect(feed_, &LocalizationFeed::outputsChanged, this, &QQuickItem::update);
        connect(feed_->events(), &BearingEventModel::clockChanged, this, &QQuickItem::update);
    }
    Q_EMIT feedChanged();
    update();
}

QSGNode* SourceMap::updatePaintNode(QSGNode* old, UpdatePaintNodeData*) {
    QSGNode* root = old;
    if (!root) {
        root = new QSGNode;
        root->appendChildNode(RibbonBuilder::createNode());  // grid and array headings
        root->appendChildNode(RibbonBuilder::createNode());  // arrays and sources
    }
    RibbonBuilder lines;
    DiscBuilder dots;
    if (feed_) {
        // Map x (front) is up the screen, map y (left) is to the left, as on the polar plot.
        const QVariantList arrays = feed_->arrays();
        double minX = -1, maxX = 1, minY = -1, maxY = 1;
        auto include = [&](double x, double y) {
            minX = std::min(minX, x), maxX = std::max(maxX, x), minY = std::min(minY, y), maxY = std::max(maxY, y);
        };
        for (const QVariant& a : arrays) include(a.toMap()["x"].toDouble(), a.toMap()["y"].toDouble());
        for (const SourcePosition& p : feed_->positions()) include(p.xMetres, p.yMetres);
        const double scale = std::min((height() - 2 * kMargin) / (maxX - minX), (width() - 2 * kMargin) / (maxY - minY));
        const double midX = (minX + maxX) / 2, midY = (minY + maxY) / 2;
        auto toScreen = [&](double x, double y) { return QPointF(width() / 2 - (y - midY) * scale, height() / 2 - (x - midX) * scale); };

        const double step = niceStep(std::max(maxX - minX, maxY - minY));
        if (step != gridStep_) {
            gridStep_ = step;
            QMetaObject::invokeMethod(this, &SourceMap::styleChanged, Qt::QueuedConnection);  // not from the render thread's sync step
        }
        const double halfWidthM = width() / 2 / scale, halfHeightM = height() / 2 / scale;
        for (double x = std::ceil((midX - halfHeightM) / step) * step; x <= midX + halfHeightM; x += step) {
            const QPointF line[2] = {toScreen(x, midY + halfWidthM), toScreen(x, midY - halfWidthM)};
            lines.add(line, 2, gridColor_, 0.4, 1.0);
        }
        for (double y = std::ceil((midY - halfWidthM) / step) * step; y <= midY + halfWidthM; y += step) {
            const QPointF line[2] = {toScreen(midX + halfHeightM, y), toScreen(midX - halfHeightM, y)};
            lines.add(line, 2, gridColor_, 0.4, 1.0);
        }
        for (const QVariant& a : arrays) {
            const QVariantMap pose = a.toMap();
            const double x = pose["x"].toDouble(), y = pose["y"].toDouble(), heading = pose["heading"].toDouble() * kDegree;
            const QPointF at = toScreen(x, y);
            const QPointF front[2] = {at, toScreen(x + std::cos(heading) * 18 / scale, y + std::sin(heading) * 18 / scale)};
            lines.add(front, 2, arrayColor_, 1.0, 1.0);
            dots.add(at, 6, arrayColor_);
        }
        const BearingEventModel* events = feed_->events();
        for (const SourcePosition& p : feed_->positions()) {
            const double opacity = fadedOpacity(events->nowSeconds() - p.endSeconds, events->historySeconds(), 1.0);
            if (opacity <= 0) continue;
            QColor color = sourceColor_;
            color.setAlphaF(static_cast<float>(opacity));
            dots.add(toScreen(p.xMetres, p.yMetres), 5, color);
        }
    }
    lines.fill(static_cast<QSGGeometryNode*>(root->childAtIndex(0)));
    dots.fill(static_cast<QSGGeometryNode*>(root->childAtIndex(1)));
    return root;
}

}  // namespace isochron::ui
