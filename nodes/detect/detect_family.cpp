#include "nodes/detect/cfar_detector.h"
#include "nodes/detect/silence_detector.h"
#include "nodes/detect/spectral_activity.h"
#include "nodes/families.h"

namespace isochron {

void registerDetectNodes(OperatorRegistry& registry) {
    registry.add(cfarDetectorDescriptor());
    registry.add(silenceDetectorDescriptor());
    registry.add(keepingChannels(spectralActivityDescriptor()));
}

}  // namespace isochron
