#include "ui/plots/waterfall_rows.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace isochron::ui {

QRgb waterfallColour(double fraction) {
    struct Stop {
        double at;
        int r, g, b;
    };
    // Close to matplotlib's "inferno": perceived brightness rises all the way.
    static constexpr std::array<Stop, 5> stops{{{0.0, 0, 0, 4}, {0.25, 40, 11, 84}, {0.5, 159, 42, 99}, {0.75, 246, 125, 21}, {1.0, 252, 255, 164}}};
    const double f = std::clamp(std::isnan(fraction) ? 0.0 : fraction, 0.0, 1.0);
    std::size_t i = 1;
    while (i + 1 < stops.size() && f > stops[i].at) ++i;
    const Stop& a = stops[i - 1];
    const Stop& b = stops[i];
    const double t = (f - a.at) / (b.at - a.at);
    auto mix = [t](int from, int to) { return static_cast<int>(std::lround(from + (to - from) * t)); };
    return qRgb(mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b));
}

WaterfallRows::WaterfallRows(int capacity) : capacity_(std::max(capacity, 1)) {}

void WaterfallRows::push(std::span<const float> decibels, std::uint64_t streamPosition) {
    if (decibels.empty()) return;
    if (static_cast<int>(decibels.size()) != bins_) {
        bins_ = static_cast<int>(decibels.size());
        decibels_.assign(static_cast<std::size_t>(capacity_) * decibels.size(), 0.f);
        positions_.assign(static_cast<std::size_t>(capacity_), 0);
        filled_ = 0;
        newest_ = -1;
        image_ = QImage(bins_, capacity_, QImage::Format_ARGB32_Premultiplied);
    }
    newest_ = (newest_ + 1) % capacity_;
    filled_ = std::min(filled_ + 1, capacity_);
    std::copy(decibels.begin(), decibels.end(), decibels_.begin() + static_cast<std::ptrdiff_t>(newest_) * bins_);
    positions_[static_cast<std::size_t>(newest_)] = streamPosition;
    paint();
}

void WaterfallRows::setRange(double low, double high) {
    if (!(low < high) || (low == low_ && high == high_)) return;
    low_ = low, high_ = high;
    if (filled_ > 0) paint();
}

void WaterfallRows::clear() {
    bins_ = filled_ = 0;
    newest_ = -1;
    decibels_.clear();
    positions_.clear();
    image_ = QImage();
}

std::uint64_t WaterfallRows::samplesSpanned() const {
    if (filled_ < 2) return 0;
    const int oldest = (newest_ - filled_ + 1 + capacity_) % capacity_;
    return positions_[static_cast<std::size_t>(newest_)] - positions_[static_cast<std::size_t>(oldest)];
}

float WaterfallRows::decibelsAt(int age, int bin) const {
    const int slot = (newest_ - age + capacity_) % capacity_;
    return decibels_[static_cast<std::size_t>(slot) * static_cast<std::size_t>(bins_) + static_cast<std::size_t>(bin)];
}

void WaterfallRows::paint() {
    const double span = high_ - low_;
    for (int age = 0; age < capacity_; ++age) {
        auto* line = reinterpret_cast<QRgb*>(image_.scanLine(age));
        if (age >= filled_) {
            std::fill(line, line + bins_, qRgba(0, 0, 0, 0));
            continue;
        }
        for (int bin = 0; bin < bins_; ++bin) line[bin] = waterfallColour((decibelsAt(age, bin) - low_) / span);
    }
}

}  // namespace isochron::ui
