// SignalBuffer<T>: the recent segments of one signal input, looked up by time, held without copying.
//
// Segments are kept as they arrived (a FIFO of shared SigSegs). A lookup by time span cuts the
// covered samples out with subseg and joins adjacent ones with append, so the answer is one SigSeg
// per contiguous run (a jump in startIndex, i.e. lost samples, separates runs). Discarding by time
// drops whole segments from the front, which releases their storage at once.
// Used by segments.sync to hold each data input until the ranges that need it are known.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/runtime/ring_buffer.h"
#include "engine/signal/sigseg.h"

namespace isochron {

/// Time-addressed FIFO of SigSeg<T>. [one thread] [no system allocation once warmed up]
template <class T>
class SignalBuffer {
public:
    using Sample = T;

    /// Keep `segment` (shared, not copied). Throws std::invalid_argument if it starts before the end
    /// of the previous segment on the same timebase (a stream never goes back).
    void push(SigSeg<T> segment) {
        if (segment.empty()) return;
        if (segment.timebase() == timebase_ && segment.startIndex() < receivedEnd_) {
            throw std::invalid_argument("input goes back in time: a segment starts at sample " +
                                        std::to_string(segment.startIndex()) + " after samples up to " +
                                        std::to_string(receivedEnd_) + " arrived");
        }
        timebase_ = segment.timebase();
        receivedEnd_ = segment.endIndex();
        segments_.push(std::move(segment));
    }

    /// Whether no sample with time < t can still arrive because a sample at or after t already did
    /// (samples arrive in time order).
    bool receivedThrough(TimeNs t) const { return timebase_ && timebase_->firstIndexAtOrAfter(t) <= receivedEnd_; }

    /// Calls f(SigSeg<T>&&) for the held samples with times in [startTime, endTime), one SigSeg per
    /// contiguous run, in order; returns how many. [pool allocation at most]
    template <class F>
    int forEachRunIn(TimeNs startTime, TimeNs endTime, F&& f) const {
        int runs = 0;
        SigSeg<T> run;
        const Timebase* convertedFor = nullptr;
        std::int64_t first = 0;  // [first, end) on convertedFor: the span in sample indices
        std::int64_t end = 0;
        for (std::size_t i = 0; i < segments_.size(); ++i) {
            const SigSeg<T>& segment = segments_[i];
            if (segment.timebase() != convertedFor) {
                convertedFor = segment.timebase();
                first = convertedFor->firstIndexAtOrAfter(startTime);
                end = convertedFor->firstIndexAtOrAfter(endTime);
            }
            if (segment.startIndex() >= end) break;  // this and all later samples are too late
            const std::int64_t from = std::max(first, segment.startIndex());
            const std::int64_t to = std::min(end, segment.endIndex());
            if (from >= to) continue;
            SigSeg<T> piece = segment.subseg(from, to - from);
            if (!run.empty() && run.timebase() == piece.timebase() && run.endIndex() == piece.startIndex()) {
                run.append(piece);
                continue;
            }
            if (!run.empty()) {
                f(std::move(run));
                ++runs;
            }
            run = std::move(piece);
        }
        if (!run.empty()) {
            f(std::move(run));
            ++runs;
        }
        return runs;
    }

    /// Drop the segments whose samples all have times < t.
    void discardBefore(TimeNs t) {
        while (!segments_.empty()) {
            const SigSeg<T>& oldest = segments_.front();
            if (oldest.endIndex() > oldest.timebase()->firstIndexAtOrAfter(t)) return;
            segments_.pop();
        }
    }

private:
    RingBuffer<SigSeg<T>> segments_;
    const Timebase* timebase_ = nullptr;  // of the newest segment
    std::int64_t receivedEnd_ = 0;        // one past the newest sample, on timebase_
};

}  // namespace isochron
