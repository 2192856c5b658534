// spatial.delay_and_sum_beamformer: the mics aligned on a look direction (which may follow a
// tracked source) and averaged, in the frequency domain.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor delayAndSumBeamformerDescriptor();

}  // namespace isochron
