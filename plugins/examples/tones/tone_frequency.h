// The operator "tones.frequency": reads custom<tones.tone> items and emits their frequency.
#pragma once

#include <isochron/isochron.hpp>

namespace tones {

/// The type tones.frequency. [setup thread] [may allocate]
isochron::sdk::OperatorType toneFrequencyType();

}  // namespace tones
