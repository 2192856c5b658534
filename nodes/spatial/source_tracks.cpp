#include "nodes/spatial/source_tracks.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace isochron {
namespace {

constexpr double kSilenceSeconds = 0.1;  // a track unheard this long may meet a new sound

/// `degrees` wrapped into [-180, 180).
double wrapSigned(double degrees) {
    const double wrapped = std::fmod(degrees + 180.0, 360.0);
    return (wrapped < 0.0 ? wrapped + 360.0 : wrapped) - 180.0;
}

/// `degrees` wrapped into [0, 360).
double wrapAzimuth(double degrees) {
    const double wrapped = std::fmod(degrees, 360.0);
    return wrapped < 0.0 ? wrapped + 360.0 : wrapped;
}

}  // namespace

SourceTracks::SourceTracks(const Settings& settings) : settings_(settings) {
    if (settings.birthFrames < 1 || settings.maxTracks < 1 || !(settings.deathSeconds > 0.0) || !(settings.birthSeconds > 0.0) ||
        !(settings.measurementDegrees > 0.0) || !(settings.rateDampingSeconds > 0.0) || !(settings.gateDegrees > 0.0) || !(settings.backgroundSeconds > 0.0)) {
        throw std::invalid_argument("tracker: birth frames, track count, times, gate and measurement deviation must be positive");
    }
    tracks_.resize(static_cast<std::size_t>(settings.maxTracks));
    for (Track& track : tracks_) {
        track.histogram.assign(kHistogramBins, 0.0f);
        track.offsets.assign(kHistogramBins, 0.0f);
    }
    states_.reserve(tracks_.size());
    memory_.reserve(tracks_.size());
    ended_.assign(kEndedKept, Ended{0.0, 0.0, 0.0});
    assigned_.reserve(64);
}

void SourceTracks::predict(const Track& track, double now, double& azimuth, double covariance[2][2]) const {
    const double dt = std::max(0.0, now - track.lastUpdateSeconds);
    const double (&p)[2][2] = track.covariance;
    const double q = settings_.processNoise;
    // F = [[1, g], [0, f]]: the rate decays by f = e^{-dt / tau} and moves the azimuth by g = tau (1 - f).
    const double tau = settings_.rateDampingSeconds;
    const double f = std::exp(-dt / tau);
    const double g = tau * (1.0 - f);
    // P' = F P F^T + Q with Q = q [[dt^3/3, dt^2/2], [dt^2/2, dt]].
    covariance[0][0] = p[0][0] + g * (p[1][0] + p[0][1]) + g * g * p[1][1] + q * dt * dt * dt / 3.0;
    covariance[0][1] = f * p[0][1] + g * f * p[1][1] + q * dt * dt / 2.0;
    covariance[1][0] = f * p[1][0] + g * f * p[1][1] + q * dt * dt / 2.0;
    covariance[1][1] = f * f * p[1][1] + q * dt;
    azimuth = track.state.azimuthDegrees + g * track.state.rateDegreesPerSecond;
}

