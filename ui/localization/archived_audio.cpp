#include "ui/localization/archived_audio.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/archive/archive_store.h"

namespace isochron::ui {
namespace {

// Whether `channel` of `name` stores all of [l, h) (coverage merges adjacent pieces).
bool storesWhole(ArchiveStore& store, const std::string& name, int channel, std::int64_t l, std::int64_t h) {
    const auto spans = store.coverage(name, channel);
    return std::any_of(spans.begin(), spans.end(), [&](const auto& span) { return span.first <= l && span.second >= h; });
}

}  // namespace

ArchivedAudio readArchivedAudio(const std::string& path, double fromSeconds, double toSeconds, int mic) {
    ArchivedAudio audio;
    ArchiveStore store(path, ArchiveAccess::Read);
    std::vector<ArchivedStreamInfo> signals;
    for (ArchivedStreamInfo& info : store.streams()) {
        if (info.kind == ArchivedStreamInfo::Kind::Signal) signals.push_back(std::move(info));
    }
    std::stable_sort(signals.begin(), signals.end(), [](const auto& a, const auto& b) { return a.channels > b.channels; });
    for (const ArchivedStreamInfo& info : signals) {
        const std::int64_t l = std::llround(fromSeconds * info.rateHz), h = std::llround(toSeconds * info.rateHz);
        if (h <= l) continue;
        bool whole = true;
        for (int channel = 0; channel < info.channels && whole; ++channel) whole = storesWhole(store, info.name, channel, l, h);
        if (!whole) continue;
        std::vector<int> channels;  // the mic's, or all of them to average
        if (mic >= 0 && mic < info.channels) {
            channels.push_back(mic);
        } else {
            for (int channel = 0; channel < info.channels; ++channel) channels.push_back(channel);
        }
        std::vector<float> sum(static_cast<std::size_t>(h - l), 0.0f);
        for (int channel : channels) {
            for (const ArchivedPiece& piece : store.get(info.name, channel, l, h)) {
                std::size_t at = static_cast<std::size_t>(piece.start - l);
                piece.samples.forEachSpan([&](std::span<const float> run) {
                    for (float x : run) sum[at++] += x;
                });
            }
        }
        const float scale = 1.0f / static_cast<float>(channels.size());
        for (float& x : sum) x *= scale;
        audio.samples = std::move(sum);
        audio.rateHz = info.rateHz;
        audio.stream = info.name;
        return audio;
    }
    char interval[64];
    std::snprintf(interval, sizeof interval, "%.3f to %.3f s", fromSeconds, toSeconds);
    audio.why = signals.empty() ? "the archive holds no audio: record the microphones' wire into it too to hear past events"
                                : std::string("no audio stream of the archive stores ") + interval + " in every channel";
    return audio;
}

}  // namespace isochron::ui
