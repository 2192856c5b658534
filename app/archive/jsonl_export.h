// isochron-archive export --format jsonl of a signal stream: one JSON object per stored piece and per
// gap, channel after channel, written a chunk of the interval at a time, so that exporting an hour of
// samples holds a chunk, not one channel's whole interval (which it read before writing a line).
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

}  // namespace isochron
