// filters.median: the median of the last `length` samples, which removes clicks and impulsive
// noise while keeping edges (a nonlinear filter).
#pragma once

#include <cstddef>
#include <vector>

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor medianFilterDescriptor();

namespace filters {

/// The running median of the last `length` samples; until `length` samples have arrived (from the
/// start or reset()), the median of those that have. An even count gives the mean of the two middle
/// values; NaN sorts above every number. Each sample costs O(length) (a sorted copy of the window is
/// updated by one removal and one insertion). [one thread] [no allocation in process()]
class RunningMedian {
public:
    /// A window of `length` >= 1 samples, empty. [allocates]
    explicit RunningMedian(std::size_t length = 1);
    void reset();
    /// Medians after each of `count` samples of `input` into `output` (the same array is allowed). [no allocation]
    void process(const float* input, float* output, std::size_t count);

private:
    std::vector<float> window_;  // arrival order, a ring of capacity `length`
    std::vector<float> sorted_;  // the same values, ascending (first `filled_`)
    std::size_t next_ = 0;
    std::size_t filled_ = 0;
};

}  // namespace filters
}  // namespace isochron