void SourceTracks::update(const TrackerFrame& frame, SourceTrackSink& sink) {
    const double now = frame.timeSeconds;
    // 1. Ends.
    for (Track& track : tracks_) {
        if (!track.live) continue;
        track.state.observedNow = false;
        if (!track.state.confirmed && now - track.firstSeenSeconds > settings_.birthSeconds) {
            track.live = false;
        } else {
            const double age = track.state.lastSeenSeconds - track.firstSeenSeconds;
            if (now - track.state.lastSeenSeconds > settings_.deathSeconds * (1.0 + std::min(age, 1.0))) end(track, sink);
        }
        if (track.live) ++track.framesAlive;
    }
    std::erase_if(memory_, [&](const Remembered& remembered) { return remembered.untilSeconds < now; });

    // 2. Assignment, nearest first.
    const std::size_t observations = frame.observations.size();
    assigned_.assign(observations, 0);
    const double measurementVariance = settings_.measurementDegrees * settings_.measurementDegrees;
    for (;;) {
        Track* bestTrack = nullptr;
        std::size_t bestObservation = 0;
        double bestDistance = std::numeric_limits<double>::infinity();
        double bestAzimuth = 0.0;
        double bestCovariance[2][2] = {};
        for (Track& track : tracks_) {
            if (!track.live || track.state.observedNow) continue;
            double azimuth = 0.0;
            double covariance[2][2];
            predict(track, now, azimuth, covariance);
            const double deviation = std::sqrt(covariance[0][0] + measurementVariance);
            for (std::size_t j = 0; j < observations; ++j) {
                const TrackObservation& observation = frame.observations[j];
                if (assigned_[j] || observation.strength < settings_.continueStrength) continue;
                const double innovation = std::abs(wrapSigned(observation.azimuthDegrees - azimuth));
                const double distance = innovation / deviation;
                if (innovation > settings_.gateDegrees || distance > settings_.gateDeviations || distance >= bestDistance) continue;
                const bool newSound = observation.birthStrength >= settings_.birthStrength && now - track.state.lastSeenSeconds > kSilenceSeconds;
                if (newSound && innovation > settings_.reacquireDegrees) continue;
                bestTrack = &track;
                bestObservation = j;
                bestDistance = distance;
                bestAzimuth = azimuth;
                std::copy(&covariance[0][0], &covariance[0][0] + 4, &bestCovariance[0][0]);
            }
        }
        if (!bestTrack) break;
        assigned_[bestObservation] = 1;
        const double dt = std::max(0.0, now - bestTrack->lastUpdateSeconds);
        const double predicted[2] = {bestAzimuth, bestTrack->state.rateDegreesPerSecond * std::exp(-dt / settings_.rateDampingSeconds)};
        observe(*bestTrack, frame.observations[bestObservation], now, frame.onsetShare, predicted, bestCovariance);
    }

    // 3. Births.
    for (std::size_t j = 0; j < observations; ++j) {
        const TrackObservation& observation = frame.observations[j];
        if (assigned_[j] || observation.birthStrength < settings_.birthStrength) continue;
        if (j > 0 && observation.value < settings_.secondaryRatio * frame.observations[0].value) continue;
        bool separate = true;
        for (const Track& track : tracks_) {
            // A track silent for a while does not keep a new sound from starting its own.
            const bool silent = now - track.state.lastSeenSeconds > kSilenceSeconds;
            if (track.live && !silent && std::abs(wrapSigned(observation.azimuthDegrees - track.state.azimuthDegrees)) < settings_.separationDegrees) {
                separate = false;
                break;
            }
        }
        if (separate) start(observation, frame);
    }

    // 4. Background reports.
    for (Track& track : tracks_) {
        if (!track.live || !track.state.background || !track.state.confirmed || !track.state.observedNow) continue;
        if (now - track.lastBackgroundReport >= settings_.backgroundIntervalSeconds) {
            track.lastBackgroundReport = now;
            sink.backgroundBearing({track.state.id, now, track.state.azimuthDegrees, track.state.elevationDegrees,
                                    std::clamp(track.valueSum / std::max(1, track.hits), 0.0, 1.0)});
        }
    }
    states_.clear();
    for (const Track& track : tracks_) {
        if (track.live) states_.push_back(track.state);
    }
}

