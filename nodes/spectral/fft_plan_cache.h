// FFTW plans shared by every spectral operator in the process.
//
// FFTW's planner (making and destroying plans) is not thread-safe; executing a plan through the
// new-array interface is, provided the arrays have the SIMD alignment the plan was made with and the
// same in-place-ness. So plans are made once per (size, effort) under one mutex, kept for the life
// of the process, and executed concurrently by any number of operators on their own arrays. Plans
// are made on 64-byte-aligned arrays, the alignment of every MemoryPool (and so SigSeg) allocation.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

struct fftwf_plan_s;  // fftw3.h's plan type, so that users of the cache need not include fftw3.h

namespace isochron {

/// How long FFTW may spend choosing an algorithm: Estimate is instant, Measure times candidates
/// (seconds for large sizes) and gives faster transforms.
enum class PlanEffort { Estimate, Measure };

/// A forward real-to-complex transform of one size, out of place. [immutable, any thread]
class RealForwardPlan {
public:
    /// Samples per transform (N >= 1).
    std::int64_t size() const { return size_; }
    /// Complex bins produced: N / 2 + 1 (0 Hz to Nyquist).
    std::int64_t binCount() const { return size_ / 2 + 1; }

    /// X_k = sum_n input[n] e^(-2 pi i k n / N) for k < binCount(), unnormalized. `input` (size()
    /// floats, may be overwritten) and `output` (binCount() bins) are distinct arrays with the
    /// alignment the plan was made with, as 64-byte-aligned arrays have: std::invalid_argument
    /// otherwise. [any thread] [no allocation]
    void execute(float* input, std::complex<float>* output) const;

private:
    friend class FftPlanCache;
    RealForwardPlan(fftwf_plan_s* plan, std::int64_t size) : plan_(plan), size_(size) {}

    fftwf_plan_s* plan_;
    std::int64_t size_;
};

/// An inverse complex-to-real transform of one size, out of place. [immutable, any thread]
class RealInversePlan {
public:
    /// Samples per transform (N >= 1).
    std::int64_t size() const { return size_; }
    /// Complex bins consumed: N / 2 + 1 (0 Hz to Nyquist).
    std::int64_t binCount() const { return size_ / 2 + 1; }

    /// x_n = sum_k X_k e^(+2 pi i k n / N) over all N bins, the missing ones taken as conjugates of
    /// bins 0 .. N/2 (Hermitian symmetry): N times the inverse DFT, unnormalized. `input` (binCount()
    /// bins) is overwritten; arrays as for RealForwardPlan::execute. [any thread] [no allocation]
    void execute(std::complex<float>* input, float* output) const;

private:
    friend class FftPlanCache;
    RealInversePlan(fftwf_plan_s* plan, std::int64_t size) : plan_(plan), size_(size) {}

    fftwf_plan_s* plan_;
    std::int64_t size_;
};

/// The process-wide store of FFTW plans. [any thread]
class FftPlanCache {
public:
    /// The one cache of this process.
    static FftPlanCache& instance();

    /// The plan for `size` samples (1 <= size < 2^31), made on the first request for this size and
    /// effort. The reference stays valid for the life of the process. [any thread] [plans on first use]
    const RealForwardPlan& realForward(std::int64_t size, PlanEffort effort);
    /// The inverse plan for `size` samples; as realForward(). [any thread] [plans on first use]
    const RealInversePlan& realInverse(std::int64_t size, PlanEffort effort);
    /// How many plans have been made so far (tests check that equal sizes share one). [any thread]
    std::size_t planCount() const;

    FftPlanCache(const FftPlanCache&) = delete;
    FftPlanCache& operator=(const FftPlanCache&) = delete;

private:
    FftPlanCache() = default;
    ~FftPlanCache();

    mutable std::mutex plannerMutex_;  // guards plans_ and every call into FFTW's planner
    std::map<std::pair<std::int64_t, PlanEffort>, std::unique_ptr<RealForwardPlan>> plans_;
    std::map<std::pair<std::int64_t, PlanEffort>, std::unique_ptr<RealInversePlan>> inversePlans_;
};

}  // namespace isochron
