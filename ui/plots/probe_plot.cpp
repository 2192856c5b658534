#include "ui/plots/probe_plot.h"

#include <QSGFlatColorMaterial>
#include <QSGGeometryNode>

#include <algorithm>
#include <bit>
#include <cmath>

#include "ui/canvas/ribbon_geometry.h"
#include "ui/plots/axis_ticks.h"
#include "ui/run/probe_ring.h"

namespace isochron::ui {

namespace {

constexpr std::size_t kScalarSpan = 512;  // scalars shown by a scope
constexpr std::size_t kMinimumTransform = 64;

QVariantList toList(const std::vector<double>& values) {
    QVariantList list;
    for (double v : values) list.append(v);
    return list;
}

}  // namespace

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
    Q_EMIT dataChanged();
    update();
}

void ProbePlot::poll() {
    if (!ring_ && !probe_.isEmpty()) ring_ = ProbeRegistry::instance().find(probe_.toStdString());
    if (!ring_ || !isVisible()) return;
    const std::uint64_t written = ring_->written();
    if (written == lastWritten_) return;
    lastWritten_ = written;
    if (kind_ == "spectrum") takeSpectrum(ring_->rateHz());
    else takeScope(ring_->frameLength(), ring_->rateHz());
    setTicks();
    Q_EMIT dataChanged();
    update();
}

void ProbePlot::takeScope(int frameLength, double rate) {
    const std::size_t wanted = frameLength > 0 ? static_cast<std::size_t>(frameLength)
                               : rate > 0      ? static_cast<std::size_t>(std::clamp(span_, 16, 32768))
                                               : kScalarSpan;
    samples_.resize(wanted);
    samples_.resize(ring_->readLatest(samples_.data(), wanted));
    values_ = samples_;
    if (values_.empty()) return;
    const double last = static_cast<double>(values_.size() - 1);
    if (frameLength > 0) {
        xFrom_ = 0, xTo_ = last, xUnit_ = "index";
    } else if (rate > 0) {
        xFrom_ = -last / rate, xTo_ = 0, xUnit_ = "s";
    } else {
        xFrom_ = -last, xTo_ = 0, xUnit_ = "item";
    }
    const auto [lo, hi] = std::minmax_element(values_.begin(), values_.end());
    if (frameLength == 0 && rate > 0) {  // a signal: symmetric about zero, at a round height
        const double reach = std::max({std::abs(*lo), std::abs(*hi), 1e-6f}) * 1.05;
        const double step = niceStep(2 * reach, 4);
        high_ = std::ceil(reach / step) * step;
        low_ = -high_;
    } else {
        const double pad = std::max((*hi - *lo) * 0.08, 1e-6);
        const double step = niceStep(*hi - *lo + 2 * pad, 4);
        low_ = std::floor((*lo - pad) / step) * step;
        high_ = std::ceil((*hi + pad) / step) * step;
    }
}

void ProbePlot::takeSpectrum(double rate) {
    const std::size_t available = static_cast<std::size_t>(std::min<std::uint64_t>(lastWritten_, static_cast<std::uint64_t>(std::clamp(span_, 64, 32768))));
    if (available < kMinimumTransform) return;
    samples_.resize(std::bit_floor(available));
    samples_.resize(ring_->readLatest(samples_.data(), samples_.size()));
    if (samples_.size() < kMinimumTransform || !std::has_single_bit(samples_.size())) return;
    spectrum_.compute(samples_, values_);
    const double nyquist = rate > 0 ? rate / 2 : 0.5;
    xFrom_ = 0, xTo_ = nyquist, xUnit_ = rate > 0 ? "Hz" : "cycles/sample";
    peak_ = findPeak(values_, nyquist / static_cast<double>(values_.size() - 1));
    // Whole 10 dB steps, moved only when the peak leaves the top 20 dB, so the scale holds still.
    const double top = std::ceil((peak_.decibels + 3) / 10) * 10;
    if (top > high_ || top < high_ - 20 || low_ >= high_) high_ = top;
    const double quietest = *std::min_element(values_.begin(), values_.end());
    low_ = std::min(high_ - 40, std::max(high_ - 120, std::floor(quietest / 10) * 10));
}

void ProbePlot::setTicks() {
    yTicks_ = toList(niceTicks(low_, high_, kind_ == "spectrum" ? 6 : 4));
    xTicks_ = toList(niceTicks(xFrom_, xTo_, std::max(2, static_cast<int>(width() / 70))));
}

QVariantMap ProbePlot::readingAt(qreal px) const {
    if (values_.empty() || width() <= 0) return {};
    const double last = static_cast<double>(values_.size() - 1);
    const auto i = static_cast<std::size_t>(std::clamp(std::round(px / width() * last), 0.0, last));
    const double x = values_.size() > 1 ? xFrom_ + (xTo_ - xFrom_) * static_cast<double>(i) / last : xFrom_;
    return {{"x", x}, {"y", values_[i]}};
}

qreal ProbePlot::pixelOfX(double x) const { return xTo_ > xFrom_ ? (x - xFrom_) / (xTo_ - xFrom_) * width() : 0; }

QSGNode* ProbePlot::updatePaintNode(QSGNode* old, UpdatePaintNodeData*) {
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
    auto toY = [&](double v) { return std::clamp(h - (v - low_) / (high_ - low_) * h, 0.0, h); };
    auto* grid = static_cast<QSGGeometryNode*>(root->childAtIndex(0));
    const int lines = hasData() ? static_cast<int>(yTicks_.size() + xTicks_.size()) : 0;
    grid->geometry()->allocate(2 * lines);
    QSGGeometry::Point2D* v = grid->geometry()->vertexDataAsPoint2D();
    if (hasData()) {
        for (const QVariant& tick : yTicks_) {
            const float y = static_cast<float>(std::round(toY(tick.toDouble())) + 0.5);
            *v++ = {0.f, y};
            *v++ = {static_cast<float>(w), y};
        }
        for (const QVariant& tick : xTicks_) {
            const float x = static_cast<float>(std::round(pixelOfX(tick.toDouble())) + 0.5);
            *v++ = {x, 0.f};
            *v++ = {x, static_cast<float>(h)};
        }
    }
    static_cast<QSGFlatColorMaterial*>(grid->material())->setColor(gridColor_);
    grid->markDirty(QSGNode::DirtyGeometry | QSGNode::DirtyMaterial);

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
