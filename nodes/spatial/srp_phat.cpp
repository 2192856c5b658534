#include "nodes/spatial/srp_phat.h"

#include "nodes/spatial/direction_estimator.h"

namespace isochron {

OperatorDescriptor srpPhatDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spatial.srp_phat";
    d.category = "spatial";
    d.summary = "Direction of each event: steered response power with PHAT weighting, any array geometry";
    d.documentation =
        "For each event (one item per mic with the same range, as segments.sync emits them) the channels are cut "
        "into Hann-windowed blocks of 'block' samples (hop block/2) and their cross-spectra summed per bin. Each "
        "pair's cross-spectrum is PHAT-weighted (divided by its magnitude) within the band, and the steered "
        "response P(u) = mean over pairs and bins of Re(R_mn/|R_mn| e^{i w (tau_m(u) - tau_n(u))}) is evaluated "
        "for every far-field direction u of the grid (azimuth 0 .. 360 every azimuth_step_deg, elevation from "
        "elevation_min_deg to elevation_max_deg). P is in [-1, 1]; 1 means every pair is aligned in every bin. "
        "The best grid direction is refined by parabolic interpolation. Output event 'srp_phat' over the event's "
        "range: azimuth_deg (counter-clockwise from the array's x axis, [0, 360)), elevation_deg, confidence = "
        "(peak - mean) / (1 - mean) of the map, clamped to [0, 1]; score = the peak P. For a planar array the "
        "elevation's sign is ambiguous: search 0 .. 90.";
    d.inputs = {arrayInputs()};
    d.outputs = {directionEstimatorOutput()};
    d.params = directionEstimatorParameters();
    d.create = [] { return std::make_unique<DirectionEstimator>("srp_phat", DirectionEstimator::Method::SrpPhat); };
    return d;
}

}  // namespace isochron
