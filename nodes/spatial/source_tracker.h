// spatial.source_tracker: sound sources from the directions of every frame (multi-target tracking):
// one event per source on `events`, steady background sources on `background`, every live track
// per frame on `tracks`.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor sourceTrackerDescriptor();

}  // namespace isochron
