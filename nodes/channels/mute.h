// channels.mute: silences every channel of a bus while `muted` is set (live); otherwise passes by reference.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor muteDescriptor();

}  // namespace isochron
