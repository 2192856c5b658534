// io.jsonl_event_source: replays event JSON lines as a paced event stream with heartbeats.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

/// Descriptor of "io.jsonl_event_source".
OperatorDescriptor jsonlEventSourceDescriptor();

}  // namespace isochron
