#include "nodes/level/onset_detector.h"

#include <cmath>

#include "engine/operators/operator.h"
#include "nodes/level/ballistics.h"

namespace isochron {
namespace {

/// Time constants of the two envelopes the detector compares: the fast one follows a new sound
/// within a millisecond, the slow one is the level of what came before.
constexpr double kFastAttackSeconds = 0.0005;
constexpr double kFastReleaseSeconds = 0.02;
constexpr double kSlowAttackSeconds = 0.1;
constexpr double kSlowReleaseSeconds = 0.3;

/// An onset at sample i when the fast envelope exceeds the slow one by rise_db, is above min_level_db
/// and at least min_gap seconds have passed since the previous onset.
class OnsetDetector final : public Operator {
protected:
    void onActivate() override {
        rise_ = std::pow(10.0, params().getReal("rise_db") / 20.0);
        minLevel_ = std::pow(10.0, params().getReal("min_level_db") / 20.0);
    }

    void process(int, Item&& item) override {
        const auto in = item.takeSignal<float>();
        const Timebase* timebase = in.timebase();
        if (!configured_) {
            const double rate = timebase->rateHz();
            fast_.configure(kFastAttackSeconds, kFastReleaseSeconds, rate);
            slow_.configure(kSlowAttackSeconds, kSlowReleaseSeconds, rate);
            minGap_ = static_cast<std::int64_t>(std::llround(params().getReal("min_gap") * rate));
            configured_ = true;
        }
        std::int64_t index = in.startIndex();
        in.forEachSpan([&](std::span<const float> run) {
            for (float x : run) {
                const double magnitude = std::fabs(static_cast<double>(x));
                const double fast = fast_.follow(magnitude);
                // The slow envelope compares against what was there before the sample.
                const double before = slow_.value();
                slow_.follow(magnitude);
                if (fast > minLevel_ && fast > rise_ * before && (!anyOnset_ || index - lastOnset_ >= minGap_)) {
                    EventRecord* onset = EventRecord::create("onset");
                    const double riseDb = before > 0.0 ? 20.0 * std::log10(fast / before) : 200.0;
                    onset->set("rise_db", riseDb);
                    onset->set("level_db", 20.0 * std::log10(fast));
                    emit(0, Item::event(onset, SampleRange{timebase, index, 1}, riseDb));
                    lastOnset_ = index;
                    anyOnset_ = true;
                }
                ++index;
            }
        });
    }

private:
    Ballistics fast_;
    Ballistics slow_;
    double rise_ = 3.16;
    double minLevel_ = 0.001;
    std::int64_t minGap_ = 0;
    std::int64_t lastOnset_ = 0;
    bool anyOnset_ = false;
    bool configured_ = false;
};

}  // namespace

OperatorDescriptor onsetDetectorDescriptor() {
    OperatorDescriptor d;
    d.typeName = "level.onset_detector";
    d.category = "level";
    d.summary = "Events where the level jumps (a fast envelope above a slow one)";
    d.documentation =
        "Two peak envelopes of |x|: a fast one (attack 0.5 ms, release 20 ms) and a slow one (attack 100 ms, release 300 ms). "
        "An onset is the first sample where the fast envelope exceeds the slow one (as it was before that sample) by rise_db "
        "and min_level_db, at least min_gap after the previous onset. Each is an event \"onset\" over that one sample with "
        "attributes rise_db and level_db (dBFS); its score is rise_db (200 when it rises out of digital silence).";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "samples (full scale = 1)"}};
    d.outputs = {PortSpec{"onsets", PortType::event(), "one event per onset"}};
    d.params = {
        ParamSpec{"rise_db", ParamKind::Real, 10.0, 0.1, 100.0, "dB", "how far the fast envelope must rise above the slow one"},
        ParamSpec{"min_level_db", ParamKind::Real, -50.0, -200.0, 0.0, "dBFS", "quieter sounds are not onsets"},
        ParamSpec{"min_gap", ParamKind::Real, 0.1, 0.0, 60.0, "s", "shortest time between two onsets"},
    };
    d.create = [] { return std::make_unique<OnsetDetector>(); };
    return d;
}

}  // namespace isochron
