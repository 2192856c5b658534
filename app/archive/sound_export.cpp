#include "app/archive/sound_export.h"

#include <sndfile.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

#include "nodes/io/sound_file.h"

namespace isochron {
namespace {

std::string seconds(const ArchivedStreamInfo& info, std::int64_t index) {
    char text[64];
    std::snprintf(text, sizeof text, "%.6f s", static_cast<double>(index) / info.rateHz);
    return text;
}

[[noreturn]] void refuseGap(const ArchivedStreamInfo& info, int channel, std::int64_t start, std::int64_t end) {
    throw std::runtime_error("channel " + std::to_string(channel) + " of stream '" + info.name + "' has a gap at " + seconds(info, start) + " to " +
                             seconds(info, end) + ": export an interval without gaps as sound, or all of it as jsonl");
}

/// Refuses [l, h) when a channel's stored stretches (a few rows: the running totals) leave part of it out.
void refuseGaps(ArchiveStore& store, const ArchivedStreamInfo& info, std::int64_t l, std::int64_t h) {
    for (int channel = 0; channel < info.channels; ++channel) {
        std::int64_t covered = l;  // [l, covered) is held
        for (const auto& [start, end] : store.coverage(info.name, channel)) {
            if (end <= covered) continue;
            if (start > covered) refuseGap(info, channel, covered, std::min(start, h));
            covered = end;
            if (covered >= h) break;
        }
        if (covered < h) refuseGap(info, channel, covered, h);
    }
}

}  // namespace

SoundExportResult writeSoundExport(ArchiveStore& store, const ArchivedStreamInfo& info, std::int64_t l, std::int64_t h, SoundExportFormat format,
                                   const std::string& path, std::int64_t chunkFrames) {
    refuseGaps(store, info, l, h);
    SF_INFO soundInfo{};
    soundInfo.samplerate = static_cast<int>(info.rateHz);
    soundInfo.channels = info.channels;
    soundInfo.format = format == SoundExportFormat::Flac24 ? (SF_FORMAT_FLAC | SF_FORMAT_PCM_24) : wavOrLarger(SF_FORMAT_WAV | SF_FORMAT_FLOAT);
    SoundFile file(sf_open(path.c_str(), SFM_WRITE, &soundInfo));
    if (!file) throw std::runtime_error("cannot write '" + path + "': " + sf_strerror(nullptr));
    prepareForLargeAndRepeatableFile(file.get(), soundInfo.format);
    sf_command(file.get(), SFC_SET_CLIPPING, nullptr, SF_TRUE);
    const std::size_t channels = static_cast<std::size_t>(info.channels);
    std::vector<float> interleaved(static_cast<std::size_t>(std::min(chunkFrames, h - l)) * channels);
    SoundExportResult result;
    for (std::int64_t chunkStart = l; chunkStart < h; chunkStart += chunkFrames) {
        const std::int64_t chunkEnd = std::min(h, chunkStart + chunkFrames);
        const std::size_t frames = static_cast<std::size_t>(chunkEnd - chunkStart);
        for (std::size_t channel = 0; channel < channels; ++channel) {
            std::size_t frame = 0;
            for (const ArchivedPiece& piece : store.get(info.name, static_cast<int>(channel), chunkStart, chunkEnd)) {
                if (piece.isGap()) refuseGap(info, static_cast<int>(channel), piece.start, piece.end());
                piece.samples.forEachSpan([&](std::span<const float> run) {
                    for (const float sample : run) interleaved[frame++ * channels + channel] = sample;
                });
            }
        }
        if (format == SoundExportFormat::Flac24) {
            result.clipped += std::count_if(interleaved.begin(), interleaved.begin() + static_cast<std::ptrdiff_t>(frames * channels),
                                            [](float x) { return !(std::abs(x) <= 1.0f); });
        }
        if (sf_writef_float(file.get(), interleaved.data(), static_cast<sf_count_t>(frames)) != static_cast<sf_count_t>(frames)) {
            throw std::runtime_error("cannot write '" + path + "': " + sf_strerror(file.get()));
        }
        result.frames += static_cast<std::int64_t>(frames);
    }
    // sf_close fixes the header's sizes (a seekable file) and flushes the FLAC encoder: its failure is the file's.
    if (sf_close(file.release()) != 0) throw std::runtime_error("cannot write '" + path + "': closing it failed");
    return result;
}

}  // namespace isochron
