#include "nodes/filters/moving_average.h"

#include <algorithm>
#include <numeric>

#include "nodes/filters/sample_filter.h"

namespace isochron {
namespace filters {

RunningMean::RunningMean(std::size_t length) : window_(std::max<std::size_t>(length, 1), 0.0f) {}

void RunningMean::reset() {
    std::fill(window_.begin(), window_.end(), 0.0f);
    next_ = 0;
    sum_ = 0.0;
}

void RunningMean::process(const float* input, float* output, std::size_t count) {
    const double scale = 1.0 / static_cast<double>(window_.size());
    for (std::size_t i = 0; i < count; ++i) {
        const float x = input[i];
        sum_ += static_cast<double>(x) - static_cast<double>(window_[next_]);
        window_[next_] = x;
        if (++next_ == window_.size()) {
            next_ = 0;
            sum_ = std::accumulate(window_.begin(), window_.end(), 0.0);  // exact restart: rounding never accumulates
        }
        output[i] = static_cast<float>(sum_ * scale);
    }
}

}  // namespace filters

namespace {

/// A SampleFilter over a RunningMean; a new length restarts the window.
class MovingAverage final : public SampleFilter {
protected:
    void design(double) override {
        const auto length = static_cast<std::size_t>(params().getInt("length"));
        if (length != length_) {
            mean_ = filters::RunningMean(length);
            length_ = length;
        }
    }
    void clearState() override { mean_.reset(); }
    void filter(const float* input, float* output, std::size_t count) override { mean_.process(input, output, count); }

private:
    std::size_t length_ = 0;
    filters::RunningMean mean_;
};

}  // namespace

OperatorDescriptor movingAverageDescriptor() {
    OperatorDescriptor d;
    d.typeName = "filters.moving_average";
    d.category = "filters";
    d.summary = "Mean of the last N samples (boxcar lowpass)";
    d.documentation =
        "Output n is the mean of input samples n - length + 1 .. n (samples before the stream's start count as zeros), the FIR "
        "with length taps of 1 / length, computed in O(1) per sample with a double running sum. Its first zero is at "
        "rate / length Hz; the delay is (length - 1) / 2 samples. A live change of length restarts the window.";
    d.inputs = sampleFilterInputs();
    d.outputs = sampleFilterOutputs();
    ParamSpec length{"length", ParamKind::Int, std::int64_t{16}, 1.0, 1e6, "samples", "how many of the latest samples are averaged"};
    length.live = true;
    d.params = {length};
    d.create = [] { return std::make_unique<MovingAverage>(); };
    return d;
}

}  // namespace isochron
