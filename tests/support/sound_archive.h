// A one-channel sound archive of a known length, for tests that need a file with many pages of samples.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/archive/archive_store.h"

namespace isochron::test {

/// Writes an archive at `path` with one 48 kHz stream 'mic' of `samples` samples (4 bytes each on disk, a ramp).
inline void writeSoundArchive(const std::string& path, std::int64_t samples) {
    ArchiveStore writer(path, ArchiveAccess::Record);
    const std::int64_t mic = writer.openStream({.name = "mic", .rateHz = 48000});
    std::vector<float> block(65536);
    for (std::int64_t start = 0; start < samples; start += static_cast<std::int64_t>(block.size())) {
        for (std::size_t i = 0; i < block.size(); ++i) block[i] = static_cast<float>((start + static_cast<std::int64_t>(i)) % 1000) / 1000.0f;
        writer.appendSamples(mic, 0, start, block);
    }
    writer.commit();
}

}  // namespace isochron::test
