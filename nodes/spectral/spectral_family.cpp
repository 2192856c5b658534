#include "nodes/families.h"

namespace isochron {

void registerSpectralNodes(OperatorRegistry& registry) {
    (void)registry;
}

}  // namespace isochron
