// The spectrum a probe shows: the newest samples of a wire, windowed and transformed once per
// redraw. Computing it for display rather than for every window of the stream keeps its cost at
// one transform per frame, whatever the wire's rate. No Qt.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace isochron::ui {

/// The strongest bin of a spectrum, refined between bins. [value type]
struct SpectrumPeak {
    double frequencyHz = 0;
    double decibels = 0;
};

/// Magnitude spectra for display. [one thread at a time]
class DisplaySpectrum {
public:
    DisplaySpectrum();
    ~DisplaySpectrum();
    DisplaySpectrum(const DisplaySpectrum&) = delete;
    DisplaySpectrum& operator=(const DisplaySpectrum&) = delete;

    /// Single-sided amplitude spectrum of `samples` (N >= 2 values) under a periodic Hann window, in
    /// dB relative to amplitude 1: a sine of amplitude A centred on a bin reads 20 log10(A) there.
    /// `decibels` gets N/2 + 1 values from 0 Hz to half the rate, floored at -240 dB. Uses FFTW's
    /// plan for N from the process's plan cache. [allocates when N changes]
    void compute(std::span<const float> samples, std::vector<float>& decibels);

private:
    struct Buffers;
    std::unique_ptr<Buffers> buffers_;
};

/// The strongest bin of `decibels` (bins `binHz` apart), its frequency refined by a parabola
/// through the peak's dB value and its neighbours' (within half a bin). Empty input: {0, 0}.
SpectrumPeak findPeak(std::span<const float> decibels, double binHz);

}  // namespace isochron::ui
