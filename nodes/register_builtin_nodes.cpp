#include "nodes/register_builtin_nodes.h"

#include "nodes/families.h"

namespace isochron {

void registerBuiltinNodes(OperatorRegistry& registry) {
    registerIoNodes(registry);
    registerCaptureNodes(registry);
    registerGeneratorNodes(registry);
    registerSegmentNodes(registry);
    registerStatsNodes(registry);
    registerDetectNodes(registry);
    registerSpectralNodes(registry);
    registerSpatialNodes(registry);
    registerWorkloadNodes(registry);
    registerStreamNodes(registry);
    registerRelationalNodes(registry);
    registerChannelNodes(registry);
    registerMathNodes(registry);
    registerLevelNodes(registry);
    registerFilterNodes(registry);
    registerResampleNodes(registry);
    registerParallelNodes(registry);
}

OperatorRegistry& builtinRegistry() {
    static OperatorRegistry registry = [] {
        OperatorRegistry r;
        registerBuiltinNodes(r);
        return r;
    }();
    return registry;
}

}  // namespace isochron
