#include "nodes/filters/biquad_cascade.h"

#include <immintrin.h>

#include <algorithm>
#include <stdexcept>

#include "nodes/kernels/sum_and_squares.h"

namespace isochron::filters {
namespace {

constexpr std::size_t kGroup = 4;    // sections whose state fits in registers together
constexpr std::size_t kChunk = 512;  // samples per scratch chunk when the cascade is longer
// Blocks win while the chain through the sections of one block is short (isochron-bench biquad:
// 1.4x at one section, 1.25x at two, slower from four on).
constexpr std::size_t kMostBlockSections = 2;

template <bool Fused>
[[gnu::always_inline]] inline double multiplyAdd(double a, double b, double c) {
    if constexpr (Fused) return __builtin_fma(a, b, c);
    else return a * b + c;
}

/// `Sections` sections over `count` samples; coefficients and state in locals for the whole run.
template <std::size_t Sections, bool Fused, class In, class Out>
[[gnu::always_inline]] inline void runGroup(const BiquadSection* c, double* state, const In* input, Out* output, std::size_t count) {
    double b0[Sections], b1[Sections], b2[Sections], a1[Sections], a2[Sections], s1[Sections], s2[Sections];
    for (std::size_t k = 0; k < Sections; ++k) {
        b0[k] = c[k].b0, b1[k] = c[k].b1, b2[k] = c[k].b2, a1[k] = -c[k].a1, a2[k] = -c[k].a2;
        s1[k] = state[2 * k], s2[k] = state[2 * k + 1];
    }
    for (std::size_t i = 0; i < count; ++i) {
        double v = static_cast<double>(input[i]);
        for (std::size_t k = 0; k < Sections; ++k) {
            const double y = multiplyAdd<Fused>(b0[k], v, s1[k]);
            s1[k] = multiplyAdd<Fused>(a1[k], y, multiplyAdd<Fused>(b1[k], v, s2[k]));
            s2[k] = multiplyAdd<Fused>(a2[k], y, b2[k] * v);
            v = y;
        }
        output[i] = static_cast<Out>(v);
    }
    for (std::size_t k = 0; k < Sections; ++k) state[2 * k] = s1[k], state[2 * k + 1] = s2[k];
}

template <bool Fused, class In, class Out>
[[gnu::always_inline]] inline void runAnyGroup(std::size_t sections, const BiquadSection* c, double* state, const In* input, Out* output,
                                               std::size_t count) {
    switch (sections) {
        case 1: runGroup<1, Fused>(c, state, input, output, count); break;
        case 2: runGroup<2, Fused>(c, state, input, output, count); break;
        case 3: runGroup<3, Fused>(c, state, input, output, count); break;
        default: runGroup<4, Fused>(c, state, input, output, count); break;
    }
}

template <bool Fused>
[[gnu::always_inline]] inline void runCascade(const std::vector<BiquadSection>& sections, double* state, double* scratch,
                                              const float* input, float* output, std::size_t count) {
    const std::size_t total = sections.size();
    if (total <= kGroup) {
        runAnyGroup<Fused>(total, sections.data(), state, input, output, count);
        return;
    }
    for (std::size_t done = 0; done < count; done += kChunk) {
        const std::size_t n = std::min(kChunk, count - done);
        runGroup<kGroup, Fused>(sections.data(), state, input + done, scratch, n);
        std::size_t first = kGroup;
        for (; total - first > kGroup; first += kGroup) runGroup<kGroup, Fused>(sections.data() + first, state + 2 * first, scratch, scratch, n);
        runAnyGroup<Fused>(total - first, sections.data() + first, state + 2 * first, scratch, output + done, n);
    }
}

BiquadCascade::BlockSection prepareBlock(const BiquadSection& c) {
    BiquadCascade::BlockSection block{};
    // Responses of the section run sample by sample: to a unit impulse, and to each unit state.
    const auto respond = [&](double x0, double s1, double s2, double* y) {
        for (int i = 0; i < 4; ++i) {
            const double x = i == 0 ? x0 : 0.0;
            y[i] = c.b0 * x + s1;
            s1 = c.b1 * x - c.a1 * y[i] + s2;
            s2 = c.b2 * x - c.a2 * y[i];
        }
    };
    double impulse[4];
    respond(1.0, 0.0, 0.0, impulse);
    for (int k = 0; k < 4; ++k) {
        for (int i = 0; i < 4; ++i) block.columns[k][i] = i >= k ? impulse[i - k] : 0.0;
    }
    respond(0.0, 1.0, 0.0, block.stateResponse[0]);
    respond(0.0, 0.0, 1.0, block.stateResponse[1]);
    block.b1 = c.b1, block.b2 = c.b2, block.a1 = c.a1, block.a2 = c.a2;
    return block;
}

/// Blocks of four samples through every section in turn, then the remainder sample by sample.
__attribute__((target("avx2,fma"))) void runCascadeBlocks(const std::vector<BiquadSection>& sections, const std::vector<BiquadCascade::BlockSection>& blocks,
                                                          double* state, double* scratch, const float* input, float* output, std::size_t count) {
    const std::size_t total = sections.size();
    std::size_t i = 0;
    alignas(32) double x[4];
    alignas(32) double y[4];
    for (; i + 4 <= count; i += 4) {
        _mm256_store_pd(x, _mm256_cvtps_pd(_mm_loadu_ps(input + i)));
        for (std::size_t k = 0; k < total; ++k) {
            const BiquadCascade::BlockSection& b = blocks[k];
            double& s1 = state[2 * k];
            double& s2 = state[2 * k + 1];
            __m256d fromInput = _mm256_mul_pd(_mm256_loadu_pd(b.columns[0]), _mm256_broadcast_sd(x));
            __m256d more = _mm256_mul_pd(_mm256_loadu_pd(b.columns[1]), _mm256_broadcast_sd(x + 1));
            fromInput = _mm256_fmadd_pd(_mm256_loadu_pd(b.columns[2]), _mm256_broadcast_sd(x + 2), fromInput);
            more = _mm256_fmadd_pd(_mm256_loadu_pd(b.columns[3]), _mm256_broadcast_sd(x + 3), more);
            __m256d result = _mm256_add_pd(fromInput, more);
            result = _mm256_fmadd_pd(_mm256_loadu_pd(b.stateResponse[0]), _mm256_set1_pd(s1), result);
            result = _mm256_fmadd_pd(_mm256_loadu_pd(b.stateResponse[1]), _mm256_set1_pd(s2), result);
            _mm256_store_pd(y, result);
            const double fromX = b.b1 * x[3] + b.b2 * x[2];
            s1 = __builtin_fma(-b.a1, y[3], __builtin_fma(-b.a2, y[2], fromX));
            s2 = __builtin_fma(-b.a2, y[3], b.b2 * x[3]);
            _mm256_store_pd(x, result);
        }
        _mm_storeu_ps(output + i, _mm256_cvtpd_ps(_mm256_load_pd(x)));
    }
    if (i < count) runCascade<true>(sections, state, scratch, input + i, output + i, count - i);
}

__attribute__((target("avx2,fma"))) void runCascadeFused(const std::vector<BiquadSection>& sections, double* state, double* scratch,
                                                          const float* input, float* output, std::size_t count) {
    runCascade<true>(sections, state, scratch, input, output, count);
}

void runCascadePortable(const std::vector<BiquadSection>& sections, double* state, double* scratch, const float* input, float* output,
                        std::size_t count) {
    runCascade<false>(sections, state, scratch, input, output, count);
}

}  // namespace

void BiquadCascade::setSections(std::span<const BiquadSection> sections) {
    if (sections.empty()) throw std::invalid_argument("a cascade needs at least one section");
    const bool keepState = sections.size() == sections_.size();
    sections_.assign(sections.begin(), sections.end());
    if (!keepState) state_.assign(2 * sections_.size(), 0.0);
    scratch_.resize(kChunk);
    fused_ = kernels::bestKernelPath() == kernels::KernelPath::Avx2Fma;
    blocks_.clear();
    if (fused_ && sections_.size() <= kMostBlockSections) {
        for (const BiquadSection& section : sections_) blocks_.push_back(prepareBlock(section));
    }
}

void BiquadCascade::reset() { std::fill(state_.begin(), state_.end(), 0.0); }

void BiquadCascade::process(const float* input, float* output, std::size_t count) {
    if (!fused_) runCascadePortable(sections_, state_.data(), scratch_.data(), input, output, count);
    else if (blocks_.empty()) runCascadeFused(sections_, state_.data(), scratch_.data(), input, output, count);
    else runCascadeBlocks(sections_, blocks_, state_.data(), scratch_.data(), input, output, count);
}

}  // namespace isochron::filters
