#include "nodes/spatial/aml_doa.h"

#include "nodes/spatial/direction_estimator.h"

namespace isochron {

OperatorDescriptor amlDoaDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spatial.aml_doa";
    d.category = "spatial";
    d.summary = "Direction of each event: approximate maximum-likelihood (AML) beam power, any array geometry";
    d.documentation =
        "The wideband AML estimator of Chen, Hudson and Yao as used by Ali, Collier, Girod, Yao et al. (An "
        "empirical study of acoustic source localization, IPSN 2007): for a single far-field source in white noise "
        "the likelihood is maximised by the direction u whose steering vector d_k(u) = [e^{-i w_k tau_m(u)}]_m "
        "captures the most power, J(u) = sum_k w_k |d_k(u)^H X_k|^2 / M summed over the bins k of a block FFT "
        "(here over Hann-windowed blocks of 'block' samples, hop block/2, via the summed cross-spectral matrices). "
        "bin_weighting 'power' weighs every bin by its energy (the plain AML); 'normalized' divides each bin by its "
        "total power so that every bin counts the same (more robust to a coloured source or reverberation). J is "
        "scaled to [0, 1] (1 = all in-band power in one plane wave from u). Grid, refinement and outputs as "
        "spatial.srp_phat: event 'aml_doa' with azimuth_deg, elevation_deg, confidence = (peak - mean) / (1 - mean) "
        "clamped to [0, 1]; score = the peak J.";
    d.inputs = {arrayInputs()};
    d.outputs = {directionEstimatorOutput()};
    d.params = directionEstimatorParameters();
    d.params.push_back(ParamSpec{"bin_weighting", ParamKind::Choice, std::string("power"), {}, {}, "",
                                 "power: bins weigh by their energy (plain AML); normalized: every bin weighs the same",
                                 {"power", "normalized"}});
    d.create = [] { return std::make_unique<DirectionEstimator>("aml_doa", DirectionEstimator::Method::Aml); };
    return d;
}

}  // namespace isochron
