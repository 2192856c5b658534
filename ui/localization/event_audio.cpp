#include "ui/localization/event_audio.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace isochron::ui {

EventAudio::EventAudio(std::int64_t maxSamples) : maxSamples_(std::max<std::int64_t>(maxSamples, 1)) {}

void EventAudio::add(int mic, std::int64_t start, double rateHz, std::vector<float> samples) {
    if (mic < 0 || rateHz <= 0 || samples.empty()) return;
    const auto length = static_cast<std::int64_t>(samples.size());
    auto clip = std::find_if(clips_.rbegin(), clips_.rend(), [&](const Clip& c) { return c.start == start && c.length == length && c.rateHz == rateHz; });
    if (clip == clips_.rend()) {
        clips_.push_back({start, length, rateHz, {}});
        clip = clips_.rbegin();
    }
    if (clip->mics.size() <= static_cast<std::size_t>(mic)) clip->mics.resize(static_cast<std::size_t>(mic) + 1);
    held_ += length - static_cast<std::int64_t>(clip->mics[static_cast<std::size_t>(mic)].size());
    clip->mics[static_cast<std::size_t>(mic)] = std::move(samples);
    while (held_ > maxSamples_ && clips_.size() > 1) {
        for (const auto& m : clips_.front().mics) held_ -= static_cast<std::int64_t>(m.size());
        clips_.pop_front();
    }
}

std::vector<float> EventAudio::extract(double startSeconds, double endSeconds, int mic) const {
    const double rate = rateOf(startSeconds, endSeconds);
    if (rate <= 0) return {};
    // Every clip at that rate covering part of the range adds its part: one clip per event when
    // `sync` cut the audio, consecutive blocks when it is the continuous stream.
    std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = std::numeric_limits<std::int64_t>::min();
    const std::int64_t wantedFirst = std::llround(startSeconds * rate), wantedLast = std::llround(endSeconds * rate);
    auto usable = [&](const Clip& clip) {
        return clip.rateHz == rate && clip.start < wantedLast && clip.start + clip.length > wantedFirst &&
               (mic < 0 || (static_cast<std::size_t>(mic) < clip.mics.size() && !clip.mics[static_cast<std::size_t>(mic)].empty()));
    };
    for (const Clip& clip : clips_) {
        if (!usable(clip)) continue;
        first = std::min(first, std::max(wantedFirst, clip.start));
        last = std::max(last, std::min(wantedLast, clip.start + clip.length));
    }
    if (first >= last) return {};
    // Each mic's samples over [first, last) (a sample held by two clips is the same sample), then the
    // mean over the mics asked for.
    const std::size_t length = static_cast<std::size_t>(last - first);
    std::vector<float> out(length, 0.0f), one(length);
    int mixed = 0;
    const int mics = mic >= 0 ? mic + 1 : this->mics();
    for (int m = mic >= 0 ? mic : 0; m < mics; ++m) {
        std::fill(one.begin(), one.end(), 0.0f);
        bool any = false;
        for (const Clip& clip : clips_) {
            if (!usable(clip) || static_cast<std::size_t>(m) >= clip.mics.size() || clip.mics[static_cast<std::size_t>(m)].empty()) continue;
            const std::int64_t from = std::max(first, clip.start), to = std::min(last, clip.start + clip.length);
            for (std::int64_t i = from; i < to; ++i) {
                one[static_cast<std::size_t>(i - first)] = clip.mics[static_cast<std::size_t>(m)][static_cast<std::size_t>(i - clip.start)];
            }
            any = true;
        }
        if (!any) continue;
        for (std::size_t i = 0; i < length; ++i) out[i] += one[i];
        ++mixed;
    }
    if (mixed > 1) {
        for (float& v : out) v /= static_cast<float>(mixed);
    }
    return out;
}

double EventAudio::rateOf(double startSeconds, double endSeconds) const {
    for (const Clip& clip : clips_) {
        const double from = std::max(startSeconds, static_cast<double>(clip.start) / clip.rateHz);
        const double to = std::min(endSeconds, static_cast<double>(clip.start + clip.length) / clip.rateHz);
        if (to > from) return clip.rateHz;
    }
    return 0.0;
}

int EventAudio::mics() const { return clips_.empty() ? 0 : static_cast<int>(clips_.back().mics.size()); }

void EventAudio::clear() {
    clips_.clear();
    held_ = 0;
}

}  // namespace isochron::ui
