#include "nodes/stats/stddev_filter.h"

#include "nodes/stats/threshold_filter.h"

namespace isochron {

OperatorDescriptor stddevFilterDescriptor() {
    return thresholdFilterDescriptor({"stats.stddev_filter",
                                      "Passes segments whose standard deviation is above (or below) a threshold",
                                      FilteredStatistic::Stddev, "above", 0.0, 0.0});
}

}  // namespace isochron
