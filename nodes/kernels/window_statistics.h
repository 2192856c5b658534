// Count, mean and standard deviation of a float SigSeg, computed span by span in place.
#pragma once

#include <cstdint>

#include "engine/signal/sigseg.h"
#include "nodes/kernels/sum_and_squares.h"

namespace isochron::kernels {

/// Statistics of a run of samples; mean and stddev are in the samples' unit. [value type]
struct WindowStatistics {
    std::int64_t count = 0;  ///< samples
    double mean = 0.0;       ///< NaN when count == 0
    double stddev = 0.0;     ///< population standard deviation (divides by count); NaN when count == 0
};

/// Statistics of f32 `samples` (a SigSeg<float>, or an item's segment() without copying the handle),
/// read piecewise over its storage (never materialized); bit-identical for any split of the same
/// samples into pieces. Throws std::invalid_argument for other sample types. `path` must be
/// supported by this CPU. The last few results are remembered per thread by storage identity (see
/// SegmentHandle::storageIdentity), so operators asking about the same window in a row compute it once.
/// [any thread] [no allocation]
WindowStatistics windowStatistics(const SegmentHandle& samples, KernelPath path = bestKernelPath());

}  // namespace isochron::kernels
