#include "nodes/families.h"
#include "nodes/level/agc.h"
#include "nodes/level/envelope_follower.h"
#include "nodes/level/noise_gate.h"
#include "nodes/level/onset_detector.h"
#include "nodes/level/peak_meter.h"
#include "nodes/level/rms_meter.h"

namespace isochron {

void registerLevelNodes(OperatorRegistry& registry) {
    registry.add(keepingChannels(rmsMeterDescriptor()));
    registry.add(keepingChannels(peakMeterDescriptor()));
    registry.add(keepingChannels(envelopeFollowerDescriptor()));
    registry.add(keepingChannels(agcDescriptor()));
    registry.add(keepingChannels(noiseGateDescriptor()));
    registry.add(keepingChannels(onsetDetectorDescriptor()));
}

}  // namespace isochron
