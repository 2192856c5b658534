#include "nodes/kernels/sum_and_squares.h"

#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

// The AVX2 functions are compiled for AVX2+FMA individually; nothing else in the binary assumes them.
#define ISOCHRON_TARGET_AVX2_FMA __attribute__((target("avx2,fma")))

namespace isochron::kernels {
namespace {

using State = SumAndSquaresAccumulator::State;
constexpr std::uint32_t kVectorsPerFlush = SumAndSquaresAccumulator::kVectorsPerFlush;
constexpr std::size_t kLanes = 8;

// Move the float partial sums into the per-lane doubles, accumulator 0 to 3 in turn (the AVX2
// path's flush adds in exactly this order, lane by lane).
void flushPartials(State& s) {
    for (int accumulator = 0; accumulator < 4; ++accumulator) {
        for (std::size_t lane = 0; lane < kLanes; ++lane) {
            s.laneSums[lane] += static_cast<double>(s.partialSums[accumulator][lane]);
            s.laneSquares[lane] += static_cast<double>(s.partialSquares[accumulator][lane]);
        }
    }
    std::memset(s.partialSums, 0, sizeof(s.partialSums));
    std::memset(s.partialSquares, 0, sizeof(s.partialSquares));
    s.vectorsSinceFlush = 0;
}

// Top up the carried incomplete vector from `samples`; returns how many samples it took.
std::size_t fillCarry(State& s, const float* samples, std::size_t count) {
    std::size_t take = std::min<std::size_t>(kLanes - s.carryCount, count);
    if (take > 0) std::memcpy(s.carry + s.carryCount, samples, take * sizeof(float));
    s.carryCount += static_cast<std::uint32_t>(take);
    return take;
}

// ---- Portable path --------------------------------------------------------------------------

void addVectorPortable(State& s, const float* samples, float shift) {
    if (s.vectorsSinceFlush == kVectorsPerFlush) flushPartials(s);
    const std::uint32_t accumulator = s.vectorsSinceFlush & 3;
    float* sums = s.partialSums[accumulator];
    float* squares = s.partialSquares[accumulator];
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
        const float centered = samples[lane] - shift;
        sums[lane] += centered;
        squares[lane] += centered * centered;
    }
    ++s.vectorsSinceFlush;
}

void addPortable(State& s, const float* samples, std::size_t count, float shift) {
    if (s.carryCount > 0) {
        std::size_t taken = fillCarry(s, samples, count);
        samples += taken;
        count -= taken;
        if (s.carryCount < kLanes) return;
        addVectorPortable(s, s.carry, shift);
        s.carryCount = 0;
    }
    while (count >= kLanes) {
        if (s.vectorsSinceFlush == kVectorsPerFlush) flushPartials(s);
        if ((s.vectorsSinceFlush & 3) != 0 || count < 4 * kLanes) {
            addVectorPortable(s, samples, shift);
            samples += kLanes;
            count -= kLanes;
            continue;
        }
        // Four vectors per step into local copies of the four accumulators, which the compiler
        // keeps in vector registers of whatever width the target has.
        const std::size_t groups = std::min<std::size_t>((kVectorsPerFlush - s.vectorsSinceFlush) / 4, count / (4 * kLanes));
        float sums[4][kLanes];
        float squares[4][kLanes];
        std::memcpy(sums, s.partialSums, sizeof(sums));
        std::memcpy(squares, s.partialSquares, sizeof(squares));
        for (std::size_t g = 0; g < groups; ++g, samples += 4 * kLanes) {
            for (std::size_t accumulator = 0; accumulator < 4; ++accumulator) {
                for (std::size_t lane = 0; lane < kLanes; ++lane) {
                    const float centered = samples[accumulator * kLanes + lane] - shift;
                    sums[accumulator][lane] += centered;
                    squares[accumulator][lane] += centered * centered;
                }
            }
        }
        std::memcpy(s.partialSums, sums, sizeof(sums));
        std::memcpy(s.partialSquares, squares, sizeof(squares));
        s.vectorsSinceFlush += static_cast<std::uint32_t>(4 * groups);
        count -= 4 * kLanes * groups;
    }
    fillCarry(s, samples, count);
}

void resetPortable(State& s) { std::memset(&s, 0, sizeof(s)); }

// The sums as if the carried samples were padded to a vector with `shift` (centered to exactly 0,
// padding leaves every sum unchanged) and everything were flushed; lanes are added 0 to 7.
SumAndSquares resultPortable(const State& state, float shift) {
    State s = state;
    if (s.carryCount > 0) {
        std::fill(s.carry + s.carryCount, s.carry + kLanes, shift);
        addVectorPortable(s, s.carry, shift);
    }
    flushPartials(s);
    SumAndSquares total;
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
        total.sum += s.laneSums[lane];
        total.sumSquares += s.laneSquares[lane];
    }
    return total;
}

