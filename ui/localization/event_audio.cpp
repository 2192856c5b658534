#include "ui/localization/event_audio.h"

#include <algorithm>
#include <cmath>

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

const EventAudio::Clip* EventAudio::bestClip(double startSeconds, double endSeconds) const {
    const Clip* best = nullptr;
    double bestOverlap = 0;
    for (const Clip& clip : clips_) {
        const double from = std::max(startSeconds, static_cast<double>(clip.start) / clip.rateHz);
        const double to = std::min(endSeconds, static_cast<double>(clip.start + clip.length) / clip.rateHz);
        if (to - from > bestOverlap) {
            bestOverlap = to - from;
            best = &clip;
        }
    }
    return best;
}

std::vector<float> EventAudio::extract(double startSeconds, double endSeconds, int mic) const {
    const Clip* clip = bestClip(startSeconds, endSeconds);
    if (!clip || (mic >= 0 && (static_cast<std::size_t>(mic) >= clip->mics.size() || clip->mics[static_cast<std::size_t>(mic)].empty()))) return {};
    const std::int64_t first = std::clamp<std::int64_t>(std::llround(startSeconds * clip->rateHz) - clip->start, 0, clip->length);
    const std::int64_t last = std::clamp<std::int64_t>(std::llround(endSeconds * clip->rateHz) - clip->start, first, clip->length);
    std::vector<float> out(static_cast<std::size_t>(last - first), 0.0f);
    int mixed = 0;
    for (std::size_t m = 0; m < clip->mics.size(); ++m) {
        if ((mic >= 0 && m != static_cast<std::size_t>(mic)) || clip->mics[m].empty()) continue;
        for (std::size_t i = 0; i < out.size(); ++i) out[i] += clip->mics[m][static_cast<std::size_t>(first) + i];
        ++mixed;
    }
    if (mixed > 1) {
        for (float& v : out) v /= static_cast<float>(mixed);
    }
    return out;
}

double EventAudio::rateOf(double startSeconds, double endSeconds) const {
    const Clip* clip = bestClip(startSeconds, endSeconds);
    return clip ? clip->rateHz : 0.0;
}

int EventAudio::mics() const { return clips_.empty() ? 0 : static_cast<int>(clips_.back().mics.size()); }

void EventAudio::clear() {
    clips_.clear();
    held_ = 0;
}

}  // namespace isochron::ui
