// DirectionEstimator: the operator behind spatial.srp_phat, spatial.aml_doa and spatial.music.
//
// All steer the same frequency-domain response (steered_response.h) over the same grid and differ
// only in how cross-spectra are weighted, so they share this class, its parameters and its output:
// per input event, over the event's range, labelled with the operator's name, an event with
// attributes azimuth_deg, elevation_deg and confidence and the map's peak value as score. SRP-PHAT
// and AML emit one (the map's maximum); MUSIC emits one per source it was told to expect (the map's
// largest local maxima, strongest first; fewer if the map has fewer peaks).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "nodes/spatial/array_event_operator.h"
#include "nodes/spatial/steered_response.h"

namespace isochron {

/// Direction of arrival per event from a steered response map. [engine thread]
class DirectionEstimator final : public ArrayEventOperator {
public:
    /// The estimators: PHAT-weighted pairs, beam power (weighted as `bin_weighting` says), or the
    /// signal subspace of `sources` sources (MUSIC).
    enum class Method { SrpPhat, Aml, Music };

    /// `label` names the output events.
    DirectionEstimator(std::string label, Method method) : label_(std::move(label)), method_(method) {}

protected:
    bool geometryRequired() const override { return true; }
    void onArrayActivate() override;
    void analyzeEvent(const SampleRange& range, std::span<const std::span<const float>> channels) override;

private:
    std::string label_;
    Method method_;
    std::unique_ptr<SteeredResponse> response_;
    std::vector<DirectionEstimate> peaks_;  // MUSIC: one per expected source
};

/// Parameters of a direction estimator: the array's (see arrayParameters), the FFT block, the band
/// and the look-direction grid. [setup]
std::vector<ParamSpec> directionEstimatorParameters();

/// The output port `bearings` of a direction estimator.
PortSpec directionEstimatorOutput();

}  // namespace isochron
