#include "nodes/spatial/beamformer.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "nodes/spatial/beam_pattern.h"
#include "nodes/spectral/short_time_parameters.h"

namespace isochron {
namespace {

LookAngles fixedAngles(const ParamSet& params) { return {params.getReal("azimuth_deg"), params.getReal("elevation_deg")}; }

}  // namespace

void Beamformer::onActivate() {
    speedOfSound_ = params().getReal("speed_of_sound");
    micCount_ = inputCount() - 1;
    steerPort_ = micCount_;
    try {
        geometry_ = loadGeometry(params().getString("geometry"));
        const ShortTimeSettings settings = readShortTimeSettings(params());
        analysis_.emplace(settings.size, settings.window, settings.effort);
        synthesis_.emplace(settings.size, settings.hop, settings.window, settings.effort);
        framers_.assign(static_cast<std::size_t>(micCount_), StftFramer(settings.size, settings.hop, true));
    } catch (const std::invalid_argument& e) {
        throw OperatorError(e.what());
    }
    if (geometry_->micCount() != micCount_) {
        throw OperatorError("geometry " + geometry_->origin + " has " + std::to_string(geometry_->micCount()) + " mics but the node has " +
                            std::to_string(micCount_) + " mic inputs");
    }
    held_ = std::vector<RingBuffer<HeldFrame>>(static_cast<std::size_t>(micCount_));
    schedule_.emplace(fixedAngles(params()), params().getInt("track_id"));
    const std::int64_t bins = analysis_->binCount();
    spectra_.clear();
    spectrumRows_.clear();
    spectrumViews_.clear();
    for (int m = 0; m < micCount_; ++m) {
        spectra_.push_back(SigSeg<std::complex<float>>::allocate(bins, 0, nullptr));
        spectrumRows_.push_back(spectra_.back().writable().data());  // sole owner: the pointer stays valid
        spectrumViews_.push_back(spectrumRows_.back());
    }
    combined_ = SigSeg<std::complex<float>>::allocate(bins, 0, nullptr);
    steering_.assign(static_cast<std::size_t>(bins * micCount_), {});
    steeredAt_.reset();
    patternHz_ = params().getReal("pattern_hz");
    patternIntervalNs_ = static_cast<TimeNs>(params().getReal("pattern_interval") * 1e9);
    patternAzimuths_.clear();
    const double step = params().getReal("pattern_step_deg");
    for (double azimuth = 0.0; azimuth < 360.0 - 1e-9; azimuth += step) patternAzimuths_.push_back(azimuth);
    patternWeights_.assign(static_cast<std::size_t>(micCount_), {});
    prepare(micCount_, bins);
}

void Beamformer::process(int inputPort, Item&& item) {
    if (inputPort == steerPort_) {
        if (auto problem = schedule_->offer(item); problem && !warnedSteering_) {
            warn(*problem + " (further such events are ignored silently)");
            warnedSteering_ = true;
        }
    } else {
        framers_[static_cast<std::size_t>(inputPort)].push(
            item.takeSignal<float>(), [&](const SigSeg<float>& samples, const SampleRange& range) { frameReady(inputPort, samples, range); });
    }
    processReadyFrames();
}

TimeNs Beamformer::onProgress(TimeNs inputProgress) {
    processReadyFrames();
    TimeNs promise = inputProgress;
    if (synthesis_->holdsSamples()) promise = std::min(promise, synthesis_->timebase()->timeOf(synthesis_->nextSampleIndex()));
    for (std::size_t m = 0; m < held_.size(); ++m) {
        if (!held_[m].empty()) promise = std::min(promise, held_[m].front().range.startTime());
        promise = std::min(promise, framers_[m].promise(inputProgress));
    }
    return promise;
}

void Beamformer::onFinish() {
    for (int m = 0; m < micCount_; ++m) {
        framers_[static_cast<std::size_t>(m)].finish(
            [&](const SigSeg<float>& samples, const SampleRange& range) { frameReady(m, samples, range); });
    }
    processReadyFrames();
    std::size_t left = 0;
    for (auto& frames : held_) {
        left = std::max(left, frames.size());
        while (!frames.empty()) frames.pop();
    }
    if (left > 0) warn(std::to_string(left) + " frame(s) did not arrive on every mic input and were not beamformed");
    synthesis_->reset();
}

void Beamformer::onParameterChanged(std::string_view) { schedule_->setFixed(fixedAngles(params())); }

void Beamformer::frameReady(int mic, const SigSeg<float>& samples, const SampleRange& range) {
    held_[static_cast<std::size_t>(mic)].push(HeldFrame{samples, range});
}

void Beamformer::processReadyFrames() {
    for (;;) {
        for (const auto& frames : held_) {
            if (frames.empty()) return;
        }
        if (!alignFronts()) continue;
        const SampleRange& range = held_.front().front().range;
        const TimeNs centre = range.timebase->timeOf(range.start + analysis_->size() / 2);
        if (inputProgress(steerPort_) <= centre) return;  // a steering event may still start before the centre
        processFrame();
        for (auto& frames : held_) frames.pop();
    }
}

bool Beamformer::alignFronts() {
    std::int64_t latest = held_.front().front().range.start;
    const Timebase* timebase = held_.front().front().range.timebase;
    bool aligned = true;
    for (const auto& frames : held_) {
        aligned = aligned && frames.front().range.start == latest && frames.front().range.timebase == timebase;
        latest = std::max(latest, frames.front().range.start);
    }
    if (aligned) return true;
    if (!warnedMisaligned_) {
        warn("the mic inputs' samples do not line up (different start indices, gaps or timebases): frames not on every input are dropped");
        warnedMisaligned_ = true;
    }
    for (auto& frames : held_) {
        if (frames.front().range.start < latest || frames.front().range.timebase != timebase) frames.pop();
    }
    return false;
}

void Beamformer::processFrame() {
    const SampleRange range = held_.front().front().range;
    const TimeNs centre = range.timebase->timeOf(range.start + analysis_->size() / 2);
    const LookAngles angles = schedule_->at(centre);
    if (!steeredAt_ || *steeredAt_ != angles || range.timebase->rateHz() != steeredRateHz_) {
        updateSteering(angles, range.timebase->rateHz());
        patternDue_ = true;
    }
    for (std::size_t m = 0; m < held_.size(); ++m) analysis_->transform(held_[m].front().samples, spectrumRows_[m]);
    std::span<std::complex<float>> output = combined_.writable();
    combine(spectrumViews_, steering_, output);
    SigSeg<float> samples = synthesis_->add(range, output);
    if (!samples.empty()) emit(0, Item::signal(std::move(samples)));
    if (patternDue_ || (patternIntervalNs_ > 0 && centre >= nextPatternNs_)) {
        emitPattern(range);
        patternDue_ = false;
        nextPatternNs_ = centre + patternIntervalNs_;
    }
}

void Beamformer::updateSteering(const LookAngles& angles, double rateHz) {
    const std::vector<double> delays =
        steeringDelays(*geometry_, directionVector(angles.azimuthDegrees, angles.elevationDegrees), speedOfSound_);
    const std::int64_t bins = analysis_->binCount();
    const auto mics = static_cast<std::size_t>(micCount_);
    for (std::int64_t k = 0; k < bins; ++k) {
        const double hz = static_cast<double>(k) * rateHz / static_cast<double>(analysis_->size());
        steeringVector(delays, hz, std::span(steering_).subspan(static_cast<std::size_t>(k) * mics, mics));
    }
    steeredAt_ = angles;
    steeredRateHz_ = rateHz;
}

void Beamformer::emitPattern(const SampleRange& range) {
    const double hzPerBin = steeredRateHz_ / static_cast<double>(analysis_->size());
    const auto bin = std::clamp<std::int64_t>(std::llround(patternHz_ / hzPerBin), 0, analysis_->binCount() - 1);
    const auto mics = static_cast<std::size_t>(micCount_);
    weightsAt(bin, std::span(steering_).subspan(static_cast<std::size_t>(bin) * mics, mics), patternWeights_);
    auto pattern = SigSeg<float>::allocate(static_cast<std::int64_t>(patternAzimuths_.size()), 0, nullptr);
    beamPattern(*geometry_, speedOfSound_, patternWeights_, static_cast<double>(bin) * hzPerBin, steeredAt_->elevationDegrees,
                patternAzimuths_, pattern.writable());
    emit(1, Item::frame(std::move(pattern), range));
}

std::vector<ParamSpec> beamformerParameters() {
    std::vector<ParamSpec> params = {
        ParamSpec{"channels", ParamKind::Int, std::int64_t{0}, 0.0, 64.0, "", "number of mic inputs in0.. (0 = the size of the bus feeding them)"},
        ParamSpec{"geometry", ParamKind::Path, std::string(), {}, {}, "",
                  "the array: a preset such as square4:0.2, or a JSON file {\"mics\": [[x, y, z], ...]} in metres, in input order"},
        ParamSpec{"speed_of_sound", ParamKind::Real, kSpeedOfSoundMetresPerSecond, 100.0, 2000.0, "m/s",
                  "propagation speed used for steering delays (343 m/s: air at about 20 °C)"},
        ParamSpec{"azimuth_deg", ParamKind::Real, 0.0, -360.0, 360.0, "deg",
                  "look direction until a steering event arrives, counter-clockwise from the array's x axis", {}, true},
        ParamSpec{"elevation_deg", ParamKind::Real, 0.0, -90.0, 90.0, "deg", "look elevation above the array's x-y plane", {}, true},
        ParamSpec{"track_id", ParamKind::Int, std::int64_t{-1}, -1.0, 1e9, "",
                  "follow only steering events with this track_id; -1 = every steering event"},
    };
    for (ParamSpec& spec : shortTimeParameters("hann")) params.push_back(std::move(spec));
    params.push_back(ParamSpec{"pattern_hz", ParamKind::Real, 1000.0, 1.0, 1e6, "Hz", "frequency of the beam pattern on the pattern output"});
    params.push_back(ParamSpec{"pattern_step_deg", ParamKind::Real, 5.0, 0.5, 90.0, "deg", "azimuth step of the beam pattern"});
    params.push_back(ParamSpec{"pattern_interval", ParamKind::Real, 0.0, 0.0, 3600.0, "s",
                               "also send the pattern this often (adaptive weights change it); 0 = only when the look direction changes"});
    return params;
}

std::vector<PortSpec> beamformerInputs() {
    return {
        PortSpec{"in", PortType::signal(SampleType::Float32), "mic m's signal, in the geometry's order", false, "channels"},
        PortSpec{"steer", PortType::event(), "direction events (azimuth_deg or track_azimuth_deg, elevation_deg, track_id) to follow",
                 true},
    };
}

std::vector<PortSpec> beamformerOutputs() {
    return {
        PortSpec{"out", PortType::signal(SampleType::Float32), "the beam: sound from the look direction as heard at the array's origin"},
        PortSpec{"pattern", PortType::frame(SampleType::Float32), "beam pattern in dB over azimuth (0, step, ... < 360) at pattern_hz"},
    };
}

}  // namespace isochron
