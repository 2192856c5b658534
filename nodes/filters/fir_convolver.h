// FirConvolver: y[n] = sum_k h[k] x[n - k] over float samples delivered in any number of pieces,
// keeping the last taps - 1 inputs so that the output does not depend on how the input is split.
//
// Two methods with one contract. Direct form: each chunk of input is appended to the kept history
// in one contiguous line and every output is a dot product with the reversed taps, 32 outputs at a
// time in AVX2+FMA vectors (chosen at run time, a portable loop otherwise); cost grows with the taps.
// FFT (overlap-save through FFTW): the history and the new samples are transformed, multiplied by the
// taps' spectrum and transformed back, in the smallest power-of-two transform that holds both (at
// most 8 x the taps; longer input is cut into blocks); cost grows with log(taps), so it wins for long
// filters. Both emit one output per input at once (no block latency): a short input piece only makes
// the FFT method do a transform for less output.
#pragma once

#include <complex>
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace isochron {
class RealForwardPlan;
class RealInversePlan;
}  // namespace isochron

namespace isochron::filters {

/// How a FirConvolver computes.
enum class ConvolutionMethod { Direct, Fft };

/// A streaming FIR filter. [one thread] [no allocation in process()]
class FirConvolver {
public:
    FirConvolver();
    ~FirConvolver();
    FirConvolver(FirConvolver&&) noexcept;
    FirConvolver& operator=(FirConvolver&&) noexcept;

    /// The method that is faster for this many taps on this machine's kernels. [any thread]
    static ConvolutionMethod preferredMethod(std::size_t taps);

    /// Use taps h[0 ..] (h[0] multiplies the newest sample) with `method`. The history is kept when
    /// the tap count and method are unchanged (a live retune), cleared otherwise.
    /// [may allocate; plans FFTs on first use of a size]
    void setTaps(std::span<const double> taps, ConvolutionMethod method);
    /// Forget the past: the next sample is filtered as if preceded by silence. [no allocation]
    void reset();
    /// Filter `count` samples from `input` into `output` (distinct arrays). [no allocation, except
    /// the FFT method's first use of a transform size]
    void process(const float* input, float* output, std::size_t count);

private:
    struct AlignedFree {
        void operator()(void* p) const;
    };
    template <class T> using AlignedArray = std::unique_ptr<T[], AlignedFree>;
    template <class T> static AlignedArray<T> alignedArray(std::size_t count);

    void processDirect(const float* input, float* output, std::size_t count);
    void processFft(const float* input, float* output, std::size_t count);

    ConvolutionMethod method_ = ConvolutionMethod::Direct;
    std::vector<float> reversed_;      // h[taps - 1 - j]: the dot product runs forward in time
    std::vector<float> line_;          // direct: history (taps - 1) then the current chunk
    /// One transform size of the FFT method, made on first use.
    struct Transform {
        std::size_t size = 0;
        const RealForwardPlan* forward = nullptr;
        const RealInversePlan* inverse = nullptr;
        AlignedArray<std::complex<float>> tapSpectrum;  // FFT of the zero-padded taps, divided by size
    };
    const Transform& transformFor(std::size_t size);

    // FFT method
    std::size_t largestSize_ = 0;      // longer input is cut into blocks of largestSize_ - taps + 1
    std::vector<float> history_;       // the last taps - 1 inputs
    std::vector<double> taps_;
    std::vector<Transform> transforms_;
    AlignedArray<float> time_;         // largestSize_ floats
    AlignedArray<float> result_;
    AlignedArray<std::complex<float>> spectrum_;
};

}  // namespace isochron::filters
