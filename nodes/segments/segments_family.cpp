#include "nodes/families.h"
#include "nodes/segments/pass_through.h"
#include "nodes/segments/rewindow.h"
#include "nodes/segments/sync.h"

namespace isochron {

void registerSegmentNodes(OperatorRegistry& registry) {
    registry.add(passThroughDescriptor());
    registry.add(rewindowDescriptor());
    registry.add(syncDescriptor());
}

}  // namespace isochron
