// io.archive_sink: records a signal (f32, one or more channels) or a scalar/event stream into a stream
// archive (engine/archive/archive_store.h), committing about every half second of data.
#pragma once

#include <vector>

#include "engine/graph/input_checks.h"
#include "engine/operators/descriptor.h"

namespace isochron {

/// Descriptor of "io.archive_sink".
OperatorDescriptor archiveSinkDescriptor();

/// io.archive_sink's input check (engine/graph/input_checks.h), so that --check refuses what its start
/// or its first items would: an input of a type it cannot record (frames, time ranges, f64), a mix of
/// signals and items, and signal inputs at different rates where their feeders state the rate (a
/// source with a rate parameter in Hz feeding the input directly: a generator, an audio input): a
/// stream has one timebase, and the run failed at the second rate's first item after storing some of
/// the first. [setup thread]
void checkArchiveSinkInputs(const ParamSet& params, const std::vector<ResolvedPort>& inputs, const std::vector<InputFeeder>& feeders);

/// Has validation fill an io.archive_sink's empty graph, producer and geometry parameters from the
/// graph around it (engine/graph/node_surroundings.h). [setup thread, with the descriptor's registration]
void adoptArchiveSinkSurroundings();

}  // namespace isochron
