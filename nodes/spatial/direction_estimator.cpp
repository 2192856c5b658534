#include "nodes/spatial/direction_estimator.h"

#include <stdexcept>

namespace isochron {

void DirectionEstimator::onArrayActivate() {
    SteeredResponse::Settings settings;
    settings.blockSize = params().getInt("block");
    settings.bandLowHz = params().getReal("band_low_hz");
    settings.bandHighHz = params().getReal("band_high_hz");
    if (settings.bandHighHz >= 0.0 && settings.bandLowHz > settings.bandHighHz) {
        throw OperatorError("band_low_hz " + std::to_string(settings.bandLowHz) + " is above band_high_hz " +
                            std::to_string(settings.bandHighHz));
    }
    settings.grid.azimuthStepDegrees = params().getReal("azimuth_step_deg");
    settings.grid.elevationMinDegrees = params().getReal("elevation_min_deg");
    settings.grid.elevationMaxDegrees = params().getReal("elevation_max_deg");
    settings.grid.elevationStepDegrees = params().getReal("elevation_step_deg");
    if (settings.grid.elevationMinDegrees > settings.grid.elevationMaxDegrees) {
        throw OperatorError("elevation_min_deg is above elevation_max_deg");
    }
    if (geometry()->isPlanar() && settings.grid.elevationMinDegrees < 0.0 && settings.grid.elevationMaxDegrees > 0.0) {
        warn("geometry " + geometry()->origin + " is planar: it cannot tell elevation e from -e (search 0 .. 90)");
    }
    settings.weighting = SpectralWeighting::Phat;
    peaks_.resize(1);
    if (method_ == Method::Aml) {
        settings.weighting = params().getString("bin_weighting") == "normalized" ? SpectralWeighting::NormalizedBeamPower
                                                                                  : SpectralWeighting::BeamPower;
    }
    if (method_ == Method::Music) {
        settings.weighting = SpectralWeighting::MusicSubspace;
        settings.sources = static_cast<int>(params().getInt("sources"));
        peaks_.resize(static_cast<std::size_t>(settings.sources));
    }
    try {
        response_ = std::make_unique<SteeredResponse>(*geometry(), speedOfSound(), settings);
    } catch (const std::invalid_argument& e) {
        throw OperatorError(e.what());
    }
}

void DirectionEstimator::analyzeEvent(const SampleRange& range, std::span<const std::span<const float>> channels) {
    std::size_t found = 1;
    try {
        if (method_ == Method::Music) found = response_->estimatePeaks(channels, range.timebase->rateHz(), peaks_);
        else peaks_[0] = response_->estimate(channels, range.timebase->rateHz());
    } catch (const std::invalid_argument& e) {
        throw OperatorError(std::string(e.what()) + " (geometry " + geometry()->origin + ")");
    }
    for (std::size_t i = 0; i < found; ++i) {
        const DirectionEstimate& estimate = peaks_[i];
        EventRecord* record = EventRecord::create(label_);
        record->set("azimuth_deg", estimate.azimuthDegrees);
        record->set("elevation_deg", estimate.elevationDegrees);
        record->set("confidence", estimate.confidence);
        emit(0, Item::event(record, range, estimate.peak));
    }
}

std::vector<ParamSpec> directionEstimatorParameters() {
    std::vector<ParamSpec> specs = arrayParameters(
        64, "array geometry: a JSON file {\"mics\": [[x, y, z], ...]} in metres, or a preset such as square4:0.2, "
            "circular8:0.1, linear4:0.05 (mic count = inputs)");
    const std::vector<ParamSpec> own = {
        ParamSpec{"block", ParamKind::Int, std::int64_t{1024}, 16.0, 65536.0, "samples",
                  "FFT block length N (hop N/2, Hann window); must exceed 4 x the array's largest delay"},
        ParamSpec{"band_low_hz", ParamKind::Real, 100.0, 0.0, {}, "Hz", "lowest frequency used (0 Hz itself is never used)"},
        ParamSpec{"band_high_hz", ParamKind::Real, -1.0, -1.0, {}, "Hz", "highest frequency used; negative (-1) = up to Nyquist"},
        ParamSpec{"azimuth_step_deg", ParamKind::Real, 1.0, 0.1, 90.0, "deg",
                  "azimuth grid step over 0 .. 360 (rounded so that it divides 360)"},
        ParamSpec{"elevation_min_deg", ParamKind::Real, 0.0, -90.0, 90.0, "deg", "lowest elevation searched"},
        ParamSpec{"elevation_max_deg", ParamKind::Real, 0.0, -90.0, 90.0, "deg",
                  "highest elevation searched (equal to the minimum: one elevation)"},
        ParamSpec{"elevation_step_deg", ParamKind::Real, 5.0, 0.1, 90.0, "deg", "elevation grid step"},
    };
    specs.insert(specs.end(), own.begin(), own.end());
    return specs;
}

PortSpec directionEstimatorOutput() {
    return PortSpec{"bearings", PortType::event(),
                    "per input event one event (MUSIC: one per expected source): azimuth_deg [0, 360), elevation_deg, "
                    "confidence [0, 1]; score = map peak"};
}

}  // namespace isochron
