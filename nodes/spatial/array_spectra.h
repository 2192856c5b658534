// ArraySpectra: the payload of custom<spatial.array_spectra> items, the short-time spectra of every
// mic of an array for one analysis frame (spatial.array_stft makes them; detect.spectral_activity
// and spatial.frame_directions read them).
//
// Mic m's bins 0 .. frameSize/2 (0 Hz to Nyquist) are X_m(k) = sum_n w(n) x_m(n) e^{-2 pi i k n / N}
// of the frame's N samples under a Hann window w, unnormalized, as float. The item's range is the
// frame's samples; its value is the frame's mean power per mic and sample (window applied).
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "engine/items/custom_payload.h"
#include "engine/signal/sigseg.h"

namespace isochron {

/// One frame's spectra of every mic; immutable once emitted. [any thread]
class ArraySpectra final : public CustomPayload {
public:
    static constexpr const char* kTypeName = "spatial.array_spectra";

    /// Bins between the starts of two mics' spectra: N / 2 + 1 rounded up to 64 bytes, so that
    /// every mic's spectrum has the alignment FFTW's plans were made with. [no allocation]
    static std::int64_t micStride(std::int64_t frameSize) noexcept { return (frameSize / 2 + 1 + 7) / 8 * 8; }

    /// Takes `bins` (micCount x micStride(frameSize) values, mic-major, one contiguous piece); `producer`
    /// is the id of the node that made the frames (for messages that name its parameters).
    /// [pool allocation of the payload]
    ArraySpectra(SigSeg<std::complex<float>> bins, int micCount, std::int64_t frameSize, std::int64_t hop, double rateHz,
                 std::shared_ptr<const std::string> producer)
        : bins_(std::move(bins)), micCount_(micCount), frameSize_(frameSize), hop_(hop), rateHz_(rateHz), producer_(std::move(producer)) {
        data_ = bins_.materialize().data();
    }

    /// Mics (channels), in the geometry's order. [no allocation]
    int micCount() const noexcept { return micCount_; }
    /// Samples per frame N. [no allocation]
    std::int64_t frameSize() const noexcept { return frameSize_; }
    /// Samples between the starts of consecutive frames. [no allocation]
    std::int64_t hop() const noexcept { return hop_; }
    /// Bins per mic: N / 2 + 1. [no allocation]
    std::int64_t binCount() const noexcept { return frameSize_ / 2 + 1; }
    /// Sampling rate of the mics, in Hz. [no allocation]
    double rateHz() const noexcept { return rateHz_; }
    /// The id of the node that made the frames (its frame and hop parameters set their size). [no allocation]
    std::string_view producer() const noexcept { return producer_ ? std::string_view(*producer_) : std::string_view(); }
    /// Mic m's bins (0 <= m < micCount()). [no allocation]
    std::span<const std::complex<float>> mic(int m) const noexcept {
        return {data_ + static_cast<std::size_t>(m) * static_cast<std::size_t>(micStride(frameSize_)),
                static_cast<std::size_t>(binCount())};
    }

    std::string_view typeName() const noexcept override { return kTypeName; }
    void visitFields(CustomFieldVisitor& visitor) const override {
        visitor.number("mics", micCount_);
        visitor.number("frame_size", static_cast<double>(frameSize_));
        visitor.number("hop", static_cast<double>(hop_));
        visitor.number("rate_hz", rateHz_);
    }

private:
    SigSeg<std::complex<float>> bins_;
    const std::complex<float>* data_ = nullptr;
    int micCount_;
    std::int64_t frameSize_;
    std::int64_t hop_;
    double rateHz_;
    std::shared_ptr<const std::string> producer_;  // shared by every frame of one node: no allocation per frame
};

}  // namespace isochron
