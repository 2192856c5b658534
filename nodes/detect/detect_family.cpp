#include "nodes/families.h"

namespace isochron {

void registerDetectNodes(OperatorRegistry& registry) {
    (void)registry;
}

}  // namespace isochron