void SourceTracks::observe(Track& track, const TrackObservation& observation, double now, double onsetShare, const double predicted[2],
                           const double covariance[2][2]) {
    const double innovation = wrapSigned(observation.azimuthDegrees - predicted[0]);
    const double s = covariance[0][0] + settings_.measurementDegrees * settings_.measurementDegrees;
    const double gain0 = covariance[0][0] / s;
    const double gain1 = covariance[1][0] / s;
    track.state.azimuthDegrees = wrapAzimuth(predicted[0] + gain0 * innovation);
    track.state.rateDegreesPerSecond = predicted[1] + gain1 * innovation;
    track.covariance[0][0] = covariance[0][0] - gain0 * covariance[0][0];
    track.covariance[0][1] = covariance[0][1] - gain0 * covariance[0][1];
    track.covariance[1][0] = covariance[1][0] - gain1 * covariance[0][0];
    track.covariance[1][1] = covariance[1][1] - gain1 * covariance[0][1];
    track.state.elevationDegrees += 0.3 * (observation.elevationDegrees - track.state.elevationDegrees);
    track.lastUpdateSeconds = now;
    // The sound goes on while observations come without a silence, or resumes with one as strong as a new
    // sound; weak frames after a silence (stray noise near the track) keep the track alive but do not extend it.
    if (now - track.soundEndSeconds <= kSilenceSeconds || std::max(observation.strength, observation.birthStrength) >= settings_.birthStrength) {
        track.soundEndSeconds = now;
    }
    track.state.lastSeenSeconds = now;
    track.state.observedNow = true;
    ++track.hits;
    track.valueSum += observation.value;
    const double weight = std::max(observation.value, 0.05) * (1.0 + settings_.onsetEmphasis * onsetShare);
    const double azimuth = wrapAzimuth(observation.azimuthDegrees);
    const int bin = std::min(kHistogramBins - 1, static_cast<int>(azimuth));
    track.histogram[static_cast<std::size_t>(bin)] += static_cast<float>(weight);
    track.offsets[static_cast<std::size_t>(bin)] += static_cast<float>(weight * (azimuth - (bin + 0.5)));
    track.elevationWeighted += weight * observation.elevationDegrees;
    track.weightSum += weight;
    if (!track.state.confirmed && track.hits >= settings_.birthFrames) track.state.confirmed = true;
    if (track.state.confirmed && !track.state.background && now - track.firstSeenSeconds >= settings_.backgroundSeconds &&
        track.hits >= settings_.backgroundDensity * track.framesAlive) {
        track.state.background = true;
    }
}

void SourceTracks::start(const TrackObservation& observation, const TrackerFrame& frame) {
    auto slot = std::find_if(tracks_.begin(), tracks_.end(), [](const Track& track) { return !track.live; });
    if (slot == tracks_.end()) return;
    Track& track = *slot;
    track.live = true;
    track.state = TrackState{};
    track.state.id = nextId_++;
    track.state.azimuthDegrees = wrapAzimuth(observation.azimuthDegrees);
    track.state.elevationDegrees = observation.elevationDegrees;
    track.state.background = nearBackgroundMemory(observation.azimuthDegrees, frame.timeSeconds);
    const double r = settings_.measurementDegrees * settings_.measurementDegrees;
    track.covariance[0][0] = r;
    track.covariance[0][1] = track.covariance[1][0] = 0.0;
    track.covariance[1][1] = settings_.initialRateDegrees * settings_.initialRateDegrees;
    track.firstSeenSeconds = frame.timeSeconds;
    track.soundEndSeconds = frame.timeSeconds;
    track.hopSeconds = frame.hopSeconds;
    track.lastBackgroundReport = -std::numeric_limits<double>::infinity();
    track.hits = 0;
    track.framesAlive = 1;
    track.valueSum = 0.0;
    track.elevationWeighted = 0.0;
    track.weightSum = 0.0;
    std::fill(track.histogram.begin(), track.histogram.end(), 0.0f);
    std::fill(track.offsets.begin(), track.offsets.end(), 0.0f);
    const double predicted[2] = {track.state.azimuthDegrees, 0.0};
    const double covariance[2][2] = {{track.covariance[0][0], 0.0}, {0.0, track.covariance[1][1]}};
    track.lastUpdateSeconds = frame.timeSeconds;
    observe(track, observation, frame.timeSeconds, frame.onsetShare, predicted, covariance);
}

