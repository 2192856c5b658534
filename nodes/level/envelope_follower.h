// level.envelope_follower: the signal's envelope, sample by sample (peak or RMS detector with attack/release).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor envelopeFollowerDescriptor();

}  // namespace isochron
