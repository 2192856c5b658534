// ChannelInterleaver: the signals of several inputs held by sample index until every input has
// delivered a frame, then interleaved into frames (channel k = input k) for a file or a device.
// Samples are held as shared SigSegs (never copied until interleaved); a hole in an input (a gap,
// a late start, an early end) reads as zeros.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/signal/sigseg.h"

namespace isochron {

/// Per-input pending samples and their interleaving. [one thread] [no system allocation once warmed up]
class ChannelInterleaver {
public:
    /// What add() found about a segment. [value type]
    struct Added {
        std::int64_t repeatedBefore = -1;  ///< >= 0: samples before this index had arrived already and were dropped
        std::int64_t gapFrom = -1;         ///< >= 0: samples [gapFrom, segment start) never arrived
    };

    /// Forget everything and expect `channels` inputs. [allocates]
    void reset(int channels);
    /// Hold input `channel`'s next segment (the part before what it already delivered is dropped).
    Added add(int channel, SigSeg<float> samples);
    /// Whether every input has delivered at least one sample.
    bool allDelivered() const;
    /// Whether input `channel` delivered any sample.
    bool delivered(int channel) const { return inputs_[static_cast<std::size_t>(channel)].delivered; }
    /// One past the last index input `channel` delivered.
    std::int64_t end(int channel) const { return inputs_[static_cast<std::size_t>(channel)].end; }
    /// The first index input `channel` holds (its end when it holds nothing).
    std::int64_t firstHeld(int channel) const;
    /// The smallest end over all inputs: every input has delivered (or skipped) every frame before it.
    std::int64_t alignedEnd() const;
    /// The largest end over the inputs that delivered anything.
    std::int64_t latestEnd() const;
    /// Frames [from, from + frames) into `interleaved` (frames x channels), zeros where an input has none.
    void interleave(std::int64_t from, std::int64_t frames, float* interleaved) const;
    /// Drop the samples before index `before`.
    void release(std::int64_t before);

private:
    struct Input {
        std::vector<SigSeg<float>> pending;  // in index order, not overlapping; holes between them are gaps
        std::int64_t end = 0;
        bool delivered = false;
    };
    std::vector<Input> inputs_;
};

}  // namespace isochron
