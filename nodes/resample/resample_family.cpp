#include "nodes/families.h"
#include "nodes/resample/rate_resampler.h"
#include "nodes/resample/rational_resampler.h"

namespace isochron {

void registerResampleNodes(OperatorRegistry& registry) {
    registry.add(keepingChannels(rationalResamplerDescriptor()));
    registry.add(keepingChannels(rateResamplerDescriptor()));
}

}  // namespace isochron
