// capture.audio_input: a live multichannel input (microphone array, sound card) through PortAudio,
// one f32 signal per channel on one shared timebase, or a recording standing in for it.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor audioInputDescriptor();

}  // namespace isochron
