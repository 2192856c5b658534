// A signal lane's picture: the lowest and highest sample over all channels in each pixel column of a
// view of the stream, read from the archive. A column wider than the read budget allows is judged
// from an even sample of its stretch (its first samples), so a view of a day reads in about a second,
// not minutes; a view that fits the budget is exact. No Qt.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/archive/archive_store.h"

namespace isochron::ui {

/// One pixel column: min and max of the samples stored in it (any channel). [value type]
struct EnvelopeColumn {
    float min = 0;
    float max = 0;
    bool stored = false;  ///< some sample of the column is stored (else min and max mean nothing)
    bool operator==(const EnvelopeColumn&) const = default;
};

/// Samples read per channel for one envelope at most; columns wider than this share of it are
/// judged from their first samples.
inline constexpr std::int64_t kEnvelopeSampleBudget = std::int64_t{1} << 22;

/// The sample range of column `column` of `columns` across samples [l, h): [first, second). [any thread]
std::pair<std::int64_t, std::int64_t> envelopeColumnRange(std::int64_t l, std::int64_t h, int column, int columns);

/// `columns` columns over [fromSeconds, toSeconds) (seconds from sample 0) of the signal stream
/// `info`, every channel. Throws ArchiveError for an unknown stream. [any thread] [reads the disk]
std::vector<EnvelopeColumn> readSignalEnvelope(ArchiveStore& store, const ArchivedStreamInfo& info, double fromSeconds,
                                               double toSeconds, int columns, std::int64_t sampleBudget = kEnvelopeSampleBudget);

/// `columns` columns over [fromSeconds, toSeconds) drawn from `shown`, an envelope of the same stream
/// over [shownFrom, shownTo): each column the min and max of the shown columns it overlaps, nothing
/// stored where none does (beyond the shown view). What a view draws until its own read arrives (a
/// growing recording's Fit view is a new view at every follow step). [any thread]
std::vector<EnvelopeColumn> rescaleEnvelope(const std::vector<EnvelopeColumn>& shown, double shownFrom, double shownTo, double fromSeconds,
                                            double toSeconds, int columns);

}  // namespace isochron::ui
