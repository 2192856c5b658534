#include "nodes/families.h"
#include "nodes/spatial/aml_doa.h"
#include "nodes/spatial/array_stft.h"
#include "nodes/spatial/bearing_tracker.h"
#include "nodes/spatial/delay_and_sum_beamformer.h"
#include "nodes/spatial/frame_directions.h"
#include "nodes/spatial/gcc_phat.h"
#include "nodes/spatial/music_doa.h"
#include "nodes/spatial/mvdr_beamformer.h"
#include "nodes/spatial/source_tracker.h"
#include "nodes/spatial/srp_phat.h"
#include "nodes/spatial/triangulate.h"
#include "nodes/spatial/triangulate_joined.h"

namespace isochron {

void registerSpatialNodes(OperatorRegistry& registry) {
    registry.add(gccPhatDescriptor());
    registry.add(srpPhatDescriptor());
    registry.add(amlDoaDescriptor());
    registry.add(musicDoaDescriptor());
    registry.add(triangulateDescriptor());
    registry.add(triangulateJoinedDescriptor());
    registry.add(bearingTrackerDescriptor());
    registry.add(arrayStftDescriptor());
    registry.add(frameDirectionsDescriptor());
    registry.add(sourceTrackerDescriptor());
    registry.add(delayAndSumBeamformerDescriptor());
    registry.add(mvdrBeamformerDescriptor());
}

}  // namespace isochron
