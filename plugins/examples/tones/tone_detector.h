// The operator "tones.detect": one custom<tones.tone> item per window that holds a tone.
#pragma once

#include <isochron/plugin.h>

namespace tones {

/// Descriptor of tones.detect. [setup thread] [may allocate]
isochron::OperatorDescriptor toneDetectorDescriptor();

}  // namespace tones
