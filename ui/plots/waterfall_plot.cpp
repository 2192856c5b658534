#include "ui/plots/waterfall_plot.h"

#include <QQuickWindow>
#include <QSGSimpleTextureNode>

#include <algorithm>
#include <bit>
#include <cmath>

#include "ui/plots/axis_ticks.h"
#include "ui/run/probe_ring.h"

namespace isochron::ui {

namespace {

constexpr std::size_t kMinimumTransform = 64;
constexpr double kDynamicRangeDecibels = 80;  // from black to pale yellow

QVariantList toList(const std::vector<double>& values) {
    QVariantList list;
    for (double v : values) list.append(v);
    return list;
}

}  // namespace

WaterfallPlot::WaterfallPlot(QQuickItem* parent) : QQuickItem(parent) {
    setFlag(ItemHasContents, true);
    timer_.setInterval(33);
    connect(&timer_, &QTimer::timeout, this, &WaterfallPlot::poll);
    timer_.start();
}

void WaterfallPlot::setProbe(const QString& key) {
    if (key == probe_) return;
    probe_ = key;
    ring_.reset();
    rows_.clear();
    lastWritten_ = 0;
    imageChanged_ = true;
    Q_EMIT probeChanged();
    Q_EMIT dataChanged();
    update();
}

void WaterfallPlot::poll() {
    if (!ring_ && !probe_.isEmpty()) ring_ = ProbeRegistry::instance().find(probe_.toStdString());
    if (!ring_ || !isVisible()) return;
    const std::uint64_t written = ring_->written();
    if (written == lastWritten_) return;
    lastWritten_ = written;
    const std::size_t available = static_cast<std::size_t>(std::min<std::uint64_t>(written, static_cast<std::uint64_t>(std::clamp(span_, 64, 32768))));
    if (available < kMinimumTransform) return;
    samples_.resize(std::bit_floor(available));
    samples_.resize(ring_->readLatest(samples_.data(), samples_.size()));
    if (samples_.size() < kMinimumTransform || !std::has_single_bit(samples_.size())) return;
    transform_.compute(samples_, spectrum_);

    // Whole 10 dB steps at the top, moved only when the loudest bin leaves the top 20 dB, so the
    // colours hold still while the level stays.
    const double loudest = *std::max_element(spectrum_.begin(), spectrum_.end());
    const double top = std::ceil((loudest + 3) / 10) * 10;
    if (!hasData() || top > high_ || top < high_ - 20) high_ = top;
    low_ = high_ - kDynamicRangeDecibels;
    rows_.setRange(low_, high_);
    rows_.push(spectrum_, written);

    const double rate = ring_->rateHz();
    xTo_ = rate > 0 ? rate / 2 : 0.5;
    xUnit_ = rate > 0 ? "Hz" : "cycles/sample";
    historySeconds_ = rate > 0 ? static_cast<double>(rows_.samplesSpanned()) / rate : 0;
    xTicks_ = toList(niceTicks(0, xTo_, std::max(2, static_cast<int>(width() / 70))));
    levelTicks_ = toList(niceTicks(low_, high_, 4));
    imageChanged_ = true;
    Q_EMIT dataChanged();
    update();
}

QVariantMap WaterfallPlot::readingAt(qreal px, qreal py) const {
    if (!hasData() || width() <= 0 || height() <= 0) return {};
    const int age = static_cast<int>(std::floor(py / height() * kRows));
    if (age < 0 || age >= rows_.filled()) return {};
    const int last = rows_.bins() - 1;
    const int bin = static_cast<int>(std::clamp(std::round(px / width() * last), 0.0, static_cast<double>(last)));
    const double secondsPerRow = rows_.filled() > 1 ? historySeconds_ / (rows_.filled() - 1) : 0;
    return {{"x", xTo_ * bin / std::max(last, 1)}, {"y", rows_.decibelsAt(age, bin)}, {"age", secondsPerRow * age}};
}

qreal WaterfallPlot::pixelOfX(double x) const { return xTo_ > 0 ? x / xTo_ * width() : 0; }

QSGNode* WaterfallPlot::updatePaintNode(QSGNode* old, UpdatePaintNodeData*) {
    auto* node = static_cast<QSGSimpleTextureNode*>(old);
    if (rows_.image().isNull()) {
        delete node;
        return nullptr;
    }
    if (!node) {
        node = new QSGSimpleTextureNode;
        node->setOwnsTexture(true);
        node->setFiltering(QSGTexture::Linear);
        imageChanged_ = true;
    }
    if (imageChanged_) {
        node->setTexture(window()->createTextureFromImage(rows_.image()));
        imageChanged_ = false;
    }
    node->setRect(boundingRect());
    return node;
}

}  // namespace isochron::ui
