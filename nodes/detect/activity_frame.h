// ActivityFrame: the payload of custom<detect.activity_frame> items, what detect.spectral_activity
// knows about one frame of an array: per bin the noise floor, how likely a sound is present, how much
// of the bin is sound, and how new it is; per frame the evidence that a sound is present. It keeps a
// reference to the frame's spectra, so the next stage (spatial.frame_directions) reads both.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "engine/items/custom_payload.h"
#include "engine/signal/sigseg.h"
#include "nodes/spatial/array_spectra.h"

namespace isochron {

/// One frame's activity analysis; immutable once emitted. [any thread]
class ActivityFrame final : public CustomPayload {
public:
    static constexpr const char* kTypeName = "detect.activity_frame";

    /// Per-bin quantities stored, in this order, binCount() values each.
    enum class Row { NoiseFloor, Presence, SignalWeight, Onset };
    static constexpr int kRows = 4;

    /// Keeps a reference to `spectra`; `values` holds kRows x spectra.binCount() floats (rows in Row
    /// order, one contiguous piece). Bins outside [firstBin, lastBin] hold 0. [pool allocation]
    ActivityFrame(const ArraySpectra& spectra, SigSeg<float> values, std::int64_t firstBin, std::int64_t lastBin)
        // Sharing a payload takes a reference, which does not change what it holds.
        : spectra_(const_cast<ArraySpectra*>(&spectra)), values_(std::move(values)), firstBin_(firstBin), lastBin_(lastBin) {
        spectra_->addRef();
        data_ = values_.materialize().data();
    }
    ~ActivityFrame() override { spectra_->release(); }

    /// The frame's spectra. [no allocation]
    const ArraySpectra& spectra() const noexcept { return *spectra_; }
    /// First and last bin analysed (the band). [no allocation]
    std::int64_t firstBin() const noexcept { return firstBin_; }
    std::int64_t lastBin() const noexcept { return lastBin_; }
    /// A per-bin row: NoiseFloor (noise power per mic, the unit of |X|^2), Presence (probability a sound
    /// is present, [0, 1]), SignalWeight (the share of the bin's power above the noise, with bins within
    /// the threshold of the noise set to 0, [0, 1]), Onset (1 - recent power / current power, clamped to
    /// [0, 1]: near 1 where the bin just rose, 0 in steady or decaying sound). [no allocation]
    std::span<const float> row(Row which) const noexcept {
        const auto bins = static_cast<std::size_t>(spectra_->binCount());
        return {data_ + static_cast<std::size_t>(which) * bins, bins};
    }

    double signalBins = 0.0;    ///< sum of SignalWeight over the band: how many bins hold sound
    double logSnrSum = 0.0;     ///< sum over the band of SignalWeight x ln(power / noise floor)
    double onsetWeight = 0.0;   ///< sum of SignalWeight x Onset over the band
    double bandBins = 0.0;      ///< bins in the band

    std::string_view typeName() const noexcept override { return kTypeName; }
    void visitFields(CustomFieldVisitor& visitor) const override {
        visitor.number("signal_bins", signalBins);
        visitor.number("log_snr_sum", logSnrSum);
        visitor.number("onset_weight", onsetWeight);
        visitor.number("band_bins", bandBins);
    }

private:
    ArraySpectra* spectra_;
    SigSeg<float> values_;
    const float* data_ = nullptr;
    std::int64_t firstBin_;
    std::int64_t lastBin_;
};

}  // namespace isochron
