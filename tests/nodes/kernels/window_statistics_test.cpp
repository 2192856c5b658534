#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "nodes/kernels/window_statistics.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::kernels;

namespace {

std::vector<KernelPath> supportedPaths() {
    std::vector<KernelPath> paths{KernelPath::Portable};
    if (kernelPathSupported(KernelPath::Avx2Fma)) paths.push_back(KernelPath::Avx2Fma);
    return paths;
}

// `samples` starting at index `start` as a SigSeg of several separately allocated pieces.
SigSeg<float> inPieces(const std::vector<float>& samples, std::int64_t start, std::mt19937& random) {
    const Timebase& tb = Timebase::get(48000);
    SigSeg<float> whole;
    std::uniform_int_distribution<std::size_t> pieceLength(1, 500);
    for (std::size_t at = 0; at < samples.size();) {
        std::size_t take = std::min(pieceLength(random), samples.size() - at);
        std::vector<float> piece(samples.begin() + static_cast<std::ptrdiff_t>(at),
                                 samples.begin() + static_cast<std::ptrdiff_t>(at + take));
        whole.append(test::makeSignal(piece, start + static_cast<std::int64_t>(at), tb));
        at += take;
    }
    return whole;
}

}  // namespace

TEST_CASE("windowStatistics matches a two-pass reference and ignores how the window is split",
          "[kernels][window_statistics]") {
    std::mt19937 random(7);
    std::normal_distribution<double> gaussian(-40.0, 2.5);
    for (std::size_t n : {1u, 2u, 9u, 100u, 4096u, 4999u}) {
        std::vector<float> samples(n);
        for (auto& s : samples) s = static_cast<float>(gaussian(random));
        double mean = 0;
        for (float s : samples) mean += s;
        mean /= double(n);
        double squares = 0;
        for (float s : samples) squares += (s - mean) * (s - mean);
        const double stddev = std::sqrt(squares / double(n));

        const SigSeg<float> contiguous = test::makeSignal(samples, 1000, Timebase::get(48000));
        for (KernelPath path : supportedPaths()) {
            INFO("length " << n << ", path " << (path == KernelPath::Avx2Fma ? "avx2" : "portable"));
            const WindowStatistics whole = windowStatistics(contiguous, path);
            CHECK(whole.count == std::int64_t(n));
            CHECK(whole.mean == Approx(mean).epsilon(1e-7));
            CHECK(whole.stddev == Approx(stddev).epsilon(1e-5).margin(1e-6));
            for (int trial = 0; trial < 5; ++trial) {
                const SigSeg<float> split = inPieces(samples, 1000, random);
                REQUIRE(split.length() == std::int64_t(n));
                const WindowStatistics pieces = windowStatistics(split, path);
                CHECK(pieces.mean == whole.mean);
                CHECK(pieces.stddev == whole.stddev);
            }
            // A view into the middle of a larger segment: the offset into the storage is honoured.
            if (n > 10) {
                const WindowStatistics inner = windowStatistics(contiguous.subseg(1003, std::int64_t(n) - 5), path);
                std::vector<float> middle(samples.begin() + 3, samples.end() - 2);
                const WindowStatistics direct =
                    windowStatistics(test::makeSignal(middle, 0, Timebase::get(48000)), path);
                CHECK(inner.mean == direct.mean);
                CHECK(inner.stddev == direct.stddev);
            }
        }
    }
}

TEST_CASE("windowStatistics of an empty window is undefined and of a constant is exact", "[kernels][window_statistics]") {
    const WindowStatistics empty = windowStatistics(SigSeg<float>());
    CHECK(empty.count == 0);
    CHECK(std::isnan(empty.mean));
    CHECK(std::isnan(empty.stddev));
    const WindowStatistics constant =
        windowStatistics(test::makeSignal(std::vector<float>(777, -2.5f), 0, Timebase::get(100)));
    CHECK(constant.count == 777);
    CHECK(constant.mean == -2.5);
    CHECK(constant.stddev == 0.0);
}

TEST_CASE("remembered statistics never go stale", "[kernels][window_statistics]") {
    const Timebase& tb = Timebase::get(1000);
    std::vector<float> ones(4096, 1.0f);
    SigSeg<float> window = SigSeg<float>::copyOf(ones, 0, &tb);
    CHECK(kernels::windowStatistics(window).mean == 1.0);
    // Writing to the window after its statistics were remembered must not reuse them: writing in
    // place gives the storage a new identity.
    window.writable()[0] = 4097.0f;
    CHECK(kernels::windowStatistics(window).mean == Approx(2.0));
    // Another window with the same indices and length but other samples.
    SigSeg<float> other = SigSeg<float>::copyOf(std::vector<float>(4096, 3.0f), 0, &tb);
    CHECK(kernels::windowStatistics(other).mean == 3.0);
    // A sub-window of a remembered one is its own entry.
    CHECK(kernels::windowStatistics(window.subseg(1, 4095)).mean == 1.0);
    for (int i = 0; i < 10; ++i) {
        SigSeg<float> fresh = SigSeg<float>::copyOf(std::vector<float>(100, static_cast<float>(i)), 0, &tb);
        CHECK(kernels::windowStatistics(fresh).mean == i);
    }
}
