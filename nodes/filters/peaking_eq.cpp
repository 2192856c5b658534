#include "nodes/filters/peaking_eq.h"

#include "nodes/filters/cookbook_equalizer.h"

namespace isochron {

OperatorDescriptor peakingEqDescriptor() {
    return cookbookEqualizerDescriptor(filters::CookbookShape::Peaking, "filters.peaking_eq", "Peaking equalizer band (cookbook biquad): boost or cut around a frequency");
}

}  // namespace isochron
