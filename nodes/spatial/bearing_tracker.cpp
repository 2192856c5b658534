#include "nodes/spatial/bearing_tracker.h"

#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "engine/operators/operator.h"

namespace isochron {
namespace {

/// `degrees` wrapped into [-180, 180).
double wrapDegrees(double degrees) {
    const double wrapped = std::fmod(degrees + 180.0, 360.0);
    return (wrapped < 0.0 ? wrapped + 360.0 : wrapped) - 180.0;
}

/// One source's bearing: azimuth (deg) and its rate (deg/s) with their covariance.
struct Track {
    std::int64_t id = 0;
    Eigen::Vector2d state;       // azimuth_deg, rate_deg_per_s
    Eigen::Matrix2d covariance;
    TimeNs lastUpdate = 0;
};

/// A constant-velocity Kalman filter per track on the wrapped azimuth.
///
/// Each bearing is predicted against every live track (state advanced to the bearing's start time,
/// process noise of a white acceleration with spectral density process_noise); it joins the track
/// whose wrapped innovation, divided by its predicted deviation, is smallest and at most gate
/// deviations, and updates it; otherwise it starts a new track (azimuth as measured, rate 0 with
/// deviation initial_rate_deviation). Tracks not updated for max_age are dropped. The bearing goes
/// out as a new event with the input's label, range, score and attributes plus track_id,
/// track_azimuth_deg ([0, 360)) and track_rate_deg_s.
class BearingTracker final : public Operator {
protected:
    void onActivate() override {
        measurementVariance_ = std::pow(params().getReal("measurement_deviation"), 2.0);
        processNoise_ = params().getReal("process_noise");
        gate_ = params().getReal("gate");
        maxAgeNs_ = static_cast<TimeNs>(params().getReal("max_age") * 1e9);
        initialRateVariance_ = std::pow(params().getReal("initial_rate_deviation"), 2.0);
        tracks_.reserve(16);
    }

    void process(int, Item&& item) override {
        const EventRecord* bearing = item.event();
        const std::optional<double> azimuth = bearing->get("azimuth_deg");
        if (!azimuth) throw OperatorError("bearing event '" + std::string(bearing->label()) + "' has no azimuth_deg");
        const TimeNs now = item.range().startTime();
        std::erase_if(tracks_, [&](const Track& track) { return now - track.lastUpdate > maxAgeNs_; });

        Track* best = nullptr;
        double bestDistance = gate_;
        Eigen::Vector2d bestState;
        Eigen::Matrix2d bestCovariance;
        for (Track& track : tracks_) {
            const double dt = static_cast<double>(now - track.lastUpdate) * 1e-9;
            Eigen::Matrix2d transition;
            transition << 1.0, dt, 0.0, 1.0;
            Eigen::Matrix2d noise;
            noise << dt * dt * dt / 3.0, dt * dt / 2.0, dt * dt / 2.0, dt;
            const Eigen::Vector2d state = transition * track.state;
            const Eigen::Matrix2d covariance = transition * track.covariance * transition.transpose() + processNoise_ * noise;
            const double innovation = wrapDegrees(*azimuth - state.x());
            const double distance = std::abs(innovation) / std::sqrt(covariance(0, 0) + measurementVariance_);
            if (distance <= bestDistance) {
                best = &track;
                bestDistance = distance;
                bestState = state;
                bestCovariance = covariance;
            }
        }
        if (best) {
            const double innovation = wrapDegrees(*azimuth - bestState.x());
            const Eigen::Vector2d gain = bestCovariance.col(0) / (bestCovariance(0, 0) + measurementVariance_);
            best->state = bestState + gain * innovation;
            best->state.x() = wrapDegrees(best->state.x());
            best->covariance = (Eigen::Matrix2d::Identity() - gain * Eigen::RowVector2d(1.0, 0.0)) * bestCovariance;
            best->lastUpdate = now;
        } else {
            Track track;
            track.id = nextId_++;
            track.state = {wrapDegrees(*azimuth), 0.0};
            track.covariance << measurementVariance_, 0.0, 0.0, initialRateVariance_;
            track.lastUpdate = now;
            tracks_.push_back(track);
            best = &tracks_.back();
        }

        EventRecord* record = EventRecord::create(bearing->label());
        for (const EventAttribute& attribute : bearing->attributes()) record->set(attribute.name, attribute.value);
        record->set("track_id", static_cast<double>(best->id));
        record->set("track_azimuth_deg", best->state.x() < 0.0 ? best->state.x() + 360.0 : best->state.x());
        record->set("track_rate_deg_s", best->state.y());
        emit(0, Item::event(record, item.range(), item.value()));
    }

private:
    double measurementVariance_ = 25.0;
    double processNoise_ = 10.0;
    double gate_ = 3.0;
    TimeNs maxAgeNs_ = 5'000'000'000;
    double initialRateVariance_ = 900.0;
    std::vector<Track> tracks_;
    std::int64_t nextId_ = 0;
};

}  // namespace

OperatorDescriptor bearingTrackerDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spatial.bearing_tracker";
    d.category = "spatial";
    d.summary = "Bearings grouped into tracks, one per source: constant-velocity Kalman filter on the azimuth";
    d.documentation =
        "Each bearing (an event with azimuth_deg, e.g. from spatial.srp_phat) is compared with every live track "
        "predicted to its time by a constant angular velocity model (white acceleration of spectral density "
        "process_noise). It joins the track with the smallest wrapped innovation in predicted deviations, if at most "
        "'gate', and updates it; otherwise it starts a new track. A track not updated for max_age seconds ends. "
        "Output: the bearing with its attributes plus track_id (0, 1, ... in order of birth), track_azimuth_deg "
        "(filtered, [0, 360)) and track_rate_deg_s.";
    d.inputs = {PortSpec{"bearings", PortType::event(), "bearing events with azimuth_deg, in time order"}};
    d.outputs = {PortSpec{"tracks", PortType::event(), "the bearings with track_id, track_azimuth_deg, track_rate_deg_s"}};
    d.params = {
        ParamSpec{"measurement_deviation", ParamKind::Real, 5.0, 0.01, 180.0, "deg", "deviation of a bearing's azimuth"},
        ParamSpec{"process_noise", ParamKind::Real, 10.0, 0.0, 1e6, "deg^2/s^3",
                  "spectral density of the angular acceleration (how fast sources may turn)"},
        ParamSpec{"gate", ParamKind::Real, 3.0, 0.1, 100.0, "deviations",
                  "largest innovation, in predicted deviations, for a bearing to join a track"},
        ParamSpec{"max_age", ParamKind::Real, 5.0, 0.0, 3600.0, "s", "a track without bearings for this long ends"},
        ParamSpec{"initial_rate_deviation", ParamKind::Real, 30.0, 0.0, 3600.0, "deg/s",
                  "deviation of a new track's angular rate"},
    };
    d.create = [] { return std::make_unique<BearingTracker>(); };
    return d;
}

}  // namespace isochron
