// Times a user gives for an interval of an archived stream (isochron-archive --from/--to/--before):
// seconds from the stream's sample 0 ("12.5", the same seconds io.archive_source's `from` takes), or
// an absolute ISO 8601 date-time ("2026-11-28T03:12:00.25Z", "2026-11-28 04:12+01:00"; no zone = UTC)
// for streams on the wall clock (ns since the Unix epoch, e.g. what capture.audio_input records).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/archive/archive_store.h"

namespace isochron {

/// A parsed time: seconds from a stream's sample 0, or a UTC instant. [value type]
struct ArchiveTime {
    enum class Kind { Seconds, Utc };
    Kind kind = Kind::Seconds;
    double seconds = 0;   ///< Kind::Seconds: finite, within ±1e10 s
    TimeNs unixNs = 0;    ///< Kind::Utc: ns since 1970-01-01T00:00:00Z, within int64

    bool operator==(const ArchiveTime&) const = default;
};

/// Reads "SECONDS" (a decimal number, optionally signed, with optional exponent) or an ISO 8601
/// date-time YYYY-MM-DD(T| )hh:mm[:ss[.fraction of up to 9 digits]][Z|±hh[:mm]|±hhmm]. Throws
/// std::invalid_argument with a message saying what is wrong. [any thread]
ArchiveTime parseArchiveTime(std::string_view text);

/// `unixNs` as ISO 8601 UTC with nanoseconds ("2026-11-28T03:12:00.250000000Z"); parseArchiveTime
/// reads it back to the same value. [any thread]
std::string formatUtc(TimeNs unixNs);

/// The first sample index of `stream` at or after `time`. Throws ArchiveError when `time` is an
/// absolute time and the stream is not on the wall clock, or the index would not fit in 64 bits.
std::int64_t sampleIndexAt(const ArchivedStreamInfo& stream, const ArchiveTime& time);

}  // namespace isochron
