#include "nodes/families.h"
#include "nodes/segments/pass_through.h"

namespace isochron {

void registerSegmentNodes(OperatorRegistry& registry) {
    registry.add(passThroughDescriptor());
}

}  // namespace isochron
