#include "ui/archive/stream_clip.h"

#include <cmath>

namespace isochron::ui {

std::vector<float> readStreamClip(ArchiveStore& store, const ArchivedStreamInfo& info, double fromSeconds, double toSeconds) {
    const std::int64_t l = std::llround(fromSeconds * info.rateHz), h = std::llround(toSeconds * info.rateHz);
    if (h <= l || info.channels <= 0) return {};
    std::vector<float> mix(static_cast<std::size_t>(h - l), 0.0f);
    const float share = 1.0f / static_cast<float>(info.channels);
    for (int channel = 0; channel < info.channels; ++channel) {
        for (const ArchivedPiece& piece : store.get(info.name, channel, l, h)) {
            auto at = static_cast<std::size_t>(piece.start - l);
            piece.samples.forEachSpan([&](std::span<const float> run) {
                for (float x : run) mix[at++] += x * share;
            });
        }
    }
    return mix;
}

}  // namespace isochron::ui
