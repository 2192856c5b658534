#include "nodes/spatial/source_tracker.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "engine/operators/operator.h"
#include "nodes/detect/noise_statistics.h"
#include "nodes/spatial/direction_frame.h"
#include "nodes/spatial/source_tracks.h"

namespace isochron {
namespace {

constexpr int kEventsPort = 0;
constexpr int kBackgroundPort = 1;
constexpr int kTracksPort = 2;

/// Detection (CFAR) and tracking over spatial.frame_directions' frames.
///
/// A peak's evidence is L = ln(1 + signal bins x max(0, response - map mean)): how many bins hold
/// sound times how far the direction stands out of the map. Its strength is (L - mu) / sigma, mu and
/// sigma the mean and deviation of the frames' largest L while no sound is present (NoiseStatistics,
/// learnt from frames below the continuation threshold, and from every frame during the warm-up).
/// Strengths drive SourceTracks (source_tracks.h), whose ended sources become events and whose
/// background sources become background bearings.
class SourceTracker final : public Operator, private SourceTrackSink {
protected:
    void onActivate() override {
        SourceTracks::Settings settings;
        settings.birthStrength = params().getReal("birth_deviations");
        settings.continueStrength = params().getReal("continue_deviations");
        settings.birthFrames = static_cast<int>(params().getInt("birth_frames"));
        settings.birthSeconds = params().getReal("birth_window");
        settings.deathSeconds = params().getReal("death_time");
        settings.gateDegrees = params().getReal("gate_deg");
        settings.reacquireDegrees = params().getReal("reacquire_deg");
        settings.separationDegrees = params().getReal("separation_deg");
        settings.secondaryRatio = params().getReal("secondary_ratio");
        settings.measurementDegrees = params().getReal("measurement_deviation_deg");
        settings.processNoise = params().getReal("process_noise");
        settings.initialRateDegrees = params().getReal("initial_rate_deviation");
        settings.rateDampingSeconds = params().getReal("rate_damping");
        settings.backgroundDensity = params().getReal("background_density");

        settings.backgroundSeconds = params().getReal("background_after");
        settings.backgroundIntervalSeconds = params().getReal("background_interval");
        settings.backgroundMemorySeconds = params().getReal("background_memory");
        settings.robustDegrees = params().getReal("robust_deg");
        settings.onsetEmphasis = params().getReal("onset_emphasis");
        settings.echoRatio = params().getReal("echo_ratio");
        settings.echoWindowSeconds = params().getReal("echo_window");
        settings.onsetEchoRatio = params().getReal("onset_echo_ratio");
        try {
            tracks_.emplace(settings);
        } catch (const std::invalid_argument& e) {
            throw OperatorError(e.what());
        }
        warmupSeconds_ = params().getReal("warmup");
        continueStrength_ = settings.continueStrength;
        deviationFloor_ = params().getReal("deviation_floor");
        backgroundInterval_ = settings.backgroundIntervalSeconds;
        lastSteadyReport_ = -std::numeric_limits<double>::infinity();

        timebase_ = nullptr;
    }

