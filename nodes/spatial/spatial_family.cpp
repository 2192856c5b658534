#include "nodes/families.h"
#include "nodes/spatial/aml_doa.h"
#include "nodes/spatial/array_stft.h"
#include "nodes/spatial/bearing_tracker.h"
#include "nodes/spatial/channel_geometry.h"
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
    // Every operator that needs an array geometry can take it from the positions its mic inputs carry.
    auto add = [&registry](OperatorDescriptor d) {
        if (d.findParam("geometry")) d.adoptChannels = adoptInputGeometry;
        registry.add(std::move(d));
    };
    add(gccPhatDescriptor());
    add(srpPhatDescriptor());
    add(amlDoaDescriptor());
    add(musicDoaDescriptor());
    add(triangulateDescriptor());
    add(triangulateJoinedDescriptor());
    add(bearingTrackerDescriptor());
    add(arrayStftDescriptor());
    add(frameDirectionsDescriptor());
    add(sourceTrackerDescriptor());
    add(delayAndSumBeamformerDescriptor());
    add(mvdrBeamformerDescriptor());
}

}  // namespace isochron