// ---- AVX2 + FMA path ------------------------------------------------------------------------

// The four float accumulators in registers, rotated so that sum0/square0 is always the one the
// next vector goes to: sumJ holds accumulator (vectorsSinceFlush + J) % 4.
struct Avx2Accumulators {
    __m256 sum0, sum1, sum2, sum3;
    __m256 square0, square1, square2, square3;
};

ISOCHRON_TARGET_AVX2_FMA inline Avx2Accumulators loadAccumulators(const State& s) {
    const std::uint32_t first = s.vectorsSinceFlush;
    return {_mm256_load_ps(s.partialSums[(first + 0) & 3]),    _mm256_load_ps(s.partialSums[(first + 1) & 3]),
            _mm256_load_ps(s.partialSums[(first + 2) & 3]),    _mm256_load_ps(s.partialSums[(first + 3) & 3]),
            _mm256_load_ps(s.partialSquares[(first + 0) & 3]), _mm256_load_ps(s.partialSquares[(first + 1) & 3]),
            _mm256_load_ps(s.partialSquares[(first + 2) & 3]), _mm256_load_ps(s.partialSquares[(first + 3) & 3])};
}

ISOCHRON_TARGET_AVX2_FMA inline void storeAccumulators(State& s, const Avx2Accumulators& r) {
    const std::uint32_t first = s.vectorsSinceFlush;
    _mm256_store_ps(s.partialSums[(first + 0) & 3], r.sum0);
    _mm256_store_ps(s.partialSums[(first + 1) & 3], r.sum1);
    _mm256_store_ps(s.partialSums[(first + 2) & 3], r.sum2);
    _mm256_store_ps(s.partialSums[(first + 3) & 3], r.sum3);
    _mm256_store_ps(s.partialSquares[(first + 0) & 3], r.square0);
    _mm256_store_ps(s.partialSquares[(first + 1) & 3], r.square1);
    _mm256_store_ps(s.partialSquares[(first + 2) & 3], r.square2);
    _mm256_store_ps(s.partialSquares[(first + 3) & 3], r.square3);
}

// The per-lane double totals in registers (lanes 0-3 and 4-7).
struct Avx2LaneTotals {
    __m256d sumsLow, sumsHigh, squaresLow, squaresHigh;
};

ISOCHRON_TARGET_AVX2_FMA inline Avx2LaneTotals loadLaneTotals(const State& s) {
    return {_mm256_load_pd(s.laneSums), _mm256_load_pd(s.laneSums + 4), _mm256_load_pd(s.laneSquares),
            _mm256_load_pd(s.laneSquares + 4)};
}

// Add one float accumulator into the lane totals (exact widening, then one double add per lane).
ISOCHRON_TARGET_AVX2_FMA inline void addToLaneTotals(Avx2LaneTotals& t, __m256 sums, __m256 squares) {
    t.sumsLow = _mm256_add_pd(t.sumsLow, _mm256_cvtps_pd(_mm256_castps256_ps128(sums)));
    t.sumsHigh = _mm256_add_pd(t.sumsHigh, _mm256_cvtps_pd(_mm256_extractf128_ps(sums, 1)));
    t.squaresLow = _mm256_add_pd(t.squaresLow, _mm256_cvtps_pd(_mm256_castps256_ps128(squares)));
    t.squaresHigh = _mm256_add_pd(t.squaresHigh, _mm256_cvtps_pd(_mm256_extractf128_ps(squares, 1)));
}

// flushPartials() in vector registers: same per-lane order, so the same doubles.
ISOCHRON_TARGET_AVX2_FMA void flushPartialsAvx2(State& s) {
    Avx2LaneTotals totals = loadLaneTotals(s);
    for (int accumulator = 0; accumulator < 4; ++accumulator) {
        addToLaneTotals(totals, _mm256_load_ps(s.partialSums[accumulator]), _mm256_load_ps(s.partialSquares[accumulator]));
        _mm256_store_ps(s.partialSums[accumulator], _mm256_setzero_ps());
        _mm256_store_ps(s.partialSquares[accumulator], _mm256_setzero_ps());
    }
    _mm256_store_pd(s.laneSums, totals.sumsLow);
    _mm256_store_pd(s.laneSums + 4, totals.sumsHigh);
    _mm256_store_pd(s.laneSquares, totals.squaresLow);
    _mm256_store_pd(s.laneSquares + 4, totals.squaresHigh);
    s.vectorsSinceFlush = 0;
}

