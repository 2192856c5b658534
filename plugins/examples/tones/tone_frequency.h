// The operator "tones.frequency": reads custom<tones.tone> items and emits their frequency.
#pragma once

#include <isochron/plugin.h>

namespace tones {

/// Descriptor of tones.frequency. [setup thread] [may allocate]
isochron::OperatorDescriptor toneFrequencyDescriptor();

}  // namespace tones
