#include "nodes/detect/spectral_activity.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/detect/activity_frame.h"
#include "nodes/detect/noise_floor_tracker.h"

namespace isochron {
namespace {

/// Per frame: the power per bin averaged over the mics, its noise floor (NoiseFloorTracker) and
/// from them the per-bin presence, signal weight and onset of an ActivityFrame.
///
/// signal weight(k) = max(0, 1 - threshold / snr(k)), snr(k) = power(k) / floor(k): the Wiener-like
/// share of sound in the bin, 0 within `snr_threshold_db` of the floor, so bins of noise add nothing.
/// onset(k) = max(0, 1 - recent(k) / power(k)), recent = the power averaged over the previous
/// `onset_seconds`: near 1 where the bin just rose (the direct sound, before reflections pile up).
class SpectralActivity final : public Operator {
protected:
    void onActivate() override {
        bandLowHz_ = params().getReal("band_low_hz");
        bandHighHz_ = params().getReal("band_high_hz");
        if (bandHighHz_ >= 0.0 && bandLowHz_ > bandHighHz_) {
            throw OperatorError("band_low_hz " + std::to_string(bandLowHz_) + " is above band_high_hz " + std::to_string(bandHighHz_));
        }
        snrThreshold_ = std::pow(10.0, params().getReal("snr_threshold_db") / 10.0);
        tracker_.reset();
        frameSize_ = 0;
    }

    void process(int, Item&& item) override {
        const auto* spectra = item.customAs<ArraySpectra>();
        if (!spectra) throw OperatorError("expected spatial.array_spectra items");
        const SampleRange range = item.range();
        if (spectra->frameSize() != frameSize_ || spectra->hop() != hop_ || range.timebase != timebase_) prepare(*spectra, range);

        const auto bins = static_cast<std::size_t>(spectra->binCount());
        const auto first = static_cast<std::size_t>(firstBin_);
        const auto count = static_cast<std::size_t>(lastBin_ - firstBin_ + 1);
        std::fill(power_.begin(), power_.end(), 0.0f);
        for (int m = 0; m < spectra->micCount(); ++m) {
            const auto mic = spectra->mic(m);
            for (std::size_t i = 0; i < count; ++i) power_[i] += std::norm(mic[first + i]);
        }
        const float perMic = 1.0f / static_cast<float>(spectra->micCount());
        for (float& p : power_) p *= perMic;
        tracker_->update(power_);

        auto values = SigSeg<float>::allocate(static_cast<std::int64_t>(bins) * ActivityFrame::kRows, 0, nullptr);
        std::span<float> out = values.writable();
        std::fill(out.begin(), out.end(), 0.0f);
        float* floorRow = out.data() + static_cast<std::size_t>(ActivityFrame::Row::NoiseFloor) * bins + first;
        float* presenceRow = out.data() + static_cast<std::size_t>(ActivityFrame::Row::Presence) * bins + first;
        float* weightRow = out.data() + static_cast<std::size_t>(ActivityFrame::Row::SignalWeight) * bins + first;
        float* onsetRow = out.data() + static_cast<std::size_t>(ActivityFrame::Row::Onset) * bins + first;
        const auto floor = tracker_->floor();
        const auto presence = tracker_->presence();
        const auto threshold = static_cast<float>(snrThreshold_);
        const auto recentWeight = static_cast<float>(recentSmoothing_);
        double signalBins = 0.0, logSnrSum = 0.0, onsetWeight = 0.0;
        for (std::size_t i = 0; i < count; ++i) {
            const float p = power_[i];
            const float noise = std::max(floor[i], 1e-30f);
            const float snr = p / noise;
            const float weight = snr > threshold ? 1.0f - threshold / snr : 0.0f;
            const float onset = p > 0.0f ? std::clamp(1.0f - recent_[i] / p, 0.0f, 1.0f) : 0.0f;
            recent_[i] = recentWeight * recent_[i] + (1.0f - recentWeight) * p;
            floorRow[i] = floor[i];
            presenceRow[i] = presence[i];
            weightRow[i] = weight;
            onsetRow[i] = onset;
            if (weight > 0.0f) {
                signalBins += weight;
                logSnrSum += weight * std::log(snr);
                onsetWeight += weight * onset;
            }
        }
        auto* frame = new ActivityFrame(*spectra, std::move(values), firstBin_, lastBin_);
        frame->signalBins = signalBins;
        frame->logSnrSum = logSnrSum;
        frame->onsetWeight = onsetWeight;
        frame->bandBins = static_cast<double>(count);
        emit(0, Item::custom(frame, range, signalBins));
    }

private:
    /// Band and buffers for a new frame size or timebase. [allocates]
    void prepare(const ArraySpectra& spectra, const SampleRange& range) {
        frameSize_ = spectra.frameSize();
        timebase_ = range.timebase;
        const double hzPerBin = spectra.rateHz() / static_cast<double>(frameSize_);
        firstBin_ = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(bandLowHz_ / hzPerBin)));
        lastBin_ = frameSize_ / 2 - 1;
        if (bandHighHz_ >= 0.0) lastBin_ = std::min(lastBin_, static_cast<std::int64_t>(std::floor(bandHighHz_ / hzPerBin)));
        if (lastBin_ < firstBin_) {
            throw OperatorError("the band " + std::to_string(bandLowHz_) + " .. " + std::to_string(bandHighHz_) +
                                " Hz holds no bin of a " + std::to_string(frameSize_) + "-sample frame at " +
                                std::to_string(spectra.rateHz()) + " Hz");
        }
        const auto count = static_cast<std::size_t>(lastBin_ - firstBin_ + 1);
        power_.assign(count, 0.0f);
        recent_.assign(count, 0.0f);
        hop_ = spectra.hop();
        const double frameRate = spectra.rateHz() / static_cast<double>(hop_);
        NoiseFloorTracker::Settings settings;
        settings.frameRateHz = frameRate;
        settings.windowSeconds = params().getReal("noise_window");
        settings.noiseSeconds = params().getReal("noise_time_constant");
        settings.presenceRatio = std::pow(10.0, params().getReal("presence_ratio_db") / 10.0);
        try {
            tracker_.emplace(power_.size(), settings);
        } catch (const std::invalid_argument& e) {
            throw OperatorError(e.what());
        }
        recentSmoothing_ = std::exp(-1.0 / (params().getReal("onset_seconds") * frameRate));
        std::fill(recent_.begin(), recent_.end(), 0.0f);
    }

