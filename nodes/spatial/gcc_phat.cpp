#include "nodes/spatial/gcc_phat.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <vector>

#include "nodes/spatial/array_event_operator.h"
#include "nodes/spectral/fft_plan_cache.h"

namespace isochron {
namespace {

constexpr int kMaxChannels = 8;  // 7 pairs x (tdoa, peak) = 14 attributes, EventRecord's limit

/// The PHAT-weighted cross-correlation of one pair as a band-limited function of the lag,
///   r(t) = sum_k Re(G_k e^{2 pi i k t / N}),  t in samples,
/// with its first two derivatives (for Newton's method).
struct CorrelationAt {
    double value = 0.0;
    double slope = 0.0;
    double curvature = 0.0;
};

CorrelationAt evaluateCorrelation(std::span<const std::complex<double>> weighted, std::int64_t firstBin,
                                  std::int64_t fftSize, double lagSamples) {
    const double radiansPerBin = 2.0 * std::numbers::pi / static_cast<double>(fftSize);
    const std::complex<double> step = std::polar(1.0, radiansPerBin * lagSamples);
    std::complex<double> phasor = std::polar(1.0, radiansPerBin * lagSamples * static_cast<double>(firstBin));
    CorrelationAt result;
    for (std::size_t i = 0; i < weighted.size(); ++i) {
        const double frequency = radiansPerBin * static_cast<double>(firstBin + static_cast<std::int64_t>(i));
        const std::complex<double> term = weighted[i] * phasor;
        result.value += term.real();
        result.slope -= frequency * term.imag();
        result.curvature -= frequency * frequency * term.real();
        phasor *= step;
    }
    return result;
}

/// Per event: FFT of every channel zero-padded to N >= length + largest lag (so the correlation is
/// linear, not circular, over the lags searched), G = X_i conj(X_0) / |X_i conj(X_0)| within the band,
/// inverse FFT, the largest value within +-max lag, then the band-limited peak by Newton's method.
class GccPhat final : public ArrayEventOperator {
protected:
    bool geometryRequired() const override { return false; }

    void onArrayActivate() override {
        if (channelCount() < 2 || channelCount() > kMaxChannels) {
            throw OperatorError("GCC-PHAT needs 2 to " + std::to_string(kMaxChannels) + " channels (has " +
                                std::to_string(channelCount()) + "): an event holds at most 14 attributes");
        }
        bandLowHz_ = params().getReal("band_low_hz");
        bandHighHz_ = params().getReal("band_high_hz");
        const double maxDelay = params().getReal("max_delay");
        maxDelaySeconds_.assign(static_cast<std::size_t>(channelCount()), maxDelay);
        if (geometry() && maxDelay == 0.0) {
            for (int mic = 1; mic < channelCount(); ++mic) {
                const auto& mics = geometry()->mics;
                maxDelaySeconds_[static_cast<std::size_t>(mic)] =
                    (mics[static_cast<std::size_t>(mic)] - mics[0]).norm() / speedOfSound();
            }
        }
        for (int mic = 1; mic < channelCount(); ++mic) {
            tdoaNames_.push_back("tdoa_" + std::to_string(mic));
            peakNames_.push_back("peak_" + std::to_string(mic));
        }
    }