void SourceTracks::end(Track& track, SourceTrackSink& sink) {
    track.live = false;
    if (!track.state.confirmed) return;
    if (track.state.background) {
        if (memory_.size() < memory_.capacity()) {
            memory_.push_back({track.state.azimuthDegrees, track.state.lastSeenSeconds + settings_.backgroundMemorySeconds});
        }
        return;
    }
    SourceEvent event;
    event.trackId = track.state.id;
    event.startSeconds = track.firstSeenSeconds - track.hopSeconds / 2.0;
    event.endSeconds = track.soundEndSeconds + track.hopSeconds / 2.0;
    event.azimuthDegrees = robustAzimuth(track);
    event.elevationDegrees = track.weightSum > 0.0 ? track.elevationWeighted / track.weightSum : track.state.elevationDegrees;
    event.confidence = std::clamp(track.valueSum / std::max(1, track.hits), 0.0, 1.0);
    event.frames = track.hits;
    const bool echo = isEcho(event);
    ended_[nextEnded_] = {event.startSeconds, event.endSeconds, event.confidence};
    nextEnded_ = (nextEnded_ + 1) % kEndedKept;
    if (!echo) sink.sourceEnded(event);
}

bool SourceTracks::isEcho(const SourceEvent& event) const {
    const double length = event.endSeconds - event.startSeconds;
    // Weaker by echoRatio; or half as much again for a brief flicker (a quarter of the other's span) or for
    // a track that started with the other (a reflection or lobe of the same onset).
    auto overshadows = [&](double start, double end, double confidence) {
        const double overlap = std::min(end, event.endSeconds) - std::max(start, event.startSeconds);
        if (overlap < 0.5 * length) return false;
        const bool brief = length < 0.25 * (end - start);
        if (std::abs(event.startSeconds - start) <= settings_.echoWindowSeconds) return event.confidence < settings_.onsetEchoRatio * confidence;
        return event.confidence < (brief ? 0.5 * (1.0 + settings_.echoRatio) : settings_.echoRatio) * confidence;
    };
    for (const Track& track : tracks_) {
        if (!track.live || !track.state.confirmed || track.state.background) continue;
        if (overshadows(track.firstSeenSeconds - track.hopSeconds / 2.0, track.soundEndSeconds + track.hopSeconds / 2.0,
                        track.valueSum / std::max(1, track.hits))) {
            return true;
        }
    }
    for (const Ended& other : ended_) {
        if (overshadows(other.startSeconds, other.endSeconds, other.confidence)) return true;
    }
    return false;
}

void SourceTracks::finish(SourceTrackSink& sink) {
    for (Track& track : tracks_) {
        if (track.live) end(track, sink);
    }
    states_.clear();
}

bool SourceTracks::nearBackgroundMemory(double azimuth, double now) const {
    for (const Remembered& remembered : memory_) {
        if (remembered.untilSeconds >= now && std::abs(wrapSigned(azimuth - remembered.azimuthDegrees)) < settings_.gateDegrees) return true;
    }
    return false;
}

double SourceTracks::robustAzimuth(const Track& track) const {
    constexpr int kModeHalfWidth = 3;
    int mode = 0;
    double modeWeight = -1.0;
    for (int b = 0; b < kHistogramBins; ++b) {
        double sum = 0.0;
        for (int d = -kModeHalfWidth; d <= kModeHalfWidth; ++d) sum += track.histogram[static_cast<std::size_t>((b + d + kHistogramBins) % kHistogramBins)];
        if (sum > modeWeight) {
            modeWeight = sum;
            mode = b;
        }
    }
    const int reach = static_cast<int>(std::ceil(settings_.robustDegrees));
    double weight = 0.0;
    double offset = 0.0;
    for (int d = -reach; d <= reach; ++d) {
        const auto b = static_cast<std::size_t>((mode + d + kHistogramBins) % kHistogramBins);
        weight += track.histogram[b];
        offset += track.histogram[b] * d + track.offsets[b];
    }
    if (!(weight > 0.0)) return track.state.azimuthDegrees;
    return wrapAzimuth(mode + 0.5 + offset / weight);
}

double SourceTracks::earliestPendingStart(double nowSeconds) const {
    double earliest = nowSeconds;
    for (const Track& track : tracks_) {
        if (track.live && !track.state.background) earliest = std::min(earliest, track.firstSeenSeconds - track.hopSeconds / 2.0);
    }
    return earliest;
}

}  // namespace isochron
