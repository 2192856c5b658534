#include "nodes/families.h"
#include "nodes/relational/band_join.h"
#include "nodes/relational/window_aggregate.h"

namespace isochron {

void registerRelationalNodes(OperatorRegistry& registry) {
    registry.add(windowAggregateDescriptor());
    registry.add(bandJoinDescriptor());
}

}  // namespace isochron
