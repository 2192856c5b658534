#include "nodes/generators/signal_generator.h"

#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>

#include "engine/operators/operator.h"
#include "engine/runtime/engine.h"
#include "nodes/io/block_pacer.h"

namespace isochron {
namespace {

enum class Waveform { Sine, Noise, Chirp, Clicks };

constexpr std::uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ull;  // splitmix64's counter step

/// splitmix64's output function: a bijective, well-mixing map of 64 bits.
std::uint64_t mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/// Standard normal number `index` of the sequence keyed by `key`: Box-Muller on two counter-based
/// uniforms, so noise sample n depends on the seed and n only (any block size, any gap).
double gaussianAt(std::uint64_t key, std::int64_t index) {
    const std::uint64_t counter = key + 2 * static_cast<std::uint64_t>(index) * kGoldenGamma;
    const double u1 = static_cast<double>((mix64(counter + kGoldenGamma) >> 11) + 1) * 0x1p-53;  // (0, 1]
    const double u2 = static_cast<double>(mix64(counter + 2 * kGoldenGamma) >> 11) * 0x1p-53;     // [0, 1)
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

/// Emits blocks of a waveform computed from each sample's index in double precision. A live
/// frequency change keeps the phase continuous at the next block (it shifts the phase offset).
class SignalGenerator final : public Operator {
protected:
    void onActivate() override {
        const std::string& waveform = params().getString("waveform");
        waveform_ = waveform == "noise" ? Waveform::Noise
                  : waveform == "chirp" ? Waveform::Chirp
                  : waveform == "clicks" ? Waveform::Clicks
                                         : Waveform::Sine;
        rateHz_ = params().getReal("rate");
        timebase_ = &Timebase::get(rateHz_, 0, Clock::media());
        frequencyHz_ = params().getReal("frequency");
        endFrequencyHz_ = params().getReal("end_frequency");
        amplitude_ = params().getReal("amplitude");
        durationSeconds_ = params().getReal("duration");
        if (waveform_ == Waveform::Chirp && durationSeconds_ == 0) {
            throw OperatorError("a chirp needs a duration > 0: it sweeps from frequency to end_frequency over it");
        }
        noiseKey_ = mix64(static_cast<std::uint64_t>(params().getInt("seed")));
        clickPeriodSamples_ = params().getReal("click_interval") * rateHz_;
        phaseOffsetCycles_ = 0;

        BlockPacerSettings settings = pacingSettingsFrom(params());
        settings.rateHz = rateHz_;
        settings.blockLength = params().getInt("block");
        const double totalSamples = std::round(durationSeconds_ * rateHz_);
        settings.totalLength = durationSeconds_ == 0 || totalSamples >= kEndlessSamples ? BlockPacerSettings::kForever
                                                                            : static_cast<std::int64_t>(totalSamples);
        pacer_.configure(settings);
    }

    bool followsWallClock() const override { return pacer_.paced(); }

    SourceStatus onProduce() override {
        const std::int64_t dropped = pacer_.beginRound(productionBudget(), pacer_.paced() ? wallClockNs() : 0);
        if (dropped > 0) {
            warn("fell more than max_lag behind the pace: dropped " + std::to_string(dropped) + " samples");
        }
        while (!pacer_.roundOver() && admissionOpen()) {
            auto block = pacer_.nextBlock();
            if (!block) break;
            SigSeg<float> samples = SigSeg<float>::allocate(block->length, block->start, timebase_);
            std::span<float> out = samples.writable();
            for (std::int64_t i = 0; i < block->length; ++i) {
                out[static_cast<std::size_t>(i)] = static_cast<float>(amplitude_ * shapeAt(block->start + i));
            }
            Item item = Item::signal(std::move(samples));
            item.setArrivalNs(block->arrivalNs);
            emit(0, std::move(item));
            if (block->progressDue) emitProgress(timebase_->timeOf(block->end()));
        }
        return pacer_.endRound();
    }

    void onParameterChanged(std::string_view name) override {
        if (name == "pace") {
            pacer_.changePace(params().getReal("pace"));
        } else if (name == "amplitude") {
            amplitude_ = params().getReal("amplitude");
        } else if (name == "frequency") {
            const std::int64_t next = pacer_.position();
            const double before = cyclesAt(next);
            frequencyHz_ = params().getReal("frequency");
            phaseOffsetCycles_ += before - cyclesAt(next);
            phaseOffsetCycles_ -= std::floor(phaseOffsetCycles_);
        }
    }

private:
    /// Sample n of the waveform at amplitude 1.
    double shapeAt(std::int64_t n) const {
        switch (waveform_) {
            case Waveform::Sine:
            case Waveform::Chirp: {
                const double cycles = cyclesAt(n);
                return std::sin(2.0 * std::numbers::pi * (cycles - std::floor(cycles)));
            }
            case Waveform::Noise:
                return gaussianAt(noiseKey_, n);
            case Waveform::Clicks:
                return isClick(n) ? 1.0 : 0.0;
        }
        return 0.0;
    }

    /// Phase of sample n in cycles: the integral of the instantaneous frequency, plus the offset.
    double cyclesAt(std::int64_t n) const {
        const double t = static_cast<double>(n) / rateHz_;
        double cycles = frequencyHz_ * t;
        if (waveform_ == Waveform::Chirp) cycles += (endFrequencyHz_ - frequencyHz_) * t * t / (2.0 * durationSeconds_);
        return cycles + phaseOffsetCycles_;
    }

    /// Click k is at sample round(k * period); a period below one sample clicks on every sample.
    bool isClick(std::int64_t n) const {
        const double nearest = std::nearbyint(static_cast<double>(n) / clickPeriodSamples_);
        for (double k = nearest - 1; k <= nearest + 1; ++k) {
            if (k >= 0 && std::llround(k * clickPeriodSamples_) == n) return true;
        }
        return false;
    }

    Waveform waveform_ = Waveform::Sine;
    double rateHz_ = 48000;
    const Timebase* timebase_ = nullptr;
    double frequencyHz_ = 1000;
    double endFrequencyHz_ = 8000;
    double amplitude_ = 0.5;
    double durationSeconds_ = 10;  // 0 = forever; a chirp's sweep time
    std::uint64_t noiseKey_ = 0;
    double clickPeriodSamples_ = 24000;
    double phaseOffsetCycles_ = 0;  // in [0, 1): keeps the phase continuous across frequency changes
    BlockPacer pacer_;
};

}  // namespace

OperatorDescriptor signalGeneratorDescriptor() {
    OperatorDescriptor d;
    d.typeName = "generators.signal_generator";
    d.category = "generators";
    d.summary = "Synthetic f32 signal: sine, Gaussian noise, linear chirp or clicks";
    d.documentation =
        "Sample n is computed from n (phase in double precision; noise from a counter-based generator "
        "keyed by seed), so the output does not depend on the block size. Time 0 is the first sample on "
        "the media clock. A chirp sweeps linearly from frequency to end_frequency over duration. Clicks "
        "are single samples of the given amplitude every click_interval.";
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "the generated signal"}};
    d.params = {
        ParamSpec{"waveform", ParamKind::Choice, std::string("sine"), {}, {}, "", "what to generate", {"sine", "noise", "chirp", "clicks"}},
        ParamSpec{"rate", ParamKind::Real, 48000.0, 0.001, {}, "Hz", "sample rate (> 0)"},
        ParamSpec{"frequency", ParamKind::Real, 1000.0, 0.0, {}, "Hz", "sine frequency; chirp start frequency", {}, true},
        ParamSpec{"end_frequency", ParamKind::Real, 8000.0, 0.0, {}, "Hz", "chirp frequency at the end of duration"},
        ParamSpec{"amplitude", ParamKind::Real, 0.5, 0.0, {}, "", "peak value (sine, chirp, clicks) or standard deviation (noise)", {}, true},
        ParamSpec{"duration", ParamKind::Real, 10.0, 0.0, {}, "s", "length of the signal; 0 = forever (not for chirps)"},
        ParamSpec{"block", ParamKind::Int, std::int64_t{4096}, 1.0, 16777216.0, "samples", "samples per emitted segment (1 to 2^24)"},
        ParamSpec{"seed", ParamKind::Int, std::int64_t{1}, 0.0, {}, "", "noise: the same seed gives the same noise (0 to 2^63 - 1)"},
        ParamSpec{"click_interval", ParamKind::Real, 0.5, 1e-6, {}, "s", "clicks: time between clicks"},
    };
    for (ParamSpec& spec : pacingParamSpecs()) d.params.push_back(std::move(spec));
    d.endlessBecause = [](const ParamSet& params) {
        return endlessDurationBecause(params.getReal("duration"), params.getReal("rate"), params.getReal("pace"));
    };
    d.deriveParams = [](ParamSet& params) {
        refuseUnusablePace(params);
        // Refused here, not only when the node starts, so --check says it too.
        if (params.getString("waveform") == "chirp" && params.getReal("duration") == 0) {
            throw ParameterError("duration", "a chirp needs a duration > 0: it sweeps from frequency to end_frequency over it");
        }
    };
    d.create = [] { return std::make_unique<SignalGenerator>(); };
    return d;
}

}  // namespace isochron