    void process(int, Item&& item) override {
        const auto* frame = item.customAs<DirectionFrame>();
        if (!frame) throw OperatorError("expected spatial.direction_frame items");
        const SampleRange range = item.range();
        if (!timebase_) {
            timebase_ = range.timebase;
            firstIndex_ = range.start;
            const std::int64_t adaptFrames = std::max<std::int64_t>(
                1, std::llround(params().getReal("noise_adapt") * timebase_->rateHz() / static_cast<double>(std::max<std::int64_t>(1, frame->hop))));
            quiet_ = EvidenceStatistics(adaptFrames);

        }
        if (range.timebase != timebase_) throw OperatorError("frames on different timebases");
        const double rate = timebase_->rateHz();
        lastFrame_ = range;

        // Evidence of sound in a direction: the bins that hold sound times the response there; of new sound: the
        // same with the bins weighted by their onset, so that a room's ringing (no onset) starts nothing.
        const double bins = frame->signalBins;
        const double onsetBins = frame->onsetWeight;
        // A direction counts by its contrast, how far it stands out of the map: (value - mean) / (1 - mean), so a
        // broad map (low frequencies on a small array, several sources) does not make every lobe a source.
        const double mean = std::min(frame->mapMean, 0.99);
        auto evidence = [&](double weight, double value) {
            return std::log1p(weight * std::clamp((value - mean) / (1.0 - mean), 0.0, 1.0));
        };
        // A direction is judged against the frames whose strongest direction is quiet (the noise).
        const bool warmingUp = static_cast<double>(range.start - firstIndex_) / rate < warmupSeconds_;
        const int count = warmingUp ? 0 : frame->peakCount;
        double strongest = 0.0, strongestOnset = 0.0;
        for (int i = 0; i < frame->peakCount; ++i) {
            const DirectionPeak& peak = frame->peaks[static_cast<std::size_t>(i)];
            const double any = evidence(bins, peak.value);
            const double onset = evidence(onsetBins, peak.value);
            strongest = std::max(strongest, any);
            strongestOnset = std::max(strongestOnset, onset);
            if (i < count) {
                observations_[static_cast<std::size_t>(i)] = {peak.azimuthDegrees, peak.elevationDegrees, peak.value,
                                                              quiet_.any.strength(any, deviationFloor_),
                                                              quiet_.onset.strength(onset, deviationFloor_)};
            }
        }
        if (warmingUp || quiet_.any.strength(strongest, deviationFloor_) < continueStrength_) {
            quiet_.any.learn(strongest);
            quiet_.onset.learn(strongestOnset);
        }

        TrackerFrame trackerFrame;
        trackerFrame.timeSeconds = (static_cast<double>(range.start) + static_cast<double>(range.length) / 2.0) / rate;
        trackerFrame.hopSeconds = static_cast<double>(std::max<std::int64_t>(1, frame->hop)) / rate;
        trackerFrame.observations = std::span(observations_).first(static_cast<std::size_t>(count));
        trackerFrame.onsetShare = bins > 0.0 ? std::clamp(frame->onsetWeight / bins, 0.0, 1.0) : 0.0;
        tracks_->update(trackerFrame, *this);
        reportSteadyBackground(*frame, trackerFrame.timeSeconds);
        for (const TrackState& track : tracks_->tracks()) {
            if (!track.confirmed) continue;
            EventRecord* record = EventRecord::create("track");
            record->set("track_id", static_cast<double>(track.id));
            record->set("azimuth_deg", track.azimuthDegrees);
            record->set("elevation_deg", track.elevationDegrees);
            record->set("background", track.background ? 1.0 : 0.0);
            record->set("observed", track.observedNow ? 1.0 : 0.0);
            emit(kTracksPort, Item::event(record, range, track.observedNow ? 1.0 : 0.0));
        }
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        if (!timebase_) return inputProgress;
        const double earliest = tracks_->earliestPendingStart(std::numeric_limits<double>::infinity());
        if (!std::isfinite(earliest)) return inputProgress;
        return std::min(inputProgress, timebase_->timeOf(std::max(firstIndex_, static_cast<std::int64_t>(std::llround(earliest * timebase_->rateHz())))));
    }

    void onFinish() override {
        if (tracks_) tracks_->finish(*this);
    }

private:
    void sourceEnded(const SourceEvent& event) override {
        const double rate = timebase_->rateHz();
        const std::int64_t start = std::max<std::int64_t>(firstIndex_, std::llround(event.startSeconds * rate));
        const std::int64_t end = std::max<std::int64_t>(start + 1, std::llround(event.endSeconds * rate));
        EventRecord* record = EventRecord::create("source");
        record->set("azimuth_deg", event.azimuthDegrees);
        record->set("elevation_deg", event.elevationDegrees);
        record->set("confidence", event.confidence);
        record->set("track_id", static_cast<double>(event.trackId));
        record->set("frames", event.frames);
        emit(kEventsPort, Item::event(record, SampleRange{timebase_, start, end - start}, event.confidence));
    }

