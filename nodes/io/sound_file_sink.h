// io.sound_file_sink: writes f32 signals as the channels of a FLAC, Ogg (Vorbis or Opus) or WAV file.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor soundFileSinkDescriptor();

}  // namespace isochron
