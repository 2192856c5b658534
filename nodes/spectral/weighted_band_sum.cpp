#include "nodes/spectral/weighted_band_sum.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "engine/operators/operator.h"

namespace isochron {
namespace {

/// Sums w_k x_k over a frame's bins, w_k = the listed weight (1 for an empty list, 0 past its end)
/// when bin k's frequency lies in the band, else 0.
class WeightedBandSum final : public Operator {
protected:
    void onActivate() override { readParameters(); }
    void onParameterChanged(std::string_view) override { readParameters(); }

    void process(int, Item&& item) override {
        const SampleRange covered = item.range();
        const auto values = item.takeSignal<float>();
        prepareBand(covered, values.length());
        // Only the band's bins are visited, in order, so the sum is the same as testing every bin.
        double sum = 0.0;
        std::int64_t runStart = 0;
        values.forEachSpan([&](std::span<const float> run) {
            const std::int64_t from = std::max(bandStart_, runStart);
            const std::int64_t to = std::min(bandEnd_, runStart + std::ssize(run));
            for (std::int64_t bin = from; bin < to; ++bin) {
                sum += bandWeights_[static_cast<std::size_t>(bin - bandStart_)] * static_cast<double>(run[static_cast<std::size_t>(bin - runStart)]);
            }
            runStart += std::ssize(run);
        });
        emit(0, Item::scalar(sum, covered));
    }

private:
    /// The bins of a frame of `binCount` bins that lie in the band, and their weights; kept while
    /// frames keep their bin count and timebase (a stream's frames all do). [allocates on a change]
    void prepareBand(const SampleRange& covered, std::int64_t binCount) {
        const bool limitsBand = lowHz_ > 0.0 || highHz_ < std::numeric_limits<double>::infinity();
        if (binCount == preparedBinCount_ && (!limitsBand || covered.timebase == preparedTimebase_)) return;
        // A frame of B bins comes from a real FFT of N = 2 (B - 1) samples: bin k is at k * rate / N.
        const double hzPerBin = limitsBand ? binSpacingHz(covered, binCount) : 0.0;
        bandStart_ = 0;
        bandEnd_ = 0;
        bandWeights_.clear();
        for (std::int64_t bin = 0; bin < binCount; ++bin) {
            const double frequencyHz = static_cast<double>(bin) * hzPerBin;
            if (!(frequencyHz >= lowHz_ && frequencyHz <= highHz_)) continue;
            if (bandWeights_.empty()) bandStart_ = bin;  // frequencies rise with the bin: the band is one run
            bandWeights_.push_back(weightOf(bin));
            bandEnd_ = bin + 1;
        }
        preparedBinCount_ = binCount;
        preparedTimebase_ = covered.timebase;
    }

    void readParameters() {
        preparedBinCount_ = -1;
        weights_ = params().getRealList("weights");
        const double low = params().getReal("band_low_hz");
        const double high = params().getReal("band_high_hz");
        lowHz_ = low < 0.0 ? 0.0 : low;
        highHz_ = high < 0.0 ? std::numeric_limits<double>::infinity() : high;
        if (lowHz_ > highHz_) {
            throw OperatorError("band_low_hz " + std::to_string(low) + " is above band_high_hz " + std::to_string(high));
        }
    }

    double weightOf(std::int64_t bin) const {
        if (weights_.empty()) return 1.0;
        return bin < std::ssize(weights_) ? weights_[static_cast<std::size_t>(bin)] : 0.0;
    }

    double binSpacingHz(const SampleRange& covered, std::int64_t binCount) const {
        if (!covered.timebase) {
            throw OperatorError("a frequency band needs frames whose range has a timebase (a sampling rate)");
        }
        if (binCount < 2) return 0.0;  // one bin: only 0 Hz
        return covered.timebase->rateHz() / static_cast<double>(2 * (binCount - 1));
    }

    std::vector<double> weights_;
    std::int64_t preparedBinCount_ = -1;  // the frame size bandWeights_ was made for (-1: none yet)
    const Timebase* preparedTimebase_ = nullptr;
    std::int64_t bandStart_ = 0;  // first bin in the band
    std::int64_t bandEnd_ = 0;    // one past the last bin in the band
    std::vector<double> bandWeights_;  // weight of bins bandStart_ .. bandEnd_ - 1
    double lowHz_ = 0.0;                                        // inclusive
    double highHz_ = std::numeric_limits<double>::infinity();  // inclusive
};

}  // namespace

OperatorDescriptor weightedBandSumDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spectral.weighted_band_sum";
    d.category = "spectral";
    d.summary = "Score of each frame: sum of w_k x_k over its bins (optionally within a band)";
    d.documentation =
        "score = sum_k w_k x_k. w_k is weights[k]; bins past the end of a non-empty list weigh 0 and "
        "an empty list weighs every bin 1. With band_low_hz / band_high_hz, bins whose frequency "
        "k * rate / N lies outside [low, high] weigh 0, where rate is the timebase of the frame's range "
        "and N = 2 (bins - 1), the length of the even real FFT that made the frame (for an odd FFT "
        "length frequencies read slightly high). The score describes the frame's range.";
    d.inputs = {PortSpec{"in", PortType::frame(SampleType::Float32), "real frames (e.g. magnitude spectra)"}};
    d.outputs = {PortSpec{"score", PortType::scalar(), "one weighted sum per frame"}};
    d.params = {
        ParamSpec{"weights", ParamKind::RealList, std::vector<double>{}, {}, {}, "",
                  "weight per bin from bin 0; missing trailing weights are 0; empty = every bin 1", {}, true},
        ParamSpec{"band_low_hz", ParamKind::Real, -1.0, -1.0, {}, "Hz",
                  "lowest bin frequency counted (inclusive); negative (-1) = from 0 Hz", {}, true},
        ParamSpec{"band_high_hz", ParamKind::Real, -1.0, -1.0, {}, "Hz",
                  "highest bin frequency counted (inclusive); negative (-1) = up to Nyquist", {}, true},
    };
    d.create = [] { return std::make_unique<WeightedBandSum>(); };
    return d;
}

}  // namespace isochron
