#include "nodes/level/noise_gate.h"

#include <cmath>

#include "engine/operators/operator.h"
#include "nodes/level/ballistics.h"

namespace isochron {
namespace {

/// Release time constant of the level detector: short enough to see a pause, long enough not to
/// follow the waveform of a low tone (20 Hz has 25 ms half-periods).
constexpr double kDetectorReleaseSeconds = 0.01;

/// A gate: the detector (|x|, instant attack) opens it above threshold_db and, after hold seconds
/// below threshold_db - hysteresis_db, closes it; the gain moves towards 1 (open) or 10^(range_db/20)
/// (closed) with the attack and release time constants.
class NoiseGate final : public Operator {
protected:
    void onActivate() override { readLevels(); }
    void onParameterChanged(std::string_view) override { readLevels(); }

    void process(int, Item&& item) override {
        const auto in = item.takeSignal<float>();
        if (!configured_) {
            const double rate = in.timebase()->rateHz();
            detector_.configure(0.0, kDetectorReleaseSeconds, rate);
            gain_.configure(params().getReal("attack"), params().getReal("release"), rate);
            gain_.reset(closedGain_);
            holdSamples_ = static_cast<std::int64_t>(std::llround(params().getReal("hold") * rate));
            configured_ = true;
        }
        auto out = SigSeg<float>::allocate(in.length(), in.startIndex(), in.timebase());
        float* next = out.writable().data();
        in.forEachSpan([&](std::span<const float> run) {
            for (float x : run) {
                const double level = detector_.follow(std::fabs(static_cast<double>(x)));
                if (level > openLevel_) {
                    open_ = true;
                    quietSamples_ = 0;
                } else if (open_ && level < closeLevel_ && ++quietSamples_ > holdSamples_) {
                    open_ = false;
                }
                *next++ = static_cast<float>(x * gain_.follow(open_ ? 1.0 : closedGain_));
            }
        });
        emit(0, Item::signal(std::move(out)));
    }

private:
    void readLevels() {
        const double threshold = params().getReal("threshold_db");
        openLevel_ = std::pow(10.0, threshold / 20.0);
        closeLevel_ = std::pow(10.0, (threshold - params().getReal("hysteresis_db")) / 20.0);
        closedGain_ = std::pow(10.0, params().getReal("range_db") / 20.0);
    }

    Ballistics detector_;
    Ballistics gain_;
    double openLevel_ = 0.0;
    double closeLevel_ = 0.0;
    double closedGain_ = 0.0;
    std::int64_t holdSamples_ = 0;
    std::int64_t quietSamples_ = 0;  // consecutive samples below the closing level while open
    bool open_ = false;
    bool configured_ = false;
};

}  // namespace

OperatorDescriptor noiseGateDescriptor() {
    OperatorDescriptor d;
    d.typeName = "level.noise_gate";
    d.category = "level";
    d.summary = "Attenuates the signal while its level is below a threshold";
    d.documentation =
        "The level is |x| with instant attack and a 10 ms release. The gate opens when it exceeds threshold_db and closes "
        "after it has stayed below threshold_db - hysteresis_db for hold seconds; the gain moves to 1 (open) or to range_db "
        "(closed) with the attack and release time constants, so it never clicks. It starts closed.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "samples (full scale = 1)"}};
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "gated samples"}};
    d.params = {
        ParamSpec{"threshold_db", ParamKind::Real, -50.0, -120.0, 0.0, "dBFS", "the gate opens above this level", {}, true},
        ParamSpec{"hysteresis_db", ParamKind::Real, 6.0, 0.0, 60.0, "dB", "it closes this far below the threshold", {}, true},
        ParamSpec{"range_db", ParamKind::Real, -80.0, -200.0, 0.0, "dB", "gain while closed", {}, true},
        ParamSpec{"hold", ParamKind::Real, 0.05, 0.0, 10.0, "s", "time below the closing level before the gate closes"},
        ParamSpec{"attack", ParamKind::Real, 0.001, 0.0, 10.0, "s", "time constant of the gain while opening"},
        ParamSpec{"release", ParamKind::Real, 0.05, 0.0, 10.0, "s", "time constant of the gain while closing"},
    };
    d.create = [] { return std::make_unique<NoiseGate>(); };
    return d;
}

}  // namespace isochron
