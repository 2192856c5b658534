#include "nodes/filters/fir_convolver.h"

#include <immintrin.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "nodes/kernels/sum_and_squares.h"
#include "nodes/spectral/fft_plan_cache.h"

namespace isochron::filters {
namespace {

constexpr std::size_t kDirectChunk = 2048;      // new samples per direct-form pass over the line
constexpr std::size_t kFftThresholdTaps = 384;  // isochron-bench fir: direct wins at 256 taps (1.4x), FFT at 1024 (1.8x)

/// out[i] = sum_j taps[j] * line[i + j] for i < count. [no allocation]
void dotProductsPortable(const float* taps, std::size_t tapCount, const float* line, float* out, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        float sum = 0.0f;
        for (std::size_t j = 0; j < tapCount; ++j) sum += taps[j] * line[i + j];
        out[i] = sum;
    }
}

__attribute__((target("avx2,fma"))) void dotProductsAvx2(const float* taps, std::size_t tapCount, const float* line, float* out,
                                                          std::size_t count) {
    std::size_t i = 0;
    // 32 outputs at a time: four independent accumulators hide the FMA latency, and each tap is
    // broadcast once for all of them.
    for (; i + 32 <= count; i += 32) {
        __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps(), acc2 = _mm256_setzero_ps(), acc3 = _mm256_setzero_ps();
        const float* at = line + i;
        for (std::size_t j = 0; j < tapCount; ++j, ++at) {
            const __m256 h = _mm256_broadcast_ss(taps + j);
            acc0 = _mm256_fmadd_ps(h, _mm256_loadu_ps(at), acc0);
            acc1 = _mm256_fmadd_ps(h, _mm256_loadu_ps(at + 8), acc1);
            acc2 = _mm256_fmadd_ps(h, _mm256_loadu_ps(at + 16), acc2);
            acc3 = _mm256_fmadd_ps(h, _mm256_loadu_ps(at + 24), acc3);
        }
        _mm256_storeu_ps(out + i, acc0);
        _mm256_storeu_ps(out + i + 8, acc1);
        _mm256_storeu_ps(out + i + 16, acc2);
        _mm256_storeu_ps(out + i + 24, acc3);
    }
    for (; i + 8 <= count; i += 8) {
        __m256 acc = _mm256_setzero_ps();
        for (std::size_t j = 0; j < tapCount; ++j) acc = _mm256_fmadd_ps(_mm256_broadcast_ss(taps + j), _mm256_loadu_ps(line + i + j), acc);
        _mm256_storeu_ps(out + i, acc);
    }
    for (; i < count; ++i) {
        float sum = 0.0f;
        for (std::size_t j = 0; j < tapCount; ++j) sum = __builtin_fmaf(taps[j], line[i + j], sum);
        out[i] = sum;
    }
}

std::size_t nextPowerOfTwo(std::size_t n) {
    std::size_t p = 1;
    while (p < n) p *= 2;
    return p;
}

}  // namespace

void FirConvolver::AlignedFree::operator()(void* p) const { std::free(p); }

template <class T> FirConvolver::AlignedArray<T> FirConvolver::alignedArray(std::size_t count) {
    const std::size_t bytes = (count * sizeof(T) + 63) / 64 * 64;
    void* memory = std::aligned_alloc(64, bytes);
    if (!memory) throw std::bad_alloc();
    std::memset(memory, 0, bytes);
    return AlignedArray<T>(static_cast<T*>(memory));
}

FirConvolver::FirConvolver() = default;
FirConvolver::~FirConvolver() = default;
FirConvolver::FirConvolver(FirConvolver&&) noexcept = default;
FirConvolver& FirConvolver::operator=(FirConvolver&&) noexcept = default;

ConvolutionMethod FirConvolver::preferredMethod(std::size_t taps) {
    return taps > kFftThresholdTaps ? ConvolutionMethod::Fft : ConvolutionMethod::Direct;
}

