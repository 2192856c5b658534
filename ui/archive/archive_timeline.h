// What an archive file holds, per stream, for the editor's timeline strip: the stretches stored (in
// every channel, or only in some), the gaps between them, and the times of stored events. Times are
// seconds from each stream's sample 0, the seconds io.archive_source's `from` and isochron-archive
// take (streams recorded by one graph share a timebase, so their lanes line up). No Qt.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/archive/archive_store.h"

namespace isochron::ui {

/// A stretch [start, end) in seconds from the stream's sample 0. [value type]
struct TimelineSpan {
    double start = 0;
    double end = 0;
    bool operator==(const TimelineSpan&) const = default;
};

/// One stream's lane. [value type]
struct TimelineLane {
    ArchivedStreamInfo info;
    bool empty = true;                 ///< nothing stored (then the spans below are empty)
    double start = 0, end = 0;         ///< first stored instant, one past the last (seconds)
    std::int64_t bytes = 0;            ///< payload stored (ArchivedExtent::bytes)
    std::vector<TimelineSpan> stored;  ///< signals: stored in every channel
    std::vector<TimelineSpan> partial; ///< stored in some channels only (signals)
    std::vector<TimelineSpan> gaps;    ///< inside [start, end), stored in no channel (signals)
    std::vector<double> eventTimes;    ///< item streams: start of each item, the first maxTicks of them
    std::int64_t eventCount = 0;       ///< item streams: items stored (may exceed eventTimes.size())
    std::string itemKind;              ///< item streams: "event" or "scalar", the kind of the first stored item
};

/// Every stream of the archive at `path`, by name, read through one ArchiveStore opened for reading
/// (a recorder may be writing meanwhile). At most `maxTicks` event times per lane. Throws
/// ArchiveError naming the file when it is not an archive. [any thread] [reads the disk]
std::vector<TimelineLane> readArchiveTimeline(const std::string& path, std::size_t maxTicks = 20000);

/// Where [l, h) of sample indices is covered by how many of `channels` lists of merged, ordered
/// stretches: spans covered by all of them, by some, and by none. [any thread]
struct ChannelCoverage {
    std::vector<std::pair<std::int64_t, std::int64_t>> all, some, none;
};
ChannelCoverage combineCoverage(const std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>>& channels,
                                std::int64_t l, std::int64_t h);

}  // namespace isochron::ui
