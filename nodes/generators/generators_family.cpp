#include "nodes/families.h"
#include "nodes/generators/signal_generator.h"

namespace isochron {

void registerGeneratorNodes(OperatorRegistry& registry) {
    registry.add(signalGeneratorDescriptor());
}

}  // namespace isochron
