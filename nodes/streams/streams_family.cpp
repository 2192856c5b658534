#include "nodes/families.h"
#include "nodes/streams/link.h"
#include "nodes/streams/ordered_merge.h"
#include "nodes/streams/slack.h"
#include "nodes/streams/union.h"

namespace isochron {

void registerStreamNodes(OperatorRegistry& registry) {
    registry.add(unionDescriptor());
    registry.add(orderedMergeDescriptor());
    registry.add(slackDescriptor());
    registry.add(linkDescriptor());
}

}  // namespace isochron
