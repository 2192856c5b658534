#include "nodes/spectral/fft_plan_cache.h"

#include <limits>
#include <stdexcept>
#include <string>

#include <fftw3.h>

namespace isochron {
namespace {

/// An fftwf_malloc'd array freed on scope exit (only for planning, never on the processing path).
struct PlanningArray {
    explicit PlanningArray(std::size_t bytes) : data(fftwf_malloc(bytes)) {
        if (!data) throw std::bad_alloc();
    }
    ~PlanningArray() { fftwf_free(data); }
    PlanningArray(const PlanningArray&) = delete;
    PlanningArray& operator=(const PlanningArray&) = delete;
    void* data;
};

}  // namespace

void RealForwardPlan::execute(float* input, std::complex<float>* output) const {
    // Planning arrays come from fftwf_malloc (SIMD-aligned, offset 0), so callers' arrays must be too.
    auto* bins = reinterpret_cast<fftwf_complex*>(output);
    if (fftwf_alignment_of(input) != 0 || fftwf_alignment_of(reinterpret_cast<float*>(bins)) != 0) {
        throw std::invalid_argument("FFT arrays are not SIMD-aligned as the FFTW plan requires");
    }
    fftwf_execute_dft_r2c(plan_, input, bins);
}

void RealInversePlan::execute(std::complex<float>* input, float* output) const {
    auto* bins = reinterpret_cast<fftwf_complex*>(input);
    if (fftwf_alignment_of(output) != 0 || fftwf_alignment_of(reinterpret_cast<float*>(bins)) != 0) {
        throw std::invalid_argument("FFT arrays are not SIMD-aligned as the FFTW plan requires");
    }
    fftwf_execute_dft_c2r(plan_, bins, output);
}

FftPlanCache& FftPlanCache::instance() {
    static FftPlanCache cache;
    return cache;
}

const RealForwardPlan& FftPlanCache::realForward(std::int64_t size, PlanEffort effort) {
    if (size < 1 || size > std::numeric_limits<int>::max()) {
        throw std::invalid_argument("FFT size " + std::to_string(size) + " is outside [1, 2^31)");
    }
    std::lock_guard lock(plannerMutex_);
    auto& slot = plans_[{size, effort}];
    if (!slot) {
        const auto count = static_cast<std::size_t>(size);
        PlanningArray input(count * sizeof(float));
        PlanningArray output((count / 2 + 1) * sizeof(fftwf_complex));
        const unsigned flags = effort == PlanEffort::Measure ? FFTW_MEASURE : FFTW_ESTIMATE;
        fftwf_plan plan = fftwf_plan_dft_r2c_1d(static_cast<int>(size), static_cast<float*>(input.data),
                                                static_cast<fftwf_complex*>(output.data), flags);
        if (!plan) {
            plans_.erase({size, effort});
            throw std::runtime_error("FFTW could not plan a transform of " + std::to_string(size) + " samples");
        }
        slot.reset(new RealForwardPlan(plan, size));
    }
    return *slot;
}

const RealInversePlan& FftPlanCache::realInverse(std::int64_t size, PlanEffort effort) {
    if (size < 1 || size > std::numeric_limits<int>::max()) {
        throw std::invalid_argument("FFT size " + std::to_string(size) + " is outside [1, 2^31)");
    }
    std::lock_guard lock(plannerMutex_);
    auto& slot = inversePlans_[{size, effort}];
    if (!slot) {
        const auto count = static_cast<std::size_t>(size);
        PlanningArray input((count / 2 + 1) * sizeof(fftwf_complex));
        PlanningArray output(count * sizeof(float));
        const unsigned flags = effort == PlanEffort::Measure ? FFTW_MEASURE : FFTW_ESTIMATE;
        fftwf_plan plan = fftwf_plan_dft_c2r_1d(static_cast<int>(size), static_cast<fftwf_complex*>(input.data),
                                                static_cast<float*>(output.data), flags);
        if (!plan) {
            inversePlans_.erase({size, effort});
            throw std::runtime_error("FFTW could not plan an inverse transform of " + std::to_string(size) + " samples");
        }
        slot.reset(new RealInversePlan(plan, size));
    }
    return *slot;
}

std::size_t FftPlanCache::planCount() const {
    std::lock_guard lock(plannerMutex_);
    return plans_.size() + inversePlans_.size();
}

FftPlanCache::~FftPlanCache() {
    std::lock_guard lock(plannerMutex_);
    for (auto& [key, plan] : plans_) fftwf_destroy_plan(plan->plan_);
    for (auto& [key, plan] : inversePlans_) fftwf_destroy_plan(plan->plan_);
}

}  // namespace isochron
