#include "nodes/families.h"
#include "nodes/parallel/merge.h"
#include "nodes/parallel/split.h"

namespace isochron {

void registerParallelNodes(OperatorRegistry& registry) {
    registry.add(parallelSplitDescriptor());
    registry.add(parallelMergeDescriptor());
}

}  // namespace isochron