ISOCHRON_TARGET_AVX2_FMA inline void flushAvx2(State& s, Avx2Accumulators& r) {
    storeAccumulators(s, r);
    flushPartialsAvx2(s);
    r = loadAccumulators(s);
}

ISOCHRON_TARGET_AVX2_FMA inline void addVectorAvx2(State& s, Avx2Accumulators& r, const float* samples, __m256 shift) {
    if (s.vectorsSinceFlush == kVectorsPerFlush) flushAvx2(s, r);
    const __m256 centered = _mm256_sub_ps(_mm256_loadu_ps(samples), shift);
    const __m256 sum = _mm256_add_ps(r.sum0, centered);
    const __m256 square = _mm256_fmadd_ps(centered, centered, r.square0);
    r.sum0 = r.sum1;
    r.sum1 = r.sum2;
    r.sum2 = r.sum3;
    r.sum3 = sum;
    r.square0 = r.square1;
    r.square1 = r.square2;
    r.square2 = r.square3;
    r.square3 = square;
    ++s.vectorsSinceFlush;
}

ISOCHRON_TARGET_AVX2_FMA void addAvx2(State& s, const float* samples, std::size_t count, float shiftValue) {
    const __m256 shift = _mm256_set1_ps(shiftValue);
    Avx2Accumulators r = loadAccumulators(s);
    if (s.carryCount > 0) {
        std::size_t taken = fillCarry(s, samples, count);
        samples += taken;
        count -= taken;
        if (s.carryCount == kLanes) {
            addVectorAvx2(s, r, s.carry, shift);
            s.carryCount = 0;
        }
    }
    while (count >= kLanes) {
        if (s.vectorsSinceFlush == kVectorsPerFlush) flushAvx2(s, r);
        if ((s.vectorsSinceFlush & 3) != 0 || count < 4 * kLanes) {
            addVectorAvx2(s, r, samples, shift);
            samples += kLanes;
            count -= kLanes;
            continue;
        }
        // Four vectors per step into the four accumulators: four independent dependency chains.
        const std::size_t groups = std::min<std::size_t>((kVectorsPerFlush - s.vectorsSinceFlush) / 4, count / (4 * kLanes));
        for (std::size_t g = 0; g < groups; ++g, samples += 4 * kLanes) {
            const __m256 c0 = _mm256_sub_ps(_mm256_loadu_ps(samples), shift);
            const __m256 c1 = _mm256_sub_ps(_mm256_loadu_ps(samples + 8), shift);
            const __m256 c2 = _mm256_sub_ps(_mm256_loadu_ps(samples + 16), shift);
            const __m256 c3 = _mm256_sub_ps(_mm256_loadu_ps(samples + 24), shift);
            r.sum0 = _mm256_add_ps(r.sum0, c0);
            r.sum1 = _mm256_add_ps(r.sum1, c1);
            r.sum2 = _mm256_add_ps(r.sum2, c2);
            r.sum3 = _mm256_add_ps(r.sum3, c3);
            r.square0 = _mm256_fmadd_ps(c0, c0, r.square0);
            r.square1 = _mm256_fmadd_ps(c1, c1, r.square1);
            r.square2 = _mm256_fmadd_ps(c2, c2, r.square2);
            r.square3 = _mm256_fmadd_ps(c3, c3, r.square3);
        }
        s.vectorsSinceFlush += static_cast<std::uint32_t>(4 * groups);
        count -= 4 * kLanes * groups;
    }
    storeAccumulators(s, r);
    fillCarry(s, samples, count);
}

// Vector stores (a plain memset of the state compiles to a slow `rep stos`).
ISOCHRON_TARGET_AVX2_FMA void resetAvx2(State& s) {
    for (int accumulator = 0; accumulator < 4; ++accumulator) {
        _mm256_store_ps(s.partialSums[accumulator], _mm256_setzero_ps());
        _mm256_store_ps(s.partialSquares[accumulator], _mm256_setzero_ps());
    }
    _mm256_store_pd(s.laneSums, _mm256_setzero_pd());
    _mm256_store_pd(s.laneSums + 4, _mm256_setzero_pd());
    _mm256_store_pd(s.laneSquares, _mm256_setzero_pd());
    _mm256_store_pd(s.laneSquares + 4, _mm256_setzero_pd());
    s.carryCount = 0;
    s.vectorsSinceFlush = 0;
}

