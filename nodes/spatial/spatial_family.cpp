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
    // Every operator that uses an array geometry can take it from the positions its mic inputs carry,
    // and has it checked at validation (GCC-PHAT alone works without one).
    auto add = [&registry](OperatorDescriptor d) {
        if (d.findParam("geometry")) {
            const bool required = d.typeName != "spatial.gcc_phat";
            d.adoptChannels = [required](ParamSet& params, const std::vector<ResolvedPort>& inputs, const std::vector<ChannelLayout>& channels) {
                adoptInputGeometry(params, inputs, channels, required);
            };
        }
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
