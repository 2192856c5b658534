#include "ui/plots/display_spectrum.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <new>

#include "nodes/spectral/fft_plan_cache.h"
#include "nodes/spectral/window_functions.h"

namespace isochron::ui {

namespace {

// FFTW's plans want SIMD-aligned arrays; 64 bytes covers every instruction set.
constexpr std::align_val_t kAlignment{64};

template <class T>
struct AlignedDelete {
    void operator()(T* p) const { ::operator delete[](p, kAlignment); }
};
template <class T>
using AlignedArray = std::unique_ptr<T[], AlignedDelete<T>>;

template <class T>
AlignedArray<T> alignedArray(std::size_t count) {
    return AlignedArray<T>(static_cast<T*>(::operator new[](count * sizeof(T), kAlignment)));
}

}  // namespace

struct DisplaySpectrum::Buffers {
    std::size_t size = 0;
    std::vector<float> window;
    AlignedArray<float> input;
    AlignedArray<std::complex<float>> output;
};

DisplaySpectrum::DisplaySpectrum() : buffers_(std::make_unique<Buffers>()) {}
DisplaySpectrum::~DisplaySpectrum() = default;

void DisplaySpectrum::compute(std::span<const float> samples, std::vector<float>& decibels) {
    const std::size_t n = samples.size();
    decibels.clear();
    if (n < 2) return;
    Buffers& b = *buffers_;
    if (b.size != n) {
        b.size = n;
        b.window.resize(n);
        fillWindow(WindowShape::Hann, b.window);
        b.input = alignedArray<float>(n);
        b.output = alignedArray<std::complex<float>>(n / 2 + 1);
    }
    for (std::size_t i = 0; i < n; ++i) b.input[i] = samples[i] * b.window[i];
    const RealForwardPlan& plan = FftPlanCache::instance().realForward(static_cast<std::int64_t>(n), PlanEffort::Estimate);
    plan.execute(b.input.get(), b.output.get());
    // A sine of amplitude A on a bin gives |X| = A N / 2 times the window's mean (1/2 for Hann).
    const double toAmplitude = 4.0 / static_cast<double>(n);
    decibels.resize(n / 2 + 1);
    for (std::size_t k = 0; k <= n / 2; ++k) {
        const double amplitude = std::abs(b.output[k]) * toAmplitude;
        decibels[k] = static_cast<float>(std::max(-240.0, 20.0 * std::log10(std::max(amplitude, 1e-12))));
    }
}

SpectrumPeak findPeak(std::span<const float> decibels, double binHz) {
    if (decibels.empty()) return {};
    const std::size_t k = static_cast<std::size_t>(std::max_element(decibels.begin(), decibels.end()) - decibels.begin());
    double offset = 0;
    double peak = decibels[k];
    if (k > 0 && k + 1 < decibels.size()) {
        const double left = decibels[k - 1], right = decibels[k + 1];
        const double curvature = left - 2 * peak + right;
        if (curvature < 0) {
            offset = std::clamp(0.5 * (left - right) / curvature, -0.5, 0.5);
            peak -= 0.25 * (left - right) * offset;
        }
    }
    return {(static_cast<double>(k) + offset) * binHz, peak};
}

}  // namespace isochron::ui