    /// The frame's steady directional noise (a fan), every background_interval.
    void reportSteadyBackground(const DirectionFrame& frame, double now) {
        if (frame.backgroundCount == 0 || now - lastSteadyReport_ < backgroundInterval_) return;
        lastSteadyReport_ = now;
        for (int i = 0; i < frame.backgroundCount; ++i) {
            const DirectionPeak& peak = frame.background[static_cast<std::size_t>(i)];
            EventRecord* record = EventRecord::create("background");
            record->set("azimuth_deg", peak.azimuthDegrees);
            record->set("elevation_deg", peak.elevationDegrees);
            record->set("confidence", std::clamp(peak.value, 0.0, 1.0));
            record->set("steady", 1.0);
            emit(kBackgroundPort, Item::event(record, lastFrame_, std::clamp(peak.value, 0.0, 1.0)));
        }
    }

    void backgroundBearing(const BackgroundBearing& bearing) override {
        EventRecord* record = EventRecord::create("background");
        record->set("azimuth_deg", bearing.azimuthDegrees);
        record->set("elevation_deg", bearing.elevationDegrees);
        record->set("confidence", bearing.confidence);
        record->set("track_id", static_cast<double>(bearing.trackId));
        record->set("steady", 0.0);
        emit(kBackgroundPort, Item::event(record, lastFrame_, bearing.confidence));
    }

    std::optional<SourceTracks> tracks_;
    /// Mean and deviation of the evidence (and onset evidence) of the strongest direction of some frames.
    struct EvidenceStatistics {
        explicit EvidenceStatistics(std::int64_t adaptFrames = 1000) : any(adaptFrames), onset(adaptFrames) {}
        struct Scores : NoiseStatistics {
            using NoiseStatistics::NoiseStatistics;
            double strength(double evidence, double floor) const { return (evidence - mean()) / deviation(floor); }
        };
        Scores any;
        Scores onset;
    };


