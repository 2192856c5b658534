#include <catch2/catch.hpp>

#include "engine/time/timebase.h"

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
