#include "nodes/filters/biquad_cascade.h"

#include <immintrin.h>

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "nodes/kernels/sum_and_squares.h"

namespace isochron::filters {
namespace {

constexpr std::size_t kGroup = 4;    // sections whose state fits in registers together
constexpr std::size_t kChunk = 512;  // samples per scratch chunk when the cascade is longer
constexpr std::size_t kLaneLength = 256;       // samples per quarter of a lane chunk
constexpr std::size_t kLaneGroup = 4;           // sections per lane pass: their 8 state vectors stay in registers

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

/// The cascade over one chunk of 4 x L samples, the four quarters side by side in the lanes of a
/// vector (see the note in the header). `Sections` <= kLaneGroup. [no allocation]
template <std::size_t Sections, class In, class Out>
__attribute__((target("avx2,fma"))) void runLanes(const BiquadCascade::LanePlan& plan, const BiquadSection* c, double* state,
                                                  double* lanes, const In* input, Out* output) {
    const std::size_t length = plan.laneLength;
    constexpr std::size_t kStates = 2 * Sections;
    // 1. Every quarter through the cascade at once: the first from the true state, the others from silence.
    __m256d s1[Sections], s2[Sections];
    for (std::size_t k = 0; k < Sections; ++k) {
        s1[k] = _mm256_setr_pd(state[2 * k], 0.0, 0.0, 0.0);
        s2[k] = _mm256_setr_pd(state[2 * k + 1], 0.0, 0.0, 0.0);
    }
    for (std::size_t n = 0; n < length; ++n) {
        __m256d v = _mm256_setr_pd(input[n], input[length + n], input[2 * length + n], input[3 * length + n]);
        for (std::size_t k = 0; k < Sections; ++k) {
            const __m256d y = _mm256_fmadd_pd(_mm256_set1_pd(c[k].b0), v, s1[k]);
            s1[k] = _mm256_fnmadd_pd(_mm256_set1_pd(c[k].a1), y, _mm256_fmadd_pd(_mm256_set1_pd(c[k].b1), v, s2[k]));
            s2[k] = _mm256_fnmadd_pd(_mm256_set1_pd(c[k].a2), y, _mm256_mul_pd(_mm256_set1_pd(c[k].b2), v));
            v = y;
        }
        _mm256_storeu_pd(lanes + 4 * n, v);
    }
    alignas(32) double ends[4][kStates];  // [quarter][state]: the state each quarter ended in
    for (std::size_t k = 0; k < Sections; ++k) {
        alignas(32) double first[4], second[4];
        _mm256_store_pd(first, s1[k]);
        _mm256_store_pd(second, s2[k]);
        for (std::size_t q = 0; q < 4; ++q) ends[q][2 * k] = first[q], ends[q][2 * k + 1] = second[q];
    }
    // 2. The true state at the start of each quarter: what it ended in from silence, plus the decay of
    // the state it really started from.
    double start[4][kStates];
    for (std::size_t m = 0; m < kStates; ++m) start[1][m] = ends[0][m];
    for (std::size_t q = 1; q < 4; ++q) {
        double* next = q < 3 ? start[q + 1] : state;
        for (std::size_t row = 0; row < kStates; ++row) {
            double sum = ends[q][row];
            for (std::size_t col = 0; col < kStates; ++col) sum += plan.transition[row * kStates + col] * start[q][col];
            next[row] = sum;
        }
    }
    // 3. Outputs: the first quarter as computed, the others plus the response to their true start state.
    for (std::size_t n = 0; n < length; ++n) output[n] = static_cast<Out>(lanes[4 * n]);
    for (std::size_t q = 1; q < 4; ++q) {
        for (std::size_t n = 0; n < length; n += 4) {
            __m256d sum = _mm256_setr_pd(lanes[4 * n + q], lanes[4 * (n + 1) + q], lanes[4 * (n + 2) + q], lanes[4 * (n + 3) + q]);
            for (std::size_t m = 0; m < kStates; ++m) {
                sum = _mm256_fmadd_pd(_mm256_set1_pd(start[q][m]), _mm256_loadu_pd(plan.stateResponse.data() + m * length + n), sum);
            }
            if constexpr (std::is_same_v<Out, float>) _mm_storeu_ps(output + q * length + n, _mm256_cvtpd_ps(sum));
            else _mm256_storeu_pd(output + q * length + n, sum);
        }
    }
}

template <class In, class Out>
__attribute__((target("avx2,fma"))) void runLaneGroup(const BiquadCascade::LanePlan& plan, const BiquadSection* c, std::size_t sections,
                                                      double* state, double* lanes, const In* input, Out* output) {
    switch (sections) {
        case 1: runLanes<1>(plan, c, state, lanes, input, output); break;
        case 2: runLanes<2>(plan, c, state, lanes, input, output); break;
        case 3: runLanes<3>(plan, c, state, lanes, input, output); break;
        default: runLanes<4>(plan, c, state, lanes, input, output); break;
    }
}

/// One chunk through every group of up to four sections (double between groups).
__attribute__((target("avx2,fma"))) void runAllLanes(const std::vector<BiquadCascade::LanePlan>& plans, const std::vector<BiquadSection>& sections,
                                                     double* state, double* lanes, double* between, const float* input, float* output) {
    const std::size_t groups = plans.size();
    if (groups == 1) {
        runLaneGroup(plans[0], sections.data(), sections.size(), state, lanes, input, output);
        return;
    }
    runLaneGroup(plans[0], sections.data(), kLaneGroup, state, lanes, input, between);
    for (std::size_t g = 1; g + 1 < groups; ++g) {
        runLaneGroup(plans[g], sections.data() + g * kLaneGroup, kLaneGroup, state + 2 * g * kLaneGroup, lanes, between, between);
    }
    const std::size_t first = (groups - 1) * kLaneGroup;
    runLaneGroup(plans[groups - 1], sections.data() + first, sections.size() - first, state + 2 * first, lanes, between, output);
}

/// The lane plan of `sections`: the cascade's output and end state for each unit start state and
/// no input, run sample by sample in double. [allocates]
BiquadCascade::LanePlan planLanes(const std::vector<BiquadSection>& sections) {
    BiquadCascade::LanePlan plan;
    plan.laneLength = kLaneLength;
    const std::size_t states = 2 * sections.size();
    plan.stateResponse.assign(states * kLaneLength, 0.0);
    plan.transition.assign(states * states, 0.0);
    std::vector<double> state(states);
    for (std::size_t m = 0; m < states; ++m) {
        std::fill(state.begin(), state.end(), 0.0);
        state[m] = 1.0;
        // Through the portable loop, in double all the way (runGroup keeps double between sections).
        std::vector<double> signal(kLaneLength, 0.0);
        for (std::size_t k = 0; k < sections.size(); ++k) {
            const double* in = signal.data();
            std::vector<double> out(kLaneLength);
            runGroup<1, false>(&sections[k], state.data() + 2 * k, in, out.data(), kLaneLength);
            signal = std::move(out);
        }
        std::copy(signal.begin(), signal.end(), plan.stateResponse.begin() + static_cast<std::ptrdiff_t>(m * kLaneLength));
        for (std::size_t row = 0; row < states; ++row) plan.transition[row * states + m] = state[row];
    }
    return plan;
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
    lanePlans_.clear();
    if (fused_) {
        for (std::size_t first = 0; first < sections_.size(); first += kLaneGroup) {
            const auto end = sections_.begin() + static_cast<std::ptrdiff_t>(std::min(first + kLaneGroup, sections_.size()));
            lanePlans_.push_back(planLanes({sections_.begin() + static_cast<std::ptrdiff_t>(first), end}));
        }
        lanes_.assign(4 * kLaneLength, 0.0);
        between_.assign(4 * kLaneLength, 0.0);
    }
}

void BiquadCascade::reset() { std::fill(state_.begin(), state_.end(), 0.0); }

void BiquadCascade::process(const float* input, float* output, std::size_t count) {
    if (!fused_) {
        runCascadePortable(sections_, state_.data(), scratch_.data(), input, output, count);
        return;
    }
    std::size_t done = 0;
    const std::size_t chunk = 4 * kLaneLength;
    for (; done + chunk <= count; done += chunk) {
        runAllLanes(lanePlans_, sections_, state_.data(), lanes_.data(), between_.data(), input + done, output + done);
    }
    if (done < count) runCascadeFused(sections_, state_.data(), scratch_.data(), input + done, output + done, count - done);
}

}  // namespace isochron::filters
