#include <catch2/catch.hpp>

#include <random>

#include "nodes/spectral/fft_plan_cache.h"
#include "tests/support/graph_run.h"

using namespace isochron;

TEST_CASE("inverse real FFT plans undo forward ones up to the factor N", "[spectral][fft]") {
    std::mt19937 random(8);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (std::int64_t size : {16, 100, 1024, 4096}) {
        INFO("size " << size);
        const auto& forward = FftPlanCache::instance().realForward(size, PlanEffort::Estimate);
        const auto& inverse = FftPlanCache::instance().realInverse(size, PlanEffort::Estimate);
        CHECK(&inverse == &FftPlanCache::instance().realInverse(size, PlanEffort::Estimate));
        CHECK(inverse.binCount() == size / 2 + 1);
        // Pool storage has the alignment FFTW's plans were made with.
        auto samples = SigSeg<float>::allocate(size, 0, nullptr);
        auto scratch = SigSeg<float>::allocate(size, 0, nullptr);
        auto bins = SigSeg<std::complex<float>>::allocate(forward.binCount(), 0, nullptr);
        auto restored = SigSeg<float>::allocate(size, 0, nullptr);
        for (float& s : samples.writable()) s = uniform(random);
        std::copy(samples.writable().begin(), samples.writable().end(), scratch.writable().begin());
        forward.execute(scratch.writable().data(), bins.writable().data());
        inverse.execute(bins.writable().data(), restored.writable().data());
        for (std::int64_t i = 0; i < size; ++i) {
            CHECK(restored.writable()[static_cast<std::size_t>(i)] / static_cast<float>(size) ==
                  Approx(samples.writable()[static_cast<std::size_t>(i)]).margin(1e-5));
        }
    }
}
