// SourceTracks: a multi-target tracker that turns the directions found in every frame into sound
// sources (after ODAS's tracking stage: Grondin & Michaud, 2019), without the engine, so that its
// logic is testable on synthetic observations.
//
// Each track is a Kalman filter on the wrapped azimuth (state: azimuth, rate) whose rate decays
// between observations (time constant `rateDampingSeconds`: a source coasting through a pause does not
// drift away), with the elevation smoothed alongside. Per frame:
//  1. tracks without an observation for `deathSeconds` (twice that once a track has lasted a second,
//     so a talker's pauses do not end it) end: a confirmed track that is not background
//     becomes an event (its own span: first observation to the end of its sound, the last observation
//     that followed another within 0.1 s or was as strong as a new sound, so that stray noise frames
//     near it after a silence do not stretch it); a tentative one not confirmed within `birthSeconds` is dropped;
//  2. the observations at least `continueStrength` strong are assigned to the predicted tracks,
//     nearest first (innovation in predicted deviations), each track and observation at most once,
//     within `gateDeviations` and `gateDegrees` (and `reacquireDegrees` for an observation strong enough
//     to start a track when the track has been silent for 0.1 s: a new sound nearby is a new source);
//  3. an unassigned observation whose onset evidence is at least `birthStrength`, `separationDegrees`
//     away from every track heard in the last 0.1 s and (unless it is the frame's strongest) with a response at least
//     `secondaryRatio` of the strongest's (weaker peaks are mostly reflections and side lobes) starts a
//     tentative track, confirmed after `birthFrames` observations;
//  4. a confirmed track that has lasted `backgroundSeconds`, observed in at least `backgroundDensity`
//     of its frames, is background: a source that never stops
//     (a machine, a distant talker). It is reported as background bearings every
//     `backgroundIntervalSeconds`, never as an event, and its direction is remembered for
//     `backgroundMemorySeconds` after it falls silent, so that it resumes as background.
// A track that ends within (half its span) another confirmed track's span, with a mean response below
// `echoRatio` of the other's (or below (1 + echoRatio) / 2 of it when it lasted under a quarter as
// long: a flicker), or one that started within `echoWindowSeconds` of the other and is below
// `onsetEchoRatio` of it (a reflection or lobe of the same onset), is that one's echo, side lobe or
// grating lobe and no event (a second source of an overlapping pair is seldom that much weaker: both
// take their own bins, and it seldom starts in the same few frames).
// An event's azimuth is a robust mean: the weighted azimuths of its observations in 1° bins, the
// heaviest ±3° neighbourhood picked, and the weighted mean within `robustDegrees` of it; weights
// grow with the response and with the onset share of the frame (direct sound before reflections).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace isochron {

/// One direction found in a frame. [value type]
struct TrackObservation {
    double azimuthDegrees = 0.0;
    double elevationDegrees = 0.0;
    double value = 0.0;     ///< the steered response there, [-1, 1]
    double strength = 0.0;       ///< evidence of sound there, in noise deviations above the noise mean
    double birthStrength = 0.0;  ///< evidence of new sound (an onset) there, in the same unit
};

/// What the tracker learns from one frame. [value type]
struct TrackerFrame {
    double timeSeconds = 0.0;  ///< the frame's centre
    double hopSeconds = 0.01;  ///< time between frames (> 0)
    std::span<const TrackObservation> observations;  ///< strongest first
    double onsetShare = 0.0;   ///< how much of the frame's sound is new, [0, 1]
};

/// A sound source that has ended. [value type]
struct SourceEvent {
    std::int64_t trackId = 0;
    double startSeconds = 0.0;  ///< half a hop before its first observation's frame centre
    double endSeconds = 0.0;    ///< half a hop after its sound's last observation (not a stray one after a silence)
    double azimuthDegrees = 0.0;
    double elevationDegrees = 0.0;
    double confidence = 0.0;  ///< mean response of its observations, [0, 1]
    int frames = 0;           ///< observations
};

/// Where a background source is. [value type]
struct BackgroundBearing {
    std::int64_t trackId = 0;
    double timeSeconds = 0.0;
    double azimuthDegrees = 0.0;
    double elevationDegrees = 0.0;
    double confidence = 0.0;
};

/// A live track as the tracker sees it now. [value type]
struct TrackState {
    std::int64_t id = 0;
    double azimuthDegrees = 0.0;  ///< filtered, [0, 360)
    double elevationDegrees = 0.0;
    double rateDegreesPerSecond = 0.0;
    double lastSeenSeconds = 0.0;
    bool confirmed = false;
    bool background = false;
    bool observedNow = false;  ///< got an observation in the last frame
};

/// Receives what the tracker finds. [engine thread]
class SourceTrackSink {
public:
    virtual void sourceEnded(const SourceEvent& event) = 0;
    virtual void backgroundBearing(const BackgroundBearing& bearing) = 0;

protected:
    ~SourceTrackSink() = default;
};

