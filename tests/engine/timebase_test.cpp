#include <catch2/catch.hpp>

#include "engine/time/timebase.h"
#include "engine/time/wall_clock.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <random>
#include <thread>
#include <vector>

using namespace isochron;

TEST_CASE("timebases are interned by rate, zero time and clock", "[timebase]") {
    const Timebase& a = Timebase::get(48000, 0);
    const Timebase& b = Timebase::get(48000, 0);
    const Timebase& c = Timebase::get(48000, 5);
    const Timebase& d = Timebase::get(48000, 0, Clock::named("device:test"));
    CHECK(&a == &b);
    CHECK(&a != &c);
    CHECK(&a != &d);
    CHECK(d.clock().name() == "device:test");
}

TEST_CASE("sample index and time convert exactly for whole-number rates", "[timebase]") {
    const Timebase& tb = Timebase::get(44100, 1'000'000'000);
    CHECK(tb.timeOf(0) == 1'000'000'000);
    CHECK(tb.timeOf(44100) == 2'000'000'000);
    CHECK(tb.timeOf(-44100) == 0);
    CHECK(tb.timeOf(1) == 1'000'000'000 + 22675);  // 1e9/44100 = 22675.73 -> floor
    for (std::int64_t i : {std::int64_t{-7}, std::int64_t{0}, std::int64_t{1}, std::int64_t{12345}, std::int64_t{44100} * 3600 * 24 * 365}) {
        INFO("index " << i);
        CHECK(tb.firstIndexAtOrAfter(tb.timeOf(i)) == i);
        CHECK(tb.firstIndexAtOrAfter(tb.timeOf(i) + 1) == i + 1);
    }
    CHECK(tb.durationOf(44100) == 1'000'000'000);
}

TEST_CASE("timeOf equals exact 128-bit floor arithmetic on either side of the 64-bit fast paths", "[timebase]") {
    // Reference: floor(zero + index * 1e9 / rate) in 128 bits, clamped to the TimeNs range.
    __extension__ typedef __int128 Wide;
    const auto reference = [](std::int64_t rate, TimeNs zero, std::int64_t index) {
        const Wide numerator = static_cast<Wide>(index) * 1'000'000'000;
        Wide quotient = numerator / rate;
        if (numerator % rate != 0 && numerator < 0) --quotient;
        const Wide time = static_cast<Wide>(zero) + quotient;
        if (time > std::numeric_limits<TimeNs>::max()) return std::numeric_limits<TimeNs>::max();
        if (time < std::numeric_limits<TimeNs>::min()) return std::numeric_limits<TimeNs>::min();
        return static_cast<TimeNs>(time);
    };
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    std::mt19937_64 random(14);
    // Rates dividing 1 GHz (multiplied by their period) and others (divided), zero times far from
    // and near the clamping limits.
    for (std::int64_t rate : {std::int64_t{1}, std::int64_t{1000}, std::int64_t{16000}, std::int64_t{1'000'000},
                              std::int64_t{1'000'000'000}, std::int64_t{7}, std::int64_t{44100}, std::int64_t{48000},
                              std::int64_t{3'000'000'000}}) {
        for (TimeNs zero : {TimeNs{0}, TimeNs{-123'456'789}, TimeNs{1'700'000'000'000'000'000}, kMax - 5, kMin + 5}) {
            const Timebase& tb = Timebase::get(static_cast<double>(rate), zero);
            std::vector<std::int64_t> indices = {0, 1, -1, 2, -2, kMax, kMin, kMax / 1'000'000'000, kMin / 1'000'000'000,
                                                 kMax / 1'000'000'000 + 1, kMin / 1'000'000'000 - 1};
            if (1'000'000'000 % rate == 0) {
                const std::int64_t period = 1'000'000'000 / rate;
                for (std::int64_t edge : {kMax / period, kMin / period}) {
                    for (std::int64_t d = -2; d <= 2; ++d) {
                        if ((d > 0 && edge > kMax - d) || (d < 0 && edge < kMin - d)) continue;  // no index beyond int64
                        indices.push_back(edge + d);
                    }
                }
            }
            for (int i = 0; i < 200; ++i) {
                indices.push_back(static_cast<std::int64_t>(random()));                     // anywhere
                indices.push_back(static_cast<std::int64_t>(random() % 20'000'000'000) - 10'000'000'000);  // near 0
            }
            for (std::int64_t index : indices) {
                INFO("rate " << rate << ", zero " << zero << ", index " << index);
                REQUIRE(tb.timeOf(index) == reference(rate, zero, index));
            }
        }
    }
}

TEST_CASE("fractional rates convert consistently", "[timebase]") {
    const Timebase& tb = Timebase::get(1500.5, 0);
    for (std::int64_t i = -50; i < 50000; i += 977) {
        INFO("index " << i);
        CHECK(tb.firstIndexAtOrAfter(tb.timeOf(i)) == i);
        CHECK(tb.timeOf(i) < tb.timeOf(i + 1));
    }
    CHECK_THROWS_AS(Timebase::get(0.0), std::invalid_argument);
    CHECK_THROWS_AS(Timebase::get(-5.0), std::invalid_argument);
}

TEST_CASE("the engine's wall clock tracks the system clock and never runs backwards", "[timebase][clock]") {
    wallClockNs();  // the first call calibrates (about 20 ms)
    timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    const TimeNs system = static_cast<TimeNs>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
    const TimeNs engine = wallClockNs();
    CHECK(std::llabs(engine - system) < 5'000'000);  // within 5 ms of the system clock
    TimeNs previous = wallClockNs();
    for (int i = 0; i < 100000; ++i) {
        TimeNs now = wallClockNs();
        REQUIRE(now >= previous);
        previous = now;
    }
    // Elapsed time agrees with the system clock over a sleep.
    const TimeNs start = wallClockNs();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const double elapsedMs = static_cast<double>(wallClockNs() - start) / 1e6;
    CHECK(elapsedMs >= 49.0);
    CHECK(elapsedMs < 500.0);
    INFO("reads the TSC: " << wallClockUsesTsc());
}
