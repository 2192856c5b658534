// io.archive_sink: records a signal (f32, one or more channels) or a scalar/event stream into a stream
// archive (engine/archive/archive_store.h), committing about every half second of data.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

/// Descriptor of "io.archive_sink".
OperatorDescriptor archiveSinkDescriptor();

/// Has validation fill an io.archive_sink's empty graph, producer and geometry parameters from the
/// graph around it (engine/graph/node_surroundings.h). [setup thread, with the descriptor's registration]
void adoptArchiveSinkSurroundings();

}  // namespace isochron
