// io.archive_sink: records a signal (f32, one or more channels) or a scalar/event stream into a stream
// archive (engine/archive/archive_store.h), committing about every half second of data.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

/// Descriptor of "io.archive_sink".
OperatorDescriptor archiveSinkDescriptor();

}  // namespace isochron
