// StftFramer: cuts one signal stream into the analysis frames of a short-time transform, copy-free.
//
// Frames of `size` samples start every `hop` samples on a grid anchored at the stream's first
// sample (a Windower does the cutting: frames are views of the incoming segments). With edge
// padding the grid starts size - hop samples before the first sample, and at the end of the stream
// frames continue, zero-padded, until the last sample has been in every frame that can hold it, so
// that an overlap-add synthesis (overlap_add.h) rebuilds every sample, the first and last included.
// Each frame's range is its window's position [start, start + size), cut at the stream's end for the
// padded frames that reach past it: a range shorter than `size` tells the synthesis where the
// stream ends. A jump in the start index (lost samples) or a new timebase ends the stream there
// (its final frames are flushed) and starts a new one: frames never stitch across a gap.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

#include "engine/items/sample_range.h"
#include "nodes/segments/windower.h"

namespace isochron {

/// Frames of one f32 stream for a short-time transform. [one thread] [pool allocation only at stream edges]
class StftFramer {
public:
    /// Frames of `size` samples every `hop` samples (1 <= hop <= size); `padEdges` as described above.
    StftFramer(std::int64_t size, std::int64_t hop, bool padEdges)
        : size_(size), hop_(hop), padding_(padEdges ? size - hop : 0), padEdges_(padEdges), windower_(size, hop) {
        if (hop < 1 || hop > size) throw std::invalid_argument("hop must be between 1 and the frame size");
    }

    /// Feed the next segment; calls onFrame(const SigSeg<float>& samples, SampleRange range) for
    /// every frame it completes, in order (and first flushes the previous stream after a gap).
    template <class OnFrame>
    void push(SigSeg<float> segment, OnFrame&& onFrame) {
        if (segment.empty()) return;
        if (started_ && !windower_.continuesStream(segment)) finish(onFrame);
        if (!started_) {
            started_ = true;
            timebase_ = segment.timebase();
            if (padding_ > 0) feed(zeros(segment.startIndex() - padding_, padding_), onFrame);
        }
        end_ = segment.endIndex();
        feed(std::move(segment), onFrame);
    }

    /// The stream ended: with edge padding, emit the zero-padded frames that complete its last
    /// samples. The next push starts a new stream. [pool allocation]
    template <class OnFrame>
    void finish(OnFrame&& onFrame) {
        if (!started_) return;
        const std::int64_t next = windower_.nextWindowStart();
        if (padEdges_ && next < end_) {  // also without overlap (hop = size): the last, partial frame
            const std::int64_t lastStart = next + (end_ - 1 - next) / hop_ * hop_;  // last grid start before end_
            const std::int64_t streamEnd = end_;
            feed(zeros(end_, lastStart + size_ - end_), onFrame, streamEnd);
        }
        windower_.reset();
        started_ = false;
    }

    /// The earliest time a frame still to come can start, given that no input sample before
    /// `inputProgress` will arrive; kBeginningOfTime before the first segment (the timebase is not
    /// known yet). [no allocation]
    TimeNs promise(TimeNs inputProgress) const {
        if (!timebase_) return kBeginningOfTime;
        std::int64_t earliest = started_ ? windower_.nextWindowStart() : kNoFrame;
        if (inputProgress != kEndOfTime) {
            earliest = std::min(earliest, timebase_->firstIndexAtOrAfter(inputProgress) - padding_);
        }
        return earliest == kNoFrame ? inputProgress : std::min(inputProgress, timebase_->timeOf(earliest));
    }

    std::int64_t size() const { return size_; }
    std::int64_t hop() const { return hop_; }

private:
    static constexpr std::int64_t kNoFrame = std::numeric_limits<std::int64_t>::max();

    SigSeg<float> zeros(std::int64_t start, std::int64_t length) const {
        SigSeg<float> silence = SigSeg<float>::allocate(length, start, timebase_);
        std::span<float> samples = silence.writable();
        std::fill(samples.begin(), samples.end(), 0.0f);
        return silence;
    }

    template <class OnFrame>
    void feed(SigSeg<float> segment, OnFrame& onFrame, std::int64_t streamEnd = kNoFrame) {
        windower_.push(std::move(segment), [&](SigSeg<float>&& frame) {
            SampleRange range{frame.timebase(), frame.startIndex(), std::min(frame.endIndex(), streamEnd) - frame.startIndex()};
            onFrame(frame, range);
        });
    }

    std::int64_t size_;
    std::int64_t hop_;
    std::int64_t padding_;  // zeros before the first sample: size - hop with edge padding
    bool padEdges_;
    Windower<float> windower_;
    bool started_ = false;
    const Timebase* timebase_ = nullptr;  // of the current (or last) stream
    std::int64_t end_ = 0;                // one past the newest real sample
};

}  // namespace isochron
