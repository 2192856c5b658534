// io.audio_file_source: replays a sound file (anything libsndfile reads: WAV, FLAC, ...) as one f32
// signal per channel, from memory or block by block, as fast as possible or paced to real time.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor audioFileSourceDescriptor();

}  // namespace isochron
