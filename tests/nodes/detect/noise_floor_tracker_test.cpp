// NoiseFloorTracker against the known power of seeded noise: it follows a level step (up within the
// minimum window plus a little, down within a fraction of a second), ignores a loud transient, and
// says no sound is present in steady noise.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "nodes/detect/noise_floor_tracker.h"
#include "tests/support/acoustic_simulator.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kFrameRate = 93.75;  // 48 kHz, hop 512
constexpr std::size_t kBins = 64;

/// One frame of the power an 8-mic average of complex Gaussian noise of mean power `level` gives per bin.
std::vector<float> noiseFrame(GaussianNoise& noise, double level) {
    std::vector<float> power(kBins);
    for (float& p : power) {
        double sum = 0.0;
        for (int i = 0; i < 16; ++i) {
            const double x = noise.next();
            sum += x * x;
        }
        p = static_cast<float>(level * sum / 16.0);
    }
    return power;
}

/// The floor's mean over bins, in dB relative to `level`.
double floorErrorDb(const NoiseFloorTracker& tracker, double level) {
    double sum = 0.0;
    for (float f : tracker.floor()) sum += f;
    return 10.0 * std::log10(sum / static_cast<double>(kBins) / level);
}

}  // namespace

TEST_CASE("the noise floor follows a 10 dB step up within 2.5 s and down within 0.3 s", "[detect][noise_floor]") {
    NoiseFloorTracker::Settings settings;
    settings.frameRateHz = kFrameRate;
    NoiseFloorTracker tracker(kBins, settings);
    GaussianNoise noise(7);
    const auto frames = [](double seconds) { return static_cast<int>(std::lround(seconds * kFrameRate)); };

    for (int f = 0; f < frames(3.0); ++f) tracker.update(noiseFrame(noise, 1.0));
    CHECK(std::abs(floorErrorDb(tracker, 1.0)) < 1.0);

    // Up 10 dB: followed once the minimum window (1.5 s) has passed.
    int framesToFollow = -1;
    for (int f = 0; f < frames(4.0); ++f) {
        tracker.update(noiseFrame(noise, 10.0));
        if (framesToFollow < 0 && std::abs(floorErrorDb(tracker, 10.0)) < 3.0) framesToFollow = f + 1;
    }
    INFO("followed the step up after " << framesToFollow / kFrameRate << " s");
    REQUIRE(framesToFollow > 0);
    CHECK(framesToFollow <= frames(2.5));
    CHECK(std::abs(floorErrorDb(tracker, 10.0)) < 1.0);

    // Down 10 dB: the minimum follows at once.
    framesToFollow = -1;
    for (int f = 0; f < frames(2.0); ++f) {
        tracker.update(noiseFrame(noise, 1.0));
        if (framesToFollow < 0 && std::abs(floorErrorDb(tracker, 1.0)) < 3.0) framesToFollow = f + 1;
    }
    INFO("followed the step down after " << framesToFollow / kFrameRate << " s");
    REQUIRE(framesToFollow > 0);
    CHECK(framesToFollow <= frames(0.3));
    CHECK(std::abs(floorErrorDb(tracker, 1.0)) < 1.0);
}

TEST_CASE("a loud transient is sound: present, and it leaves the noise floor where it was", "[detect][noise_floor]") {
    NoiseFloorTracker::Settings settings;
    settings.frameRateHz = kFrameRate;
    NoiseFloorTracker tracker(kBins, settings);
    GaussianNoise noise(8);
    double presenceInNoise = 0.0;
    const int quietFrames = 200;
    for (int f = 0; f < quietFrames; ++f) {
        tracker.update(noiseFrame(noise, 1.0));
        if (f >= 100) {
            for (float p : tracker.presence()) presenceInNoise += p;
        }
    }
    CHECK(presenceInNoise / (100.0 * kBins) < 0.05);

    double presenceInSound = 0.0;
    const int soundFrames = 47;  // 0.5 s, 20 dB up
    for (int f = 0; f < soundFrames; ++f) {
        tracker.update(noiseFrame(noise, 100.0));
        if (f >= 5) {
            for (float p : tracker.presence()) presenceInSound += p;
        }
        CHECK(floorErrorDb(tracker, 1.0) < 3.0);
    }
    CHECK(presenceInSound / ((soundFrames - 5.0) * kBins) > 0.9);
}

TEST_CASE("the noise floor tracker refuses impossible settings", "[detect][noise_floor]") {
    NoiseFloorTracker::Settings settings;
    CHECK_THROWS_AS(NoiseFloorTracker(0, settings), std::invalid_argument);
    settings.presenceRatio = 1.0;
    CHECK_THROWS_AS(NoiseFloorTracker(8, settings), std::invalid_argument);
    settings = {};
    settings.subWindows = 1;
    CHECK_THROWS_AS(NoiseFloorTracker(8, settings), std::invalid_argument);
    settings = {};
    settings.windowSeconds = 0.0;
    CHECK_THROWS_AS(NoiseFloorTracker(8, settings), std::invalid_argument);
}
