// io.jsonl_event_sink: writes every item it receives as one JSON object per line (JSON Lines):
// its time span in seconds, its kind, and its value, label, score and attributes.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor jsonlEventSinkDescriptor();

}  // namespace isochron