    double bandLowHz_ = 100.0;
    double bandHighHz_ = -1.0;
    double snrThreshold_ = 2.0;
    double recentSmoothing_ = 0.5;
    std::int64_t frameSize_ = 0;
    std::int64_t hop_ = 0;
    const Timebase* timebase_ = nullptr;
    std::int64_t firstBin_ = 1;
    std::int64_t lastBin_ = 1;
    std::vector<float> power_;   // [band bin]: mean power over mics, this frame
    std::vector<float> recent_;  // [band bin]: power over the previous onset_seconds
    std::optional<NoiseFloorTracker> tracker_;
};

}  // namespace

OperatorDescriptor spectralActivityDescriptor() {
    OperatorDescriptor d;
    d.typeName = "detect.spectral_activity";
    d.category = "detect";
    d.summary = "Array-wide noise floor per frequency bin and where sound is present, every frame";
    d.documentation =
        "Per frame of an array's spectra (spatial.array_stft), the power of each bin averaged over the mics feeds a "
        "noise floor tracker (minima-controlled recursive averaging: the minimum of the smoothed power over "
        "noise_window seconds decides where sound is present, the floor is the power averaged where it is not, with "
        "time constant noise_time_constant). A steady background (a fan, hum, wind noise) becomes part of the floor. "
        "Out: per bin the floor, the presence probability, the signal weight max(0, 1 - T / snr) with T = "
        "snr_threshold_db (bins of noise weigh 0) and the onset 1 - recent power / power (recent: the previous "
        "onset_seconds); per frame the sum of signal weights (the item's value), of weight x ln snr and of weight x "
        "onset. The frame's spectra travel along (spatial.frame_directions reads both).";
    d.inputs = {PortSpec{"spectra", PortType::custom(ArraySpectra::kTypeName), "frames of an array's spectra, in time order"}};
    d.outputs = {PortSpec{"activity", PortType::custom(ActivityFrame::kTypeName),
                          "per frame: noise floor, presence, signal weight and onset per bin; value = signal bins"}};
    d.params = {
        ParamSpec{"band_low_hz", ParamKind::Real, 100.0, 0.0, {}, "Hz", "lowest frequency analysed (0 Hz itself never)"},
        ParamSpec{"band_high_hz", ParamKind::Real, -1.0, -1.0, {}, "Hz", "highest frequency analysed; -1 = up to Nyquist"},
        ParamSpec{"noise_window", ParamKind::Real, 1.5, 0.1, 60.0, "s",
                  "minima are tracked over this long: a louder background is learnt after about this time"},
        ParamSpec{"noise_time_constant", ParamKind::Real, 0.15, 0.01, 60.0, "s", "averaging time of the floor where no sound is present"},
        ParamSpec{"presence_ratio_db", ParamKind::Real, 7.0, 0.5, 40.0, "dB",
                  "smoothed power this far above its minimum means sound is present"},
        ParamSpec{"snr_threshold_db", ParamKind::Real, 3.0, 0.0, 40.0, "dB", "bins less than this above the floor weigh 0"},
        ParamSpec{"onset_seconds", ParamKind::Real, 0.04, 0.005, 2.0, "s", "the recent past an onset is measured against"},
    };
    d.create = [] { return std::make_unique<SpectralActivity>(); };
    return d;
}

}  // namespace isochron
