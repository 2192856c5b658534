#include "nodes/families.h"

namespace isochron {

void registerGeneratorNodes(OperatorRegistry& registry) {
    (void)registry;
}

}  // namespace isochron
