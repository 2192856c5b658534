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
    registry.add(firFilterDescriptor());
    registry.add(butterworthDescriptor());
    registry.add(chebyshev1Descriptor());
    registry.add(peakingEqDescriptor());
    registry.add(lowShelfDescriptor());
    registry.add(highShelfDescriptor());
    registry.add(dcBlockerDescriptor());
    registry.add(movingAverageDescriptor());
    registry.add(medianFilterDescriptor());
}

}  // namespace isochron
