#include "nodes/filters/high_shelf.h"

#include "nodes/filters/cookbook_equalizer.h"

namespace isochron {

OperatorDescriptor highShelfDescriptor() {
    return cookbookEqualizerDescriptor(filters::CookbookShape::HighShelf, "filters.high_shelf", "High shelf (cookbook biquad): boost or cut above a frequency");
}

}  // namespace isochron
