#include "nodes/families.h"
#include "nodes/workload/tuple_source.h"
#include "nodes/workload/universal_box.h"

namespace isochron {

void registerWorkloadNodes(OperatorRegistry& registry) {
    registry.add(tupleSourceDescriptor());
    registry.add(universalBoxDescriptor());
}

}  // namespace isochron
