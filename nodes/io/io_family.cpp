#include "nodes/families.h"

namespace isochron {

void registerIoNodes(OperatorRegistry& registry) {
    (void)registry;
}

}  // namespace isochron