    void analyzeEvent(const SampleRange& range, std::span<const std::span<const float>> channels) override {
        const double rate = range.timebase->rateHz();
        const auto length = static_cast<std::int64_t>(channels.front().size());
        std::vector<std::int64_t>& maxLags = maxLagSamples_;
        maxLags.assign(static_cast<std::size_t>(channelCount()), 0);
        std::int64_t largestLag = 0;
        for (int mic = 1; mic < channelCount(); ++mic) {
            const double seconds = maxDelaySeconds_[static_cast<std::size_t>(mic)];
            const std::int64_t lag = seconds > 0.0 ? static_cast<std::int64_t>(std::ceil(seconds * rate)) + 1 : length / 2;
            maxLags[static_cast<std::size_t>(mic)] = lag;
            largestLag = std::max(largestLag, lag);
        }
        const std::int64_t size = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(std::max<std::int64_t>(16, length + largestLag + 2))));
        prepare(size);
        const double hzPerBin = rate / static_cast<double>(size);
        const std::int64_t firstBin = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(bandLowHz_ / hzPerBin)));
        const std::int64_t lastBin =
            bandHighHz_ < 0.0 ? size / 2 - 1 : std::min<std::int64_t>(size / 2 - 1, static_cast<std::int64_t>(std::floor(bandHighHz_ / hzPerBin)));
        if (firstBin > lastBin) {
            throw OperatorError("the band " + std::to_string(bandLowHz_) + " .. " + std::to_string(bandHighHz_) +
                                " Hz holds no FFT bin at " + std::to_string(rate) + " Hz");
        }

        for (int mic = 0; mic < channelCount(); ++mic) {
            float* input = timeScratch_.writable().data();
            const auto samples = channels[static_cast<std::size_t>(mic)];
            std::copy(samples.begin(), samples.end(), input);
            std::fill(input + length, input + size, 0.0f);
            forward_->execute(input, spectra_[static_cast<std::size_t>(mic)].writable().data());
        }

        EventRecord* record = EventRecord::create("gcc_phat");
        double peakSum = 0.0;
        const std::size_t binCount = static_cast<std::size_t>(lastBin - firstBin + 1);
        weighted_.resize(binCount);
        for (int mic = 1; mic < channelCount(); ++mic) {
            const std::complex<float>* reference = spectra_[0].writable().data();
            const std::complex<float>* other = spectra_[static_cast<std::size_t>(mic)].writable().data();
            std::complex<float>* product = productScratch_.writable().data();
            std::fill(product, product + size / 2 + 1, std::complex<float>());
            for (std::int64_t k = firstBin; k <= lastBin; ++k) {
                const std::complex<double> cross = std::complex<double>(other[k]) * std::conj(std::complex<double>(reference[k]));
                const double magnitude = std::abs(cross);
                const std::complex<double> phase = magnitude > 0.0 ? cross / magnitude : std::complex<double>();
                weighted_[static_cast<std::size_t>(k - firstBin)] = phase;
                product[k] = std::complex<float>(phase);
            }
            float* correlation = timeScratch_.writable().data();
            inverse_->execute(product, correlation);

            const std::int64_t maxLag = std::min(maxLags[static_cast<std::size_t>(mic)], size / 2 - 1);
            auto at = [&](std::int64_t lag) { return correlation[(lag + size) % size]; };
            std::int64_t best = 0;
            for (std::int64_t lag = -maxLag; lag <= maxLag; ++lag) {
                if (at(lag) > at(best)) best = lag;
            }
            const double lag = refinePeak(best, at(best - 1), at(best), at(best + 1), firstBin, size);
            const double peak = evaluateCorrelation(weighted_, firstBin, size, lag).value / static_cast<double>(binCount);
            record->set(tdoaNames_[static_cast<std::size_t>(mic - 1)], lag / rate);
            record->set(peakNames_[static_cast<std::size_t>(mic - 1)], peak);
            peakSum += peak;
        }
        emit(0, Item::event(record, range, peakSum / (channelCount() - 1)));
    }

