#include "nodes/channels/gain.h"
#include "nodes/channels/merge.h"
#include "nodes/channels/mix.h"
#include "nodes/channels/mute.h"
#include "nodes/channels/select.h"
#include "nodes/channels/split.h"
#include "nodes/families.h"

namespace isochron {

void registerChannelNodes(OperatorRegistry& registry) {
    registry.add(selectDescriptor());
    registry.add(splitDescriptor());
    registry.add(mergeDescriptor());
    registry.add(mixDescriptor());
    registry.add(keepingChannels(gainDescriptor()));
    registry.add(keepingChannels(muteDescriptor()));
}

}  // namespace isochron
