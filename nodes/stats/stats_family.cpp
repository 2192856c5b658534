#include "nodes/families.h"
#include "nodes/stats/mean_filter.h"
#include "nodes/stats/stddev_filter.h"

namespace isochron {

void registerStatsNodes(OperatorRegistry& registry) {
    registry.add(stddevFilterDescriptor());
    registry.add(meanFilterDescriptor());
}

}  // namespace isochron
