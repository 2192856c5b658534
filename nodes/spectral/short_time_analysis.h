// ShortTimeAnalysis: the shared body of the operators that frame a signal and transform each frame
// (spectral.stft, spectral.spectrogram): framing (StftFramer), the windowed FFT (WindowedSpectrum),
// progress and the end-of-stream flush in one place; a subclass says what each frame becomes.
#pragma once

#include <optional>

#include "engine/operators/operator.h"
#include "nodes/spectral/stft_framer.h"
#include "nodes/spectral/windowed_spectrum.h"

namespace isochron {

/// Frames its one signal input and hands each frame to frameReady(). [engine thread]
class ShortTimeAnalysis : public Operator {
protected:
    /// Reads the short-time parameters and pad_edges (short_time_parameters.h), then onAnalysisActivate().
    void onActivate() final;
    void process(int inputPort, Item&& item) final;
    TimeNs onProgress(TimeNs inputProgress) final;
    void onFinish() final;

    /// After the framing is set up. [may allocate]
    virtual void onAnalysisActivate() {}
    /// One frame's samples (a view) and its range; may emit. [no system allocation]
    virtual void frameReady(const SigSeg<float>& frame, const SampleRange& range) = 0;

    /// The windowed FFT of the node's size and window.
    WindowedSpectrum& spectrum() { return *spectrum_; }

private:
    std::optional<StftFramer> framer_;
    std::optional<WindowedSpectrum> spectrum_;
};

}  // namespace isochron