    EvidenceStatistics quiet_;  // frames whose strongest direction is below the continuation strength
    double backgroundInterval_ = 1.0;
    double lastSteadyReport_ = 0.0;  // when the steady background was last reported
    double warmupSeconds_ = 0.25;
    double continueStrength_ = 2.0;
    double deviationFloor_ = 0.3;
    const Timebase* timebase_ = nullptr;
    std::int64_t firstIndex_ = 0;
    SampleRange lastFrame_;
    std::array<TrackObservation, DirectionFrame::kMaxPeaks> observations_{};
};

}  // namespace

OperatorDescriptor sourceTrackerDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spatial.source_tracker";
    d.category = "spatial";
    d.summary = "Sound sources from per-frame directions: one event per source (multi-target tracking), background apart";
    d.documentation =
        "Each direction of a frame (spatial.frame_directions) is scored against the noise: evidence L = ln(1 + signal "
        "bins x (response - map mean)), strength = (L - mean) / deviation of the frames' L without sound (CFAR; "
        "learnt over noise_adapt seconds, from every frame during the warm-up). Directions at least "
        "continue_deviations strong extend the nearest predicted track (constant-velocity Kalman filter on the "
        "azimuth; gate gate_deg and 3 predicted deviations); unassigned ones at least birth_deviations strong and "
        "separation_deg from every track start a tentative track, confirmed after birth_frames observations within "
        "birth_window. A track ends death_time after its last observation: a confirmed one becomes an event 'source' "
        "over its own span (half a hop before its first frame's centre to half a hop after its last), with azimuth_deg "
        "(robust mean: mode of the weighted azimuths, averaged within robust_deg; frames weigh their response x (1 + "
        "onset_emphasis x onset share)), elevation_deg, confidence (mean response, [0, 1]), track_id and frames. A "
        "track lasting background_after seconds is background (a machine, a talker who never stops): never an event, "
        "reported every background_interval on 'background' and remembered for background_memory seconds. 'tracks' "
        "carries every confirmed track each frame (track_id, azimuth_deg, elevation_deg, background, observed).";
    d.inputs = {PortSpec{"directions", PortType::custom(DirectionFrame::kTypeName), "frames from spatial.frame_directions"}};
    d.outputs = {
        PortSpec{"events", PortType::event(), "one event per source when it ends: azimuth_deg, elevation_deg, confidence, track_id"},
        PortSpec{"background", PortType::event(), "bearings of background sources: azimuth_deg, elevation_deg, confidence, track_id"},
        PortSpec{"tracks", PortType::event(), "per frame, every confirmed track: track_id, azimuth_deg, elevation_deg, background"},
    };
    d.params = {
        ParamSpec{"birth_deviations", ParamKind::Real, 3.5, 0.0, 1000.0, "deviations", "a direction this strong may start a track"},
        ParamSpec{"continue_deviations", ParamKind::Real, 1.5, 0.0, 1000.0, "deviations", "a direction this strong may extend a track"},
        ParamSpec{"birth_frames", ParamKind::Int, std::int64_t{3}, 1.0, 1000.0, "frames", "observations that confirm a track"},
        ParamSpec{"birth_window", ParamKind::Real, 0.35, 0.001, 60.0, "s", "a track not confirmed this long after its start is dropped"},
        ParamSpec{"death_time", ParamKind::Real, 0.35, 0.001, 60.0, "s",
                  "a track ends this long after its last observation (longer than the gaps of a click train); twice "
                  "that once it has lasted a second"},
        ParamSpec{"gate_deg", ParamKind::Real, 20.0, 0.1, 180.0, "deg", "largest azimuth innovation a track accepts"},
        ParamSpec{"reacquire_deg", ParamKind::Real, 10.0, 0.1, 180.0, "deg",
                  "an onset strong enough to start a track joins a track silent for 0.1 s only this close (else: a new source)"},
        ParamSpec{"separation_deg", ParamKind::Real, 20.0, 0.0, 180.0, "deg", "no new track this close to a live one"},
        ParamSpec{"secondary_ratio", ParamKind::Real, 0.6, 0.0, 1.0, "",
                  "a frame's weaker direction starts a track only if its response is at least this share of the strongest's"},
        ParamSpec{"measurement_deviation_deg", ParamKind::Real, 6.0, 0.01, 90.0, "deg", "deviation of one frame's azimuth"},
        ParamSpec{"process_noise", ParamKind::Real, 10.0, 0.0, 1e6, "deg^2/s^3", "how fast a source may change its angular rate"},
        ParamSpec{"initial_rate_deviation", ParamKind::Real, 5.0, 0.0, 3600.0, "deg/s", "deviation of a new track's angular rate"},
        ParamSpec{"rate_damping", ParamKind::Real, 1.0, 0.01, 3600.0, "s", "an unobserved track's angular rate decays with this time constant"},
        ParamSpec{"background_after", ParamKind::Real, 2.5, 0.01, 3600.0, "s", "a track lasting this long ..."},
        ParamSpec{"background_density", ParamKind::Real, 0.05, 0.0, 1.0, "", "... and observed in this share of its frames is background"},
        ParamSpec{"background_interval", ParamKind::Real, 1.0, 0.01, 3600.0, "s", "time between background bearings of one source"},
        ParamSpec{"background_memory", ParamKind::Real, 30.0, 0.0, 3600.0, "s", "a background direction is remembered this long"},
        ParamSpec{"robust_deg", ParamKind::Real, 10.0, 1.0, 180.0, "deg", "an event's azimuth averages its frames this close to their mode"},
        ParamSpec{"onset_emphasis", ParamKind::Real, 3.0, 0.0, 100.0, "", "extra weight of a frame's azimuth per unit of onset share"},
        ParamSpec{"echo_ratio", ParamKind::Real, 0.5, 0.0, 1.0, "",
                  "a track within another's span whose mean response is below this share of the other's is its echo: no event"},
        ParamSpec{"echo_window", ParamKind::Real, 0.06, 0.0, 10.0, "s",
                  "a track within another's span that started this close to the other's start ..."},
        ParamSpec{"onset_echo_ratio", ParamKind::Real, 0.85, 0.0, 1.0, "",
                  "... and whose mean response is below this share of the other's is a reflection or side lobe of the same "
                  "onset: no event"},
        ParamSpec{"warmup", ParamKind::Real, 0.25, 0.0, 60.0, "s", "no track starts before the noise is learnt this long"},
        ParamSpec{"deviation_floor", ParamKind::Real, 0.3, 0.0, 100.0, "",
                  "smallest noise deviation of the evidence (ln units), so that near silence every blip is not a sound"},
        ParamSpec{"noise_adapt", ParamKind::Real, 10.0, 0.01, 3600.0, "s", "time constant of the noise evidence statistics"},
    };
    d.create = [] { return std::make_unique<SourceTracker>(); };
    return d;
}

}  // namespace isochron
