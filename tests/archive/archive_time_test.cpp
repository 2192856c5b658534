// parseArchiveTime / formatUtc / sampleIndexAt: seconds and ISO 8601 times against libc's timegm as
// the independent reference, round trips over random instants, and refusals that say what is wrong.
#include <catch2/catch.hpp>

#include <ctime>
#include <random>

#include "engine/archive/archive_time.h"

using namespace isochron;

namespace {

/// ns since the epoch of a UTC civil time, by libc.
TimeNs reference(int year, int month, int day, int hour, int minute, int second) {
    std::tm fields{};
    fields.tm_year = year - 1900;
    fields.tm_mon = month - 1;
    fields.tm_mday = day;
    fields.tm_hour = hour;
    fields.tm_min = minute;
    fields.tm_sec = second;
    return static_cast<TimeNs>(timegm(&fields)) * 1'000'000'000;
}

}  // namespace

TEST_CASE("Archive times: seconds are plain decimal numbers", "[archive]") {
    for (const auto& [text, value] : std::vector<std::pair<std::string, double>>{{"0", 0}, {"12.5", 12.5}, {"-3", -3}, {"1e3", 1000}, {"+0.25", 0.25}}) {
        INFO(text);
        const ArchiveTime time = parseArchiveTime(text);
        CHECK(time.kind == ArchiveTime::Kind::Seconds);
        CHECK(time.seconds == value);
    }
}

TEST_CASE("Archive times: ISO 8601 agrees with timegm, in every spelling of the zone", "[archive]") {
    std::mt19937 random(13);
    std::uniform_int_distribution<int> year(1971, 2200), month(1, 12), day(1, 28), hour(0, 23), minute(0, 59), second(0, 59);
    for (int i = 0; i < 500; ++i) {
        const int y = year(random), mo = month(random), d = day(random), h = hour(random), mi = minute(random), s = second(random);
        char text[64];
        std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, s);
        const TimeNs expected = reference(y, mo, d, h, mi, s);
        INFO(text);
        CHECK(parseArchiveTime(text).unixNs == expected);
        CHECK(parseArchiveTime(std::string(text) + "Z").unixNs == expected);
        CHECK(parseArchiveTime(std::string(text) + ".5Z").unixNs == expected + 500'000'000);
        CHECK(parseArchiveTime(std::string(text) + "+01:30").unixNs == expected - 5400'000'000'000);
        CHECK(parseArchiveTime(std::string(text) + "-0200").unixNs == expected + 7200'000'000'000);
        CHECK(parseArchiveTime(std::string(text) + "+05").unixNs == expected - 18000'000'000'000);
    }
    CHECK(parseArchiveTime("2024-02-29 23:59").unixNs == reference(2024, 2, 29, 23, 59, 0));
    CHECK(parseArchiveTime("1969-12-31T23:59:59.999999999Z").unixNs == -1);
}

TEST_CASE("Archive times: formatUtc reads back to the same instant", "[archive]") {
    std::mt19937_64 random(7);
    std::uniform_int_distribution<TimeNs> instant(-9'000'000'000'000'000'000, 9'000'000'000'000'000'000);
    for (int i = 0; i < 2000; ++i) {
        const TimeNs t = instant(random);
        INFO(formatUtc(t));
        CHECK(parseArchiveTime(formatUtc(t)).unixNs == t);
    }
    CHECK(formatUtc(reference(2026, 11, 28, 3, 12, 0) + 250'000'000) == "2026-11-28T03:12:00.250000000Z");
}

TEST_CASE("Archive times: refusals say what is wrong", "[archive]") {
    for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
             {"", "empty"},
             {"abc", "unexpected 'a'"},
             {"1.2.3", "not a number"},
             {"inf", "unexpected 'i'"},
             {"1e400", "more than 1e10 seconds"},
             {"2026-13-01T00:00", "month 13"},
             {"2026-02-29T00:00", "day 29"},
             {"2026-01-01", "expected 'T'"},
             {"2026-01-01T24:00", "hour 24"},
             {"2026-01-01T10:60", "minute 60"},
             {"2026-01-01T10:00:60", "leap seconds"},
             {"2026-01-01T10:00:00.", "digits after the decimal point"},
             {"2026-01-01T10:00:00.1234567891", "more than 9 digits"},
             {"2026-01-01T10:00Q", "expected Z"},
             {"2026-01-01T10:00+25", "zone offset out of range"},
             {"2026-01-01T10:00Zjunk", "unexpected 'junk'"},
             {"2300-01-01T00:00Z", "1678 to 2261"},
         }) {
        INFO(text);
        CHECK_THROWS_WITH(parseArchiveTime(text), Catch::Contains(why) && Catch::Contains("ISO 8601"));
    }
}

TEST_CASE("Archive times: sample indices on the stream's timebase", "[archive]") {
    ArchivedStreamInfo media{.name = "array", .rateHz = 8000};
    CHECK(sampleIndexAt(media, parseArchiveTime("12.5")) == 100000);
    CHECK(sampleIndexAt(media, parseArchiveTime("0.00001")) == 1);  // the first sample at or after
    CHECK_THROWS_WITH(sampleIndexAt(media, parseArchiveTime("2026-11-28T03:12Z")), Catch::Contains("not the wall clock"));
    const TimeNs zero = reference(2026, 11, 28, 3, 0, 0);
    ArchivedStreamInfo wall{.name = "mic", .rateHz = 48000, .zeroTimeNs = zero, .clock = "wall"};
    CHECK(sampleIndexAt(wall, parseArchiveTime("2026-11-28T03:12:00Z")) == 720 * 48000);
    CHECK(sampleIndexAt(wall, parseArchiveTime("2026-11-28T04:12:00+01:00")) == 720 * 48000);
    CHECK(sampleIndexAt(wall, parseArchiveTime("720")) == 720 * 48000);
}
