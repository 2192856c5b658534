#include "nodes/detect/silence_detector.h"
#include "nodes/families.h"

namespace isochron {

void registerDetectNodes(OperatorRegistry& registry) {
    registry.add(silenceDetectorDescriptor());
}

}  // namespace isochron
