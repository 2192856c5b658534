#include "nodes/io/channel_interleaver.h"

#include <algorithm>
#include <limits>

namespace isochron {
namespace {

/// Segments one input may hold before its pending list grows (it grows while other inputs lag).
constexpr std::size_t kPendingReserve = 64;

}  // namespace

void ChannelInterleaver::reset(int channels) {
    inputs_.assign(static_cast<std::size_t>(channels), {});
    for (Input& input : inputs_) input.pending.reserve(kPendingReserve);
}

ChannelInterleaver::Added ChannelInterleaver::add(int channel, SigSeg<float> samples) {
    Added added;
    Input& input = inputs_[static_cast<std::size_t>(channel)];
    if (samples.empty()) return added;
    if (input.delivered && samples.startIndex() < input.end) {
        added.repeatedBefore = input.end;
        if (samples.endIndex() <= input.end) return added;
        samples = samples.subseg(input.end, samples.endIndex() - input.end);
    }
    if (input.delivered && samples.startIndex() > input.end) added.gapFrom = input.end;
    input.end = samples.endIndex();
    input.delivered = true;
    input.pending.push_back(std::move(samples));
    return added;
}

bool ChannelInterleaver::allDelivered() const {
    return std::all_of(inputs_.begin(), inputs_.end(), [](const Input& input) { return input.delivered; });
}

std::int64_t ChannelInterleaver::firstHeld(int channel) const {
    const Input& input = inputs_[static_cast<std::size_t>(channel)];
    return input.pending.empty() ? input.end : input.pending.front().startIndex();
}

std::int64_t ChannelInterleaver::alignedEnd() const {
    std::int64_t aligned = std::numeric_limits<std::int64_t>::max();
    for (const Input& input : inputs_) aligned = std::min(aligned, input.end);
    return aligned;
}

std::int64_t ChannelInterleaver::latestEnd() const {
    std::int64_t latest = 0;
    for (const Input& input : inputs_) {
        if (input.delivered) latest = std::max(latest, input.end);
    }
    return latest;
}

void ChannelInterleaver::interleave(std::int64_t from, std::int64_t frames, float* interleaved) const {
    const auto channels = static_cast<std::int64_t>(inputs_.size());
    std::fill_n(interleaved, frames * channels, 0.0f);
    for (std::int64_t c = 0; c < channels; ++c) {
        for (const SigSeg<float>& segment : inputs_[static_cast<std::size_t>(c)].pending) {
            if (segment.startIndex() >= from + frames) break;
            const std::int64_t lo = std::max(from, segment.startIndex());
            const std::int64_t hi = std::min(from + frames, segment.endIndex());
            if (lo >= hi) continue;
            float* out = interleaved + (lo - from) * channels + c;
            segment.subseg(lo, hi - lo).forEachSpan([&](std::span<const float> run) {
                for (float v : run) {
                    *out = v;
                    out += channels;
                }
            });
        }
    }
}

void ChannelInterleaver::release(std::int64_t before) {
    for (Input& input : inputs_) {
        auto& pending = input.pending;
        auto firstKept = std::find_if(pending.begin(), pending.end(), [&](const SigSeg<float>& s) { return s.endIndex() > before; });
        pending.erase(pending.begin(), firstKept);
        if (!pending.empty() && pending.front().startIndex() < before) {
            pending.front() = pending.front().subseg(before, pending.front().endIndex() - before);
        }
    }
}

}  // namespace isochron
