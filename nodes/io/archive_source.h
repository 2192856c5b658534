// io.archive_source: replays an interval of a signal stream recorded in a stream archive, sample-exact
// on its original timebase, as fast as possible or at the recorded pace; stored gaps stay gaps.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

/// Descriptor of "io.archive_source".
OperatorDescriptor archiveSourceDescriptor();

}  // namespace isochron
