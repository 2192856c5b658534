// io.wav_file_sink: writes its f32 inputs, aligned by sample index, as one interleaved WAV file
// (16-bit PCM or 32-bit float), published under its name only once complete.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor wavFileSinkDescriptor();

}  // namespace isochron