// Lanes 0 to 7 added in order, like resultPortable().
ISOCHRON_TARGET_AVX2_FMA inline double addLanesInOrder(__m256d low, __m256d high) {
    double total = 0.0;
    for (const __m128d pair : {_mm256_castpd256_pd128(low), _mm256_extractf128_pd(low, 1), _mm256_castpd256_pd128(high),
                               _mm256_extractf128_pd(high, 1)}) {
        total += _mm_cvtsd_f64(pair);
        total += _mm_cvtsd_f64(_mm_unpackhi_pd(pair, pair));
    }
    return total;
}

// resultPortable() in registers, without copying the state: the same operations in the same order.
ISOCHRON_TARGET_AVX2_FMA SumAndSquares resultAvx2(const State& s, float shiftValue) {
    Avx2LaneTotals totals = loadLaneTotals(s);
    const bool padded = s.carryCount > 0;
    bool partialsFlushed = false;  // the padded vector needs a flush first, into fresh accumulators
    std::uint32_t target = s.vectorsSinceFlush;
    __m256 centered = _mm256_setzero_ps();
    if (padded) {
        if (target == kVectorsPerFlush) {
            for (int accumulator = 0; accumulator < 4; ++accumulator) {
                addToLaneTotals(totals, _mm256_load_ps(s.partialSums[accumulator]),
                                _mm256_load_ps(s.partialSquares[accumulator]));
            }
            partialsFlushed = true;
            target = 0;
        }
        alignas(32) float last[kLanes];
        std::fill(std::copy(s.carry, s.carry + s.carryCount, last), last + kLanes, shiftValue);
        centered = _mm256_sub_ps(_mm256_load_ps(last), _mm256_set1_ps(shiftValue));
    }
    for (std::uint32_t accumulator = 0; accumulator < 4; ++accumulator) {
        __m256 sums = partialsFlushed ? _mm256_setzero_ps() : _mm256_load_ps(s.partialSums[accumulator]);
        __m256 squares = partialsFlushed ? _mm256_setzero_ps() : _mm256_load_ps(s.partialSquares[accumulator]);
        if (padded && (target & 3) == accumulator) {
            sums = _mm256_add_ps(sums, centered);
            squares = _mm256_fmadd_ps(centered, centered, squares);
        }
        addToLaneTotals(totals, sums, squares);
    }
    return {addLanesInOrder(totals.sumsLow, totals.sumsHigh), addLanesInOrder(totals.squaresLow, totals.squaresHigh)};
}

// ---- Dispatch -------------------------------------------------------------------------------

bool cpuHasAvx2Fma() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

}  // namespace

bool kernelPathSupported(KernelPath path) {
    static const bool hasAvx2Fma = cpuHasAvx2Fma();
    return path == KernelPath::Portable || hasAvx2Fma;
}

KernelPath bestKernelPath() {
    static const KernelPath best = kernelPathSupported(KernelPath::Avx2Fma) ? KernelPath::Avx2Fma : KernelPath::Portable;
    return best;
}

SumAndSquaresAccumulator::SumAndSquaresAccumulator(float shift, KernelPath path) : shift_(shift), path_(path) {
    if (!kernelPathSupported(path)) throw std::invalid_argument("SumAndSquaresAccumulator: this CPU lacks AVX2/FMA");
    if (path_ == KernelPath::Avx2Fma) {
        resetAvx2(state_);
    } else {
        resetPortable(state_);
    }
}

void SumAndSquaresAccumulator::add(const float* samples, std::size_t count) {
    count_ += count;
    if (path_ == KernelPath::Avx2Fma) {
        addAvx2(state_, samples, count, shift_);
    } else {
        addPortable(state_, samples, count, shift_);
    }
}

SumAndSquares SumAndSquaresAccumulator::result() const {
    return path_ == KernelPath::Avx2Fma ? resultAvx2(state_, shift_) : resultPortable(state_, shift_);
}

SumAndSquares sumAndSquares(KernelPath path, const float* samples, std::size_t count, float shift) {
    SumAndSquaresAccumulator accumulator(shift, path);
    accumulator.add(samples, count);
    return accumulator.result();
}

SumAndSquares sumAndSquares(const float* samples, std::size_t count, float shift) {
    return sumAndSquares(bestKernelPath(), samples, count, shift);
}

}  // namespace isochron::kernels
