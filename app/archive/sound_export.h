// isochron-archive export --format wav|flac: an interval of a signal stream written as a sound file a
// chunk at a time, so that exporting an hour (or a day) holds a few MiB, not the interval (which took
// about 2.15 x its size: 790 MB of memory for 368 MB of samples).
#pragma once

#include <cstdint>
#include <string>

#include "engine/archive/archive_store.h"

namespace isochron {

/// Frames of every channel read, interleaved and written at a time: 65 536 x 8 channels x (4 bytes
/// read + 4 interleaved) = 4 MiB for an 8-channel stream.
inline constexpr std::int64_t kSoundExportChunkFrames = 65536;

/// The sound file formats export writes.
enum class SoundExportFormat {
    WavFloat,  ///< WAV, 32-bit float: sample-exact
    Flac24,    ///< FLAC, 24-bit PCM: samples beyond +-1 clipped
};

/// What writeSoundExport wrote. [value type]
struct SoundExportResult {
    std::int64_t frames = 0;
    std::int64_t clipped = 0;  ///< Flac24: samples beyond +-1 (or NaN) that were clipped
};

/// Writes frames [l, h) of every channel of the signal stream `info` into the sound file `path`
/// ("-": standard output) through libsndfile, reading `chunkFrames` (> 0) frames of each channel from
/// `store` at a time. Refuses, before creating `path`, an interval a channel does not hold whole (a
/// gap: the message names the channel and the gap, and says to export it as jsonl); a gap found while
/// writing (pruned meanwhile) is refused the same way, `path` left part-written for the caller to
/// remove. Throws std::runtime_error naming `path` when it cannot be written. [main thread] [blocks on disk]
SoundExportResult writeSoundExport(ArchiveStore& store, const ArchivedStreamInfo& info, std::int64_t l, std::int64_t h, SoundExportFormat format,
                                   const std::string& path, std::int64_t chunkFrames = kSoundExportChunkFrames);

}  // namespace isochron
