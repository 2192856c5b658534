// spatial.mvdr_beamformer: minimum-variance distortionless-response beamforming towards a look
// direction (which may follow a tracked source), adapting to the sound field.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor mvdrBeamformerDescriptor();

}  // namespace isochron
