// AlignedInputs: the f32 signals of several inputs held by sample index until every input has
// delivered a range, then read channel by channel over that range. Operators that combine inputs
// sample by sample (mix, merge, add, expression) share it. Samples are held as shared SigSegs and
// read in place when a range lies in one contiguous run; a hole in an input (a gap, a late start,
// an early end) reads as zeros.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/signal/sigseg.h"

namespace isochron {

/// Per-input pending samples on one timebase, read aligned. [one thread] [no system allocation once warmed up]
class AlignedInputs {
public:
    /// Forget everything and expect `inputs` inputs. [allocates]
    void reset(int inputs);
    /// Hold input `input`'s next segment (a part it delivered before is dropped). Throws
    /// std::invalid_argument when the segment is on another timebase than the first one held.
    void add(int input, SigSeg<float> samples);
    /// The timebase of the samples (null before the first).
    const Timebase* timebase() const { return timebase_; }
    /// The first index not yet read out: the earliest first sample until release() moves it.
    std::int64_t next() const;
    /// The index before which every input k has delivered its samples, or promised none: promised[k]
    /// is the first index its progress does not rule out (INT64_MAX once it ended). Capped at
    /// latestEnd(): what can be read out now, holes as zeros.
    std::int64_t readableEnd(std::span<const std::int64_t> promised) const;
    /// The largest index an input delivered up to (the end of the stream once inputs ended).
    std::int64_t latestEnd() const;
    /// The largest start or end of a held segment in (after, end], or `after` if there is none.
    std::int64_t lastBoundaryAtOrBefore(std::int64_t end, std::int64_t after) const;
    /// The smallest start or end of a held segment in (from, limit], or `limit` if there is none.
    std::int64_t nextBoundaryAfter(std::int64_t from, std::int64_t limit) const;
    /// Whether any sample is held.
    bool holdsSamples() const;
    /// Input `input`'s samples [from, from + count): a view of its storage when one run holds them
    /// all, else gathered into `scratch` (resized to `count`) with zeros in holes. Valid until the
    /// next add() or release().
    std::span<const float> read(int input, std::int64_t from, std::int64_t count, std::vector<float>& scratch) const;
    /// Drop every sample before index `before`.
    void release(std::int64_t before);

private:
    struct Input {
        std::vector<SigSeg<float>> pending;  // in index order, not overlapping
        std::int64_t end = 0;
        bool delivered = false;
    };
    std::vector<Input> inputs_;
    const Timebase* timebase_ = nullptr;
    std::int64_t released_ = 0;
    bool releasedKnown_ = false;
};

}  // namespace isochron
