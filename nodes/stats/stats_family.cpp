#include "nodes/families.h"

namespace isochron {

void registerStatsNodes(OperatorRegistry& registry) {
    (void)registry;
}

}  // namespace isochron
