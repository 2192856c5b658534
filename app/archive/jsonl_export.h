// isochron-archive export --format jsonl (and get of an event or scalar stream): a signal stream as
// one JSON object per stored piece and per gap, channel after channel, written a chunk of the interval
// at a time; an item stream as one JSON object per item, written a page of items at a time. Exporting
// an hour holds a chunk or a page, not the interval (one channel's samples, or every item's JSON text,
// which it read before writing a line).
#pragma once

#include <cstdint>
#include <ostream>

#include "app/archive/sound_export.h"
#include "engine/archive/archive_store.h"

namespace isochron {

/// Writes samples [l, h) of every channel of the signal stream `info` to `out` as JSON lines
/// ({"channel", "start", "length", "gap", "samples"}: the pieces and gaps a get of [l, h) gives, in
/// order, each whole), reading about `chunkFrames` (> 0) samples of one channel from `store` at a time
/// (more only to finish one stored piece longer than that). [main thread] [blocks on disk]
void writeSignalJsonLines(ArchiveStore& store, const ArchivedStreamInfo& info, std::int64_t l, std::int64_t h, std::ostream& out,
                          std::int64_t chunkFrames = kSoundExportChunkFrames);

/// Items read from the archive at a time: 1 024 events of a few hundred bytes of JSON each hold well
/// under a MiB.
inline constexpr std::int64_t kItemExportPageItems = 1024;

/// Writes the items of the event or scalar stream `info` whose start lies in [l, h) to `out` as JSON
/// lines ({"start", "length", "time_s", ["time_utc" on the wall clock,] "item"}: the item's own keys in
/// their stored order), in start order, reading `pageItems` (> 0) items from `store` at a time. Returns
/// how many it wrote (0: nothing was written). [main thread] [blocks on disk]
std::int64_t writeItemJsonLines(ArchiveStore& store, const ArchivedStreamInfo& info, std::int64_t l, std::int64_t h, std::ostream& out,
                                std::int64_t pageItems = kItemExportPageItems);

}  // namespace isochron