void FirConvolver::setTaps(std::span<const double> taps, ConvolutionMethod method) {
    if (taps.empty()) throw std::invalid_argument("an FIR needs at least one tap");
    const bool keepHistory = method == method_ && taps.size() == reversed_.size();
    method_ = method;
    reversed_.assign(taps.rbegin(), taps.rend());
    const std::size_t tapCount = taps.size();
    if (method == ConvolutionMethod::Direct) {
        if (!keepHistory) line_.assign(tapCount - 1 + kDirectChunk, 0.0f);
        return;
    }
    if (!keepHistory) {
        largestSize_ = std::max<std::size_t>(nextPowerOfTwo(8 * tapCount), 1024);
        history_.assign(tapCount - 1, 0.0f);
        time_ = alignedArray<float>(largestSize_);
        result_ = alignedArray<float>(largestSize_);
        spectrum_ = alignedArray<std::complex<float>>(largestSize_ / 2 + 1);
    }
    taps_.assign(taps.begin(), taps.end());
    transforms_.clear();
    transformFor(largestSize_);
}

const FirConvolver::Transform& FirConvolver::transformFor(std::size_t size) {
    for (const Transform& t : transforms_) {
        if (t.size == size) return t;
    }
    Transform t;
    t.size = size;
    auto& plans = FftPlanCache::instance();
    t.forward = &plans.realForward(static_cast<std::int64_t>(size), PlanEffort::Estimate);
    t.inverse = &plans.realInverse(static_cast<std::int64_t>(size), PlanEffort::Estimate);
    const std::size_t bins = size / 2 + 1;
    t.tapSpectrum = alignedArray<std::complex<float>>(bins);
    std::fill(time_.get(), time_.get() + size, 0.0f);
    for (std::size_t k = 0; k < taps_.size(); ++k) time_[k] = static_cast<float>(taps_[k]);
    t.forward->execute(time_.get(), t.tapSpectrum.get());
    const float normalization = 1.0f / static_cast<float>(size);
    for (std::size_t k = 0; k < bins; ++k) t.tapSpectrum[k] *= normalization;
    transforms_.push_back(std::move(t));
    return transforms_.back();
}

void FirConvolver::reset() {
    std::fill(line_.begin(), line_.end(), 0.0f);
    std::fill(history_.begin(), history_.end(), 0.0f);
}

void FirConvolver::process(const float* input, float* output, std::size_t count) {
    if (method_ == ConvolutionMethod::Direct) processDirect(input, output, count);
    else processFft(input, output, count);
}

void FirConvolver::processDirect(const float* input, float* output, std::size_t count) {
    static const bool avx2 = kernels::bestKernelPath() == kernels::KernelPath::Avx2Fma;
    const std::size_t keep = reversed_.size() - 1;
    for (std::size_t done = 0; done < count;) {
        const std::size_t n = std::min(kDirectChunk, count - done);
        std::memcpy(line_.data() + keep, input + done, n * sizeof(float));
        if (avx2) dotProductsAvx2(reversed_.data(), reversed_.size(), line_.data(), output + done, n);
        else dotProductsPortable(reversed_.data(), reversed_.size(), line_.data(), output + done, n);
        std::memmove(line_.data(), line_.data() + n, keep * sizeof(float));
        done += n;
    }
}

void FirConvolver::processFft(const float* input, float* output, std::size_t count) {
    const std::size_t keep = history_.size();
    for (std::size_t done = 0; done < count;) {
        const std::size_t n = std::min(largestSize_ - keep, count - done);
        const Transform& transform = transformFor(std::max<std::size_t>(nextPowerOfTwo(keep + n), 64));
        const std::size_t bins = transform.size / 2 + 1;
        float* time = time_.get();
        std::memcpy(time, history_.data(), keep * sizeof(float));
        std::memcpy(time + keep, input + done, n * sizeof(float));
        std::memset(time + keep + n, 0, (transform.size - keep - n) * sizeof(float));
        // The new history: the last `keep` samples of history followed by this block.
        if (n >= keep) {
            std::memcpy(history_.data(), input + done + n - keep, keep * sizeof(float));
        } else {
            std::memmove(history_.data(), history_.data() + n, (keep - n) * sizeof(float));
            std::memcpy(history_.data() + keep - n, input + done, n * sizeof(float));
        }
        transform.forward->execute(time, spectrum_.get());
        for (std::size_t k = 0; k < bins; ++k) {  // written out: std::complex's operator* checks for NaN per bin
            const std::complex<float> x = spectrum_[k], h = transform.tapSpectrum[k];
            spectrum_[k] = {x.real() * h.real() - x.imag() * h.imag(), x.real() * h.imag() + x.imag() * h.real()};
        }
        transform.inverse->execute(spectrum_.get(), result_.get());
        std::memcpy(output + done, result_.get() + keep, n * sizeof(float));
        done += n;
    }
}

}  // namespace isochron::filters
