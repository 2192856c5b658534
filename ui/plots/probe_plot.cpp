#include "ui/plots/probe_plot.h"

#include <QSGFlatColorMaterial>
#include <QSGGeometryNode>

#include <algorithm>
#include <cmath>

#include "ui/canvas/ribbon_geometry.h"
#include "ui/run/probe_ring.h"

namespace isochron::ui {

ProbePlot::ProbePlot(QQuickItem* parent) : QQuickItem(parent) {
    setFlag(ItemHasContents, true);
    timer_.setInterval(33);
    connect(&timer_, &QTimer::timeout, this, &ProbePlot::poll);
    timer_.start();
}

void ProbePlot::setProbe(const QString& key) {
    if (key == probe_) return;
    probe_ = key;
    ring_.reset();
    values_.clear();
    lastWritten_ = 0;
    Q_EMIT probeChanged();
    update();
}

void ProbePlot::poll() {
    if (!ring_ && !probe_.isEmpty()) ring_ = ProbeRegistry::instance().find(probe_.toStdString());
    if (!ring_ || !isVisible()) return;
    const std::uint64_t written = ring_->written();
    if (written == lastWritten_) return;
    lastWritten_ = written;
    const int frame = ring_->frameLength();
    const std::size_t wanted = frame > 0 ? static_cast<std::size_t>(frame) : static_cast<std::size_t>(span_);
    values_.resize(wanted);
    values_.resize(ring_->readLatest(values_.data(), wanted));
    mode_ = frame > 0 ? "spectrum" : "scope";
    const double rate = ring_->rateHz();
    extent_ = rate <= 0 ? 0 : frame > 0 ? rate / 2 : static_cast<double>(values_.size()) / rate;
    if (!values_.empty()) {
        const auto [lo, hi] = std::minmax_element(values_.begin(), values_.end());
        double low = *lo, high = *hi;
        if (mode_ == "scope" && rate > 0) {  // a signal: symmetric about zero
            const double reach = std::max({std::abs(low), std::abs(high), 1e-6});
            low = -reach * 1.05;
            high = reach * 1.05;
        } else if (mode_ == "scope") {  // scalars: their own range
            const double pad = std::max((high - low) * 0.08, 1e-6);
            low -= pad;
            high += pad;
        } else {
            low = std::max(low, high - 120.0);  // a spectrum in dB: the top 120 dB
            if (high - low < 1e-6) high = low + 1;
        }
        low_ = low;
        high_ = high;
    }
    Q_EMIT dataChanged();
    update();
}

QSGNode* ProbePlot::updatePaintNode(QSGNode* old, UpdatePaintNodeData*) {
    QSGNode* root = old;
    if (!root) {
        root = new QSGNode;
        auto* axis = new QSGGeometryNode;
        auto* geometry = new QSGGeometry(QSGGeometry::defaultAttributes_Point2D(), 2);
        geometry->setDrawingMode(QSGGeometry::DrawLines);
        axis->setGeometry(geometry);
        axis->setFlag(QSGNode::OwnsGeometry);
        axis->setMaterial(new QSGFlatColorMaterial);
        axis->setFlag(QSGNode::OwnsMaterial);
        root->appendChildNode(axis);
        root->appendChildNode(RibbonBuilder::createNode());
    }
    const double w = width(), h = height();
    auto toY = [&](double v) { return std::clamp(h - (v - low_) / (high_ - low_) * h, 0.0, h); };
    auto* axis = static_cast<QSGGeometryNode*>(root->childAtIndex(0));
    const float zeroY = static_cast<float>(std::round(mode_ == "scope" ? toY(0) : h - 0.5) + 0.5);
    axis->geometry()->vertexDataAsPoint2D()[0] = {0.f, zeroY};
    axis->geometry()->vertexDataAsPoint2D()[1] = {static_cast<float>(w), zeroY};
    static_cast<QSGFlatColorMaterial*>(axis->material())->setColor(gridColor_);
    axis->markDirty(QSGNode::DirtyGeometry | QSGNode::DirtyMaterial);

    // At most two points (a column's extremes) per pixel column.
    std::vector<QPointF> points;
    const std::size_t n = values_.size();
    if (n > 1 && w > 1) {
        const int columns = static_cast<int>(w);
        points.reserve(2 * static_cast<std::size_t>(columns));
        std::size_t i = 0;
        for (int column = 0; column < columns && i < n; ++column) {
            const std::size_t end = std::max(i + 1, static_cast<std::size_t>(static_cast<double>(column + 1) / columns * static_cast<double>(n)));
            std::size_t minAt = i, maxAt = i;
            for (std::size_t k = i; k < std::min(end, n); ++k) {
                if (values_[k] < values_[minAt]) minAt = k;
                if (values_[k] > values_[maxAt]) maxAt = k;
            }
            const double x = static_cast<double>(i) / static_cast<double>(n - 1) * w;
            points.emplace_back(x, toY(values_[std::min(minAt, maxAt)]));
            if (minAt != maxAt) points.emplace_back(x, toY(values_[std::max(minAt, maxAt)]));
            i = end;
        }
    }
    RibbonBuilder ribbons;
    ribbons.add(points.data(), static_cast<int>(points.size()), color_, 0.75, 1.0);
    ribbons.fill(static_cast<QSGGeometryNode*>(root->childAtIndex(1)));
    return root;
}

}  // namespace isochron::ui