private:
    /// The band-limited maximum near integer lag `best`: start at the parabola's vertex through the
    /// three samples, then Newton steps on r'(t) = 0, kept within one sample of `best`.
    double refinePeak(std::int64_t best, float before, float at, float after, std::int64_t firstBin,
                      std::int64_t size) const {
        const double curvature = static_cast<double>(before) - 2.0 * at + after;
        double lag = static_cast<double>(best);
        if (curvature < 0.0) lag += std::clamp(0.5 * (before - after) / curvature, -0.5, 0.5);
        for (int iteration = 0; iteration < 8; ++iteration) {
            const CorrelationAt r = evaluateCorrelation(weighted_, firstBin, size, lag);
            if (!(r.curvature < 0.0)) break;
            const double step = r.slope / r.curvature;
            lag = std::clamp(lag - step, static_cast<double>(best) - 1.0, static_cast<double>(best) + 1.0);
            if (std::abs(step) < 1e-9) break;
        }
        return lag;
    }

    /// Plans and buffers for transforms of `size` samples. [allocates only for a larger size than before]
    void prepare(std::int64_t size) {
        if (forward_ && forward_->size() == size) return;
        forward_ = &FftPlanCache::instance().realForward(size, PlanEffort::Estimate);
        inverse_ = &FftPlanCache::instance().realInverse(size, PlanEffort::Estimate);
        if (timeScratch_.length() < size) {
            timeScratch_ = SigSeg<float>::allocate(size, 0, nullptr);
            productScratch_ = SigSeg<std::complex<float>>::allocate(size / 2 + 1, 0, nullptr);
            spectra_.clear();
            for (int mic = 0; mic < channelCount(); ++mic) {
                spectra_.push_back(SigSeg<std::complex<float>>::allocate(size / 2 + 1, 0, nullptr));
            }
        }
    }

    double bandLowHz_ = 0.0;
    double bandHighHz_ = -1.0;
    std::vector<double> maxDelaySeconds_;      // [mic]: largest |TDOA| to mic 0 searched (0 = half the event)
    std::vector<std::int64_t> maxLagSamples_;  // [mic]: the same for the current event, in samples
    std::vector<std::string> tdoaNames_;       // [mic - 1]
    std::vector<std::string> peakNames_;       // [mic - 1]
    const RealForwardPlan* forward_ = nullptr;
    const RealInversePlan* inverse_ = nullptr;
    SigSeg<float> timeScratch_;                          // zero-padded samples, then the correlation
    SigSeg<std::complex<float>> productScratch_;         // PHAT-weighted cross-spectrum
    std::vector<SigSeg<std::complex<float>>> spectra_;   // [mic]
    std::vector<std::complex<double>> weighted_;         // in-band PHAT cross-spectrum, for refinement
};

}  // namespace

OperatorDescriptor gccPhatDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spatial.gcc_phat";
    d.category = "spatial";
    d.summary = "Time difference of arrival of each mic relative to mic 0 per event, by GCC-PHAT";
    d.documentation =
        "For each event (one item per mic with the same range, as segments.sync emits them), every channel is "
        "zero-padded to N >= length + largest lag and transformed; the cross-spectrum with mic 0, "
        "G = X_i conj(X_0), is divided by its magnitude (PHAT) within the band and transformed back. The largest "
        "correlation within +-max lag is refined to a fraction of a sample on the band-limited correlation "
        "r(t) = sum_k Re(G_k e^{2 pi i k t / N}) by Newton's method. Output event 'gcc_phat' over the event's "
        "range with tdoa_<i> = arrival time at mic i minus at mic 0 (seconds) and peak_<i> = r at that lag "
        "divided by the bins used (1 = the two channels are the same signal up to a delay), for i = 1 .. "
        "channels - 1; score = the mean peak. The largest lag searched is max_delay, or the distance from mic i "
        "to mic 0 over the speed of sound when a geometry is given, or half the event.";
    d.inputs = {arrayInputs()};
    d.outputs = {PortSpec{"tdoas", PortType::event(), "one event per input event: tdoa_<i> (s) and peak_<i> for i >= 1"}};
    d.params = arrayParameters(kMaxChannels, "optional array geometry (a JSON file or a preset such as square4:0.2): "
                                             "bounds each pair's lag search by the mics' distance");
    d.params.push_back(ParamSpec{"max_delay", ParamKind::Real, 0.0, 0.0, 10.0, "s",
                                 "largest |TDOA| searched; 0 = from the geometry, or half the event without one"});
    d.params.push_back(ParamSpec{"band_low_hz", ParamKind::Real, 0.0, 0.0, {}, "Hz",
                                 "lowest frequency used (0 Hz itself is never used)"});
    d.params.push_back(ParamSpec{"band_high_hz", ParamKind::Real, -1.0, -1.0, {}, "Hz",
                                 "highest frequency used; negative (-1) = up to Nyquist"});
    d.create = [] { return std::make_unique<GccPhat>(); };
    return d;
}

}  // namespace isochron
