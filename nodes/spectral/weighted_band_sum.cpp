#include "nodes/spectral/weighted_band_sum.h"

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
        const bool limitsBand = lowHz_ > 0.0 || highHz_ < std::numeric_limits<double>::infinity();
        // A frame of B bins comes from a real FFT of N = 2 (B - 1) samples: bin k is at k * rate / N.
        const double hzPerBin = limitsBand ? binSpacingHz(covered, values.length()) : 0.0;
        double sum = 0.0;
        std::int64_t bin = 0;
        values.forEachSpan([&](std::span<const float> run) {
            for (float value : run) {
                const double frequencyHz = static_cast<double>(bin) * hzPerBin;
                if (frequencyHz >= lowHz_ && frequencyHz <= highHz_) sum += weightOf(bin) * static_cast<double>(value);
                ++bin;
            }
        });
        emit(0, Item::scalar(sum, covered));
    }

private:
    void readParameters() {
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
