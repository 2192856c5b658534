// filters.moving_average: the mean of the last `length` samples (a boxcar FIR), in O(1) per sample.
#pragma once

#include <cstddef>
#include <vector>

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor movingAverageDescriptor();

namespace filters {

/// The running mean of the last `length` samples, with the samples before the first (or after
/// reset()) taken as zeros, like the FIR with `length` taps of 1 / length. The running sum is kept
/// in double and recomputed from the window once per `length` samples, so it never drifts.
/// [one thread] [no allocation in process()]
class RunningMean {
public:
    /// A window of `length` >= 1 samples, all zero. [allocates]
    explicit RunningMean(std::size_t length = 1);
    void reset();
    /// Means after each of `count` samples of `input` into `output` (the same array is allowed). [no allocation]
    void process(const float* input, float* output, std::size_t count);

private:
    std::vector<float> window_;  // the last `length` samples, a ring
    std::size_t next_ = 0;       // where the next sample goes (the oldest is there)
    double sum_ = 0.0;
};

}  // namespace filters
}  // namespace isochron
