#include <catch2/catch.hpp>

#include "engine/time/timebase.h"
#include "engine/time/wall_clock.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <thread>

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
