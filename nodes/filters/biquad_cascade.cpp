#include "nodes/filters/biquad_cascade.h"

#include <algorithm>
#include <stdexcept>

#include "nodes/kernels/sum_and_squares.h"

namespace isochron::filters {
namespace {

constexpr std::size_t kGroup = 4;    // sections whose state fits in registers together
constexpr std::size_t kChunk = 512;  // samples per scratch chunk when the cascade is longer

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
}

void BiquadCascade::reset() { std::fill(state_.begin(), state_.end(), 0.0); }

void BiquadCascade::process(const float* input, float* output, std::size_t count) {
    static const bool fused = kernels::bestKernelPath() == kernels::KernelPath::Avx2Fma;
    if (fused) runCascadeFused(sections_, state_.data(), scratch_.data(), input, output, count);
    else runCascadePortable(sections_, state_.data(), scratch_.data(), input, output, count);
}

}  // namespace isochron::filters
