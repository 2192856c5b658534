// io.audio_output: plays signals on an audio output device (PortAudio), to listen to a graph live.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor audioOutputDescriptor();

}  // namespace isochron
