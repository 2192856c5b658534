#include "nodes/filters/median_filter.h"

#include <algorithm>
#include <cmath>

#include "nodes/filters/sample_filter.h"

namespace isochron {
namespace filters {
namespace {

/// Ascending with NaN last, so that every value (NaN too) has one place in the sorted window.
bool sortsBefore(float a, float b) { return a < b || (!std::isnan(a) && std::isnan(b)); }

}  // namespace

RunningMedian::RunningMedian(std::size_t length)
    : window_(std::max<std::size_t>(length, 1), 0.0f), sorted_(std::max<std::size_t>(length, 1), 0.0f) {}

void RunningMedian::reset() {
    next_ = 0;
    filled_ = 0;
}

void RunningMedian::process(const float* input, float* output, std::size_t count) {
    const std::size_t capacity = window_.size();
    for (std::size_t i = 0; i < count; ++i) {
        const float x = input[i];
        float* begin = sorted_.data();
        if (filled_ == capacity) {  // the oldest value leaves
            float* oldest = std::lower_bound(begin, begin + filled_, window_[next_], sortsBefore);
            std::copy(oldest + 1, begin + filled_, oldest);
            --filled_;
        }
        float* place = std::upper_bound(begin, begin + filled_, x, sortsBefore);
        std::copy_backward(place, begin + filled_, begin + filled_ + 1);
        *place = x;
        ++filled_;
        window_[next_] = x;
        next_ = next_ + 1 == capacity ? 0 : next_ + 1;
        const std::size_t middle = filled_ / 2;
        output[i] = filled_ % 2 == 1 ? sorted_[middle] : static_cast<float>(0.5 * (static_cast<double>(sorted_[middle - 1]) + sorted_[middle]));
    }
}

}  // namespace filters

namespace {

/// A SampleFilter over a RunningMedian; a new length restarts the window.
class MedianFilter final : public SampleFilter {
protected:
    void design(double) override {
        const auto length = static_cast<std::size_t>(params().getInt("length"));
        if (length != length_) {
            median_ = filters::RunningMedian(length);
            length_ = length;
        }
    }
    void clearState() override { median_.reset(); }
    void filter(const float* input, float* output, std::size_t count) override { median_.process(input, output, count); }

private:
    std::size_t length_ = 0;
    filters::RunningMedian median_;
};

}  // namespace

OperatorDescriptor medianFilterDescriptor() {
    OperatorDescriptor d;
    d.typeName = "filters.median";
    d.category = "filters";
    d.summary = "Median of the last N samples (removes clicks, keeps edges)";
    d.documentation =
        "Output n is the median of input samples n - length + 1 .. n; at the stream's start (and after a gap) the median of "
        "the samples so far. An even length gives the mean of the two middle values; NaN counts as larger than every number. "
        "Costs O(length) per sample. A live change of length restarts the window.";
    d.inputs = sampleFilterInputs();
    d.outputs = sampleFilterOutputs();
    ParamSpec length{"length", ParamKind::Int, std::int64_t{5}, 1.0, 65536.0, "samples", "how many of the latest samples the median is taken over"};
    length.live = true;
    d.params = {length};
    d.create = [] { return std::make_unique<MedianFilter>(); };
    return d;
}

}  // namespace isochron
