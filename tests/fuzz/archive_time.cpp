// Fuzz target: the times isochron-archive takes (--from, --to, --before): seconds from a stream's
// sample 0 or an ISO 8601 date-time (engine/archive/archive_time.h).
//
// Input: the text of one time. Properties: a refused text is an std::invalid_argument whose message
// quotes the text; an accepted number equals strtod's reading of it; an accepted date prints through
// formatUtc as text that reads back to the same instant, and agrees with libc's timegm on its
// date and time of day (the independent reference); turning either into a sample index on a 48 kHz
// wall-clock stream whose zero is the instant itself never overflows and gives 0 for the instant.
#include <cstdlib>
#include <ctime>
#include <string>

#include "engine/archive/archive_time.h"
#include "tests/fuzz/fuzz_support.h"

using namespace isochron;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    ArchiveTime time;
    try {
        time = parseArchiveTime(text);
    } catch (const std::invalid_argument& e) {
        fuzz::require(std::string_view(e.what()).find("time '") == 0, "a refused time without a message quoting it");
        return 0;
    }
    ArchivedStreamInfo stream{.name = "fuzz", .rateHz = 48000, .clock = "wall"};
    if (time.kind == ArchiveTime::Kind::Seconds) {
        fuzz::require(time.seconds == std::strtod(text.c_str(), nullptr), "seconds that differ from strtod's reading");
        try {
            (void)sampleIndexAt(stream, time);
        } catch (const ArchiveError&) {
        }
        return 0;
    }
    const std::string printed = formatUtc(time.unixNs);
    fuzz::require(parseArchiveTime(printed) == time, "an ISO time that does not read back from formatUtc's text");
    // formatUtc's civil fields (year-month-dayThh:mm:ss) by timegm give the same whole seconds.
    std::tm fields{};
    fields.tm_year = std::stoi(printed.substr(0, 4)) - 1900;
    fields.tm_mon = std::stoi(printed.substr(5, 2)) - 1;
    fields.tm_mday = std::stoi(printed.substr(8, 2));
    fields.tm_hour = std::stoi(printed.substr(11, 2));
    fields.tm_min = std::stoi(printed.substr(14, 2));
    fields.tm_sec = std::stoi(printed.substr(17, 2));
    const std::int64_t wholeSeconds = time.unixNs >= 0 ? time.unixNs / 1'000'000'000 : -((-(time.unixNs + 1)) / 1'000'000'000) - 1;
    fuzz::require(static_cast<std::int64_t>(timegm(&fields)) == wholeSeconds, "an ISO time that disagrees with timegm");
    stream.zeroTimeNs = time.unixNs;
    fuzz::require(sampleIndexAt(stream, time) == 0, "the zero instant of a stream is not its sample 0");
    return 0;
}
