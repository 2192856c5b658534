#include "nodes/spectral/filterbank_operator.h"

#include <cmath>

namespace isochron {
namespace {

/// Added to a band's power before the logarithm so that an empty band reads -240 dB, not -inf.
constexpr double kPowerFloor = 1e-24;

}  // namespace

void FilterbankOperator::onActivate() {
    fftSize_ = params().getInt("size");
    binWidthWeighted_ = params().getString("input") == "density";
    decibels_ = params().getBool("decibels");
}

void FilterbankOperator::process(int, Item&& item) {
    const SampleRange range = item.range();
    const SigSeg<float> power = item.takeSignal<float>();
    if (!range.timebase) throw OperatorError("a frame without a time range arrived: its rate, and so its bins' frequencies, are unknown");
    if (range.timebase->rateHz() != rateHz_ || power.length() != binCount_) redesign(range.timebase->rateHz(), power.length());
    auto values = SigSeg<float>::allocate(static_cast<std::int64_t>(bands_.size()), 0, nullptr);
    std::span<float> out = values.writable();
    applyFilterbank(bands_, power.materialize(), out);
    const double binWidth = binWidthWeighted_ ? rateHz_ / static_cast<double>(fftSize_ > 0 ? fftSize_ : 2 * (binCount_ - 1)) : 1.0;
    for (float& value : out) {
        const double band = static_cast<double>(value) * binWidth;
        value = static_cast<float>(decibels_ ? 10.0 * std::log10(band + kPowerFloor) : band);
    }
    emit(0, Item::frame(std::move(values), range));
}

void FilterbankOperator::redesign(double rateHz, std::int64_t binCount) {
    const std::int64_t fftSize = fftSize_ > 0 ? fftSize_ : 2 * (binCount - 1);
    if (fftSize / 2 + 1 != binCount) {
        throw OperatorError("a frame of " + std::to_string(binCount) + " bins arrived, but size " + std::to_string(fftSize_) +
                            " has " + std::to_string(fftSize / 2 + 1) + " (set size to the FFT length, or 0)");
    }
    try {
        bands_ = design_(params(), rateHz, fftSize);
    } catch (const std::invalid_argument& e) {
        throw OperatorError(std::string(e.what()) + " (at " + std::to_string(rateHz) + " Hz, FFT size " + std::to_string(fftSize) + ")");
    }
    rateHz_ = rateHz;
    binCount_ = binCount;
}

std::vector<ParamSpec> filterbankParameters() {
    return {
        ParamSpec{"size", ParamKind::Int, std::int64_t{0}, 0.0, 1048576.0, "samples",
                  "FFT length N of the spectra (bin k at k rate / N Hz); 0 = 2 (bins - 1), right for even N"},
        ParamSpec{"input", ParamKind::Choice, std::string("power"), {}, {}, "",
                  "power: values per bin are summed as they are; density (V^2/Hz): multiplied by the bin width rate / N, so bands hold V^2",
                  {"power", "density"}},
        ParamSpec{"decibels", ParamKind::Bool, false, {}, {}, "", "report 10 log10(band value + 1e-24)"},
    };
}

}  // namespace isochron
