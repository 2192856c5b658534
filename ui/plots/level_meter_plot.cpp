#include "ui/plots/level_meter_plot.h"

#include <algorithm>
#include <cmath>

#include "ui/run/probe_ring.h"

namespace isochron::ui {

namespace {

constexpr double kRmsWindowSeconds = 0.3;

}  // namespace

LevelMeterPlot::LevelMeterPlot(QQuickItem* parent) : QQuickItem(parent) {
    timer_.setInterval(33);
    connect(&timer_, &QTimer::timeout, this, &LevelMeterPlot::poll);
    timer_.start();
    for (int t = -60; t <= 0; t += 6) ticks_.append(t);
}

void LevelMeterPlot::setProbe(const QString& key) {
    if (key == probe_) return;
    probe_ = key;
    ring_.reset();
    ballistics_.reset();
    hasData_ = false;
    lastWritten_ = 0;
    Q_EMIT probeChanged();
    Q_EMIT dataChanged();
}

void LevelMeterPlot::poll() {
    if (!ring_ && !probe_.isEmpty()) ring_ = ProbeRegistry::instance().find(probe_.toStdString());
    if (!ring_ || !isVisible()) return;
    const std::uint64_t written = ring_->written();
    const double rate = ring_->rateHz();
    if (written == lastWritten_ || rate <= 0) return;
    const std::uint64_t fresh = written - lastWritten_;
    lastWritten_ = written;
    samples_.resize(static_cast<std::size_t>(std::clamp(std::lround(kRmsWindowSeconds * rate), 16L, 32768L)));
    samples_.resize(ring_->readLatest(samples_.data(), samples_.size()));
    if (samples_.empty()) return;
    ballistics_.update(samples_, static_cast<std::size_t>(std::min<std::uint64_t>(fresh, samples_.size())), fresh, rate);
    hasData_ = true;
    const double top = std::clamp(std::ceil(ballistics_.heldDecibels() / 6) * 6, 0.0, 12.0);
    if (top != high_) {
        high_ = top;
        ticks_.clear();
        for (int t = -60; t <= static_cast<int>(high_); t += 6) ticks_.append(t);
    }
    Q_EMIT dataChanged();
}

}  // namespace isochron::ui
