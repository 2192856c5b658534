#include "nodes/detect/cfar_detector.h"
#include "nodes/families.h"

namespace isochron {

void registerDetectNodes(OperatorRegistry& registry) {
    registry.add(cfarDetectorDescriptor());
}

}  // namespace isochron
