// The operator "tones.detect": one custom<tones.tone> item per window that holds a tone.
#pragma once

#include <isochron/isochron.hpp>

namespace tones {

/// The type tones.detect. [setup thread] [may allocate]
isochron::sdk::OperatorType toneDetectorType();

}  // namespace tones
