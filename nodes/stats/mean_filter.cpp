#include "nodes/stats/mean_filter.h"

#include "nodes/stats/threshold_filter.h"

namespace isochron {

OperatorDescriptor meanFilterDescriptor() {
    return thresholdFilterDescriptor({"stats.mean_filter", "Passes segments whose mean is below (or above) a threshold",
                                      FilteredStatistic::Mean, "below", 0.0, std::nullopt});
}

}  // namespace isochron
