// One registration function per operator family (nodes/<family>/<family>_family.cpp).
#pragma once

#include "engine/operators/registry.h"

namespace isochron {

void registerIoNodes(OperatorRegistry& registry);          ///< nodes/io
void registerCaptureNodes(OperatorRegistry& registry);     ///< nodes/capture
void registerGeneratorNodes(OperatorRegistry& registry);   ///< nodes/generators
void registerSegmentNodes(OperatorRegistry& registry);     ///< nodes/segments
void registerStatsNodes(OperatorRegistry& registry);       ///< nodes/stats
void registerDetectNodes(OperatorRegistry& registry);      ///< nodes/detect
void registerSpectralNodes(OperatorRegistry& registry);    ///< nodes/spectral
void registerSpatialNodes(OperatorRegistry& registry);     ///< nodes/spatial
void registerWorkloadNodes(OperatorRegistry& registry);    ///< nodes/workload
void registerStreamNodes(OperatorRegistry& registry);      ///< nodes/streams
void registerRelationalNodes(OperatorRegistry& registry);  ///< nodes/relational
void registerChannelNodes(OperatorRegistry& registry);     ///< nodes/channels
void registerMathNodes(OperatorRegistry& registry);        ///< nodes/math
void registerLevelNodes(OperatorRegistry& registry);       ///< nodes/level
void registerFilterNodes(OperatorRegistry& registry);      ///< nodes/filters
void registerResampleNodes(OperatorRegistry& registry);    ///< nodes/resample
void registerParallelNodes(OperatorRegistry& registry);    ///< nodes/parallel

}  // namespace isochron
