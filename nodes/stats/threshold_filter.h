// The operator behind stats.stddev_filter and stats.mean_filter: computes one statistic of each
// float segment (vectorized, piecewise, no copy) and forwards the segment unchanged when it passes.
#pragma once

#include <optional>
#include <string>

#include "engine/operators/descriptor.h"

namespace isochron {

/// The statistic a threshold filter compares with its threshold.
enum class FilteredStatistic { Mean, Stddev };

/// What differs between the threshold filters' descriptors.
struct ThresholdFilterTraits {
    std::string typeName;           ///< "stats.<name>"
    std::string summary;            ///< one line for the palette
    FilteredStatistic statistic;
    std::string defaultPass;        ///< "above" or "below"
    double defaultThreshold = 0.0;  ///< in the samples' unit
    std::optional<double> minimumThreshold;  ///< smallest valid threshold (0 for a stddev), if any
};

/// A descriptor of a filter with a live `threshold` (samples' unit) and a `pass` choice
/// ("above": statistic > threshold, "below": statistic < threshold).
OperatorDescriptor thresholdFilterDescriptor(const ThresholdFilterTraits& traits);

}  // namespace isochron
