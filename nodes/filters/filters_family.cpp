#include "nodes/families.h"
#include "nodes/filters/butterworth.h"
#include "nodes/filters/chebyshev1.h"
#include "nodes/filters/dc_blocker.h"
#include "nodes/filters/fir_filter.h"
#include "nodes/filters/high_shelf.h"
#include "nodes/filters/low_shelf.h"
#include "nodes/filters/median_filter.h"
#include "nodes/filters/moving_average.h"
#include "nodes/filters/peaking_eq.h"

namespace isochron {

void registerFilterNodes(OperatorRegistry& registry) {
    registry.add(keepingChannels(firFilterDescriptor()));
    registry.add(keepingChannels(butterworthDescriptor()));
    registry.add(keepingChannels(chebyshev1Descriptor()));
    registry.add(keepingChannels(peakingEqDescriptor()));
    registry.add(keepingChannels(lowShelfDescriptor()));
    registry.add(keepingChannels(highShelfDescriptor()));
    registry.add(keepingChannels(dcBlockerDescriptor()));
    registry.add(keepingChannels(movingAverageDescriptor()));
    registry.add(keepingChannels(medianFilterDescriptor()));
}

}  // namespace isochron