/// Multi-target tracker over per-frame directions. [one thread] [no allocation after construction]
class SourceTracks {
public:
    struct Settings {
        double birthStrength = 4.0;          ///< deviations for an observation to start a track
        double continueStrength = 2.0;       ///< deviations for an observation to extend one
        int birthFrames = 3;                 ///< observations that confirm a track, >= 1
        double birthSeconds = 0.25;          ///< a tentative track must be confirmed within this
        double deathSeconds = 0.35;          ///< a new track ends after this long without observations (twice it after a second)
        double gateDeviations = 3.0;         ///< largest innovation, in predicted deviations
        double gateDegrees = 20.0;           ///< and in degrees
        double reacquireDegrees = 10.0;      ///< a new sound's onset joins a track silent for 0.1 s only this close
        double separationDegrees = 20.0;     ///< no new track this close to an existing one
        double secondaryRatio = 0.6;         ///< a frame's weaker peak starts a track only above this share of the strongest
        double measurementDegrees = 6.0;     ///< deviation of one frame's azimuth
        double processNoise = 10.0;          ///< angular acceleration density, deg^2/s^3
        double initialRateDegrees = 5.0;     ///< deviation of a new track's rate, deg/s
        double rateDampingSeconds = 1.0;     ///< an unobserved track's rate decays with this time constant
        double backgroundSeconds = 2.5;      ///< a track lasting this long ...
        double backgroundDensity = 0.05;      ///< ... and observed in this share of its frames is background
        double backgroundIntervalSeconds = 1.0;
        double backgroundMemorySeconds = 30.0;
        double robustDegrees = 10.0;         ///< an event's azimuth averages observations this close to its mode
        double onsetEmphasis = 3.0;          ///< weight x (1 + emphasis x onset share)
        double echoRatio = 0.5;              ///< a track this much weaker than one it overlaps is its echo
        double echoWindowSeconds = 0.06;     ///< a track starting this close to another's start ...
        double onsetEchoRatio = 0.85;        ///< ... and below this share of its response is its echo
        int maxTracks = 16;                  ///< live tracks at most (births refused beyond)
    };

    /// Throws std::invalid_argument for settings out of range. [allocates]
    explicit SourceTracks(const Settings& settings);

    /// Take one frame (frames in time order). [no allocation]
    void update(const TrackerFrame& frame, SourceTrackSink& sink);
    /// End every track (the stream ended): confirmed ones become events. [no allocation]
    void finish(SourceTrackSink& sink);
    /// Live tracks. [no allocation]
    std::span<const TrackState> tracks() const { return states_; }
    /// The earliest start an event still to come can have (seconds), or `nowSeconds` if no track is live.
    double earliestPendingStart(double nowSeconds) const;

private:
    static constexpr int kHistogramBins = 360;

    struct Track {
        bool live = false;
        TrackState state;
        double covariance[2][2] = {{0.0, 0.0}, {0.0, 0.0}};
        double lastUpdateSeconds = 0.0;
        double firstSeenSeconds = 0.0;
        double soundEndSeconds = 0.0;  // the last observation that continued or resumed its sound
        double hopSeconds = 0.01;
        double lastBackgroundReport = 0.0;
        int hits = 0;
        int framesAlive = 0;
        double valueSum = 0.0;
        double elevationWeighted = 0.0;
        double weightSum = 0.0;
        std::vector<float> histogram;  // [1° bin]: weight
        std::vector<float> offsets;    // [1° bin]: weight x (azimuth - bin centre)
    };

    void predict(const Track& track, double now, double& azimuth, double covariance[2][2]) const;
    void end(Track& track, SourceTrackSink& sink);
    void observe(Track& track, const TrackObservation& observation, double now, double onsetShare, const double predicted[2],
                 const double covariance[2][2]);
    void start(const TrackObservation& observation, const TrackerFrame& frame);
    bool nearBackgroundMemory(double azimuth, double now) const;
    double robustAzimuth(const Track& track) const;

    Settings settings_;
    std::vector<Track> tracks_;        // maxTracks slots, each live or free
    std::vector<TrackState> states_;  // the live tracks' states, for tracks()
    struct Remembered {
        double azimuthDegrees;
        double untilSeconds;
    };
    std::vector<Remembered> memory_;  // background directions, capacity maxTracks
    struct Ended {
        double startSeconds;
        double endSeconds;
        double confidence;
    };
    bool isEcho(const SourceEvent& event) const;
    std::vector<Ended> ended_;        // the latest events, a ring of kEndedKept
    std::size_t nextEnded_ = 0;
    static constexpr std::size_t kEndedKept = 16;
    std::vector<char> assigned_;      // [observation]

    std::int64_t nextId_ = 0;
};

}  // namespace isochron
