#include "nodes/spatial/music_doa.h"

#include "nodes/spatial/direction_estimator.h"

namespace isochron {

OperatorDescriptor musicDoaDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spatial.music";
    d.category = "spatial";
    d.summary = "Directions of each event by wideband MUSIC: one bearing per expected source, any array geometry";
    d.documentation =
        "MUSIC (Schmidt, 1986) per frequency bin, combined over the band: the cross-spectral matrix R(k) of the "
        "event (Hann-windowed blocks of 'block' samples, hop block/2) is split by its eigenvectors into the signal "
        "subspace of the 'sources' largest eigenvalues and the noise subspace of the rest. A source's steering "
        "vector a_k(u) = [e^{-i w_k tau_m(u)}]_m is orthogonal to the noise subspace, so the map is the fraction "
        "of |a_k(u)|^2 inside the signal subspace, averaged over the bins of the band: 1 in a source's direction, "
        "in [0, 1] everywhere. The map's 'sources' largest local maxima, strongest first, each give an event "
        "'music' with azimuth_deg, elevation_deg, confidence = (peak - mean) / (1 - mean) clamped to [0, 1]; "
        "score = the peak. Unlike the steered beam, two simultaneous sources give two sharp peaks when sources = "
        "2. Needs more mics than sources, at most 16 mics; grid and refinement as spatial.srp_phat.";
    d.inputs = {arrayInputs()};
    d.outputs = {directionEstimatorOutput()};
    d.params = directionEstimatorParameters();
    d.params.push_back(ParamSpec{"sources", ParamKind::Int, std::int64_t{1}, 1.0, 63.0, "",
                                 "sources expected per event (the signal subspace's dimension), fewer than the mics (at most 16)"});
    d.create = [] { return std::make_unique<DirectionEstimator>("music", DirectionEstimator::Method::Music); };
    return d;
}

}  // namespace isochron
