// workload.universal_box: Aurora's "universal box" (VLDB 2003, section 5.1), a stand-in for any
// stateless operator (filter, map, union): each item costs a set amount of real CPU work, and a set
// fraction of the items is passed on, deterministically.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor universalBoxDescriptor();

}  // namespace isochron
