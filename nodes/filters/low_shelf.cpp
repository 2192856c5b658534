#include "nodes/filters/low_shelf.h"

#include "nodes/filters/cookbook_equalizer.h"

namespace isochron {

OperatorDescriptor lowShelfDescriptor() {
    return cookbookEqualizerDescriptor(filters::CookbookShape::LowShelf, "filters.low_shelf", "Low shelf (cookbook biquad): boost or cut below a frequency");
}

}  // namespace isochron
