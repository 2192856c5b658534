// Windower<T>: cuts a stream of SigSegs into fixed windows on a grid, without copying samples.
//
// Windows of `window` samples start at firstIndex + k * hop, where firstIndex is the first sample
// the windower sees: hop < window overlaps windows, hop > window skips samples between them. Incoming
// segments are appended to one pending SigSeg (copy-free), each complete window is a subseg of it,
// and samples no later window needs are dropped (those of the newest segment, which shares their
// storage, once the next one arrives), so at most about window + one segment is held. A segment that is itself exactly the next window (source blocks aligned with the windows)
// is passed on as is: same storage, no work.
//
// A jump in startIndex (lost samples) drops the windows that would span it; windowing resumes at
// the first grid position at or after the jump. A change of timebase starts a new grid there.
// Used by segments.rewindow and, for its analysis windows, detect.silence_detector.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/signal/sigseg.h"

namespace isochron {

/// Grid-aligned, copy-free windowing of one signal stream of T. [one thread] [no system allocation]
template <class T>
class Windower {
public:
    using Sample = T;

    /// Windows of `window` samples every `hop` samples; both >= 1.
    Windower(std::int64_t window, std::int64_t hop) : window_(window), hop_(hop) {
        if (window < 1 || hop < 1) throw std::invalid_argument("Windower: window and hop must be at least 1 sample");
    }

    /// Whether `next` continues what was pushed so far (same timebase, no jump); true for the first.
    bool continuesStream(const SegmentHandle& next) const {
        return !started_ || (next.timebase() == timebase_ && next.startIndex() == receivedEnd_);
    }

    /// Feed the next segment of the stream; calls onWindow(SigSeg<T>&&) for every window it
    /// completes, in order. Throws std::invalid_argument if `segment` starts before the end of the
    /// previous one (a stream never goes back). [pool allocation at most]
    template <class OnWindow>
    void push(SigSeg<T> segment, OnWindow&& onWindow) {
        if (segment.empty()) return;
        if (!started_ || segment.timebase() != timebase_) {
            started_ = true;
            timebase_ = segment.timebase();
            gridOrigin_ = segment.startIndex();
            nextStart_ = gridOrigin_;
            pending_ = SigSeg<T>();
        } else if (segment.startIndex() < receivedEnd_) {
            throw std::invalid_argument("input goes back in time: a segment starts at sample " +
                                        std::to_string(segment.startIndex()) + " after samples up to " +
                                        std::to_string(receivedEnd_) + " arrived");
        } else if (segment.startIndex() > receivedEnd_) {
            pending_ = SigSeg<T>();
            nextStart_ = std::max(nextStart_, firstGridIndexAtOrAfter(segment.startIndex()));
        }
        receivedEnd_ = segment.endIndex();
        if (receivedEnd_ <= nextStart_) return;  // only samples between windows (hop > window)
        const std::int64_t segmentStart = segment.startIndex();

        if (pending_.empty()) {
            pending_ = std::move(segment);
        } else {
            pending_.append(segment);
        }
        while (nextStart_ + window_ <= pending_.endIndex()) {
            const bool neededLater = nextStart_ + hop_ < pending_.endIndex();
            if (!neededLater && nextStart_ == pending_.startIndex() && window_ == pending_.length()) {
                nextStart_ += hop_;
                onWindow(std::exchange(pending_, SigSeg<T>()));  // the held samples are exactly this window
                return;
            }
            SigSeg<T> window = pending_.subseg(nextStart_, window_);
            nextStart_ += hop_;  // before the callback, so that it sees where the next window starts
            onWindow(std::move(window));
        }
        if (nextStart_ >= pending_.endIndex()) {
            pending_ = SigSeg<T>();
        } else if (nextStart_ > pending_.startIndex() && nextStart_ >= segmentStart && segment.list() != nullptr &&
                   segment.list()->referenceCount() > 1) {
            // Samples that all came with this segment are held through it when its storage list is
            // shared: its producer cuts segments from one longer view, so the next one continues that
            // list and appending it costs no list work (and the pieces gathered so far are let go).
            // The segment is held whole, not re-cut: its samples before nextStart_ share its storage
            // anyway, and a move costs no reference-count updates (a subseg costs two).
            pending_ = std::move(segment);
        } else if (nextStart_ > pending_.startIndex() && pending_.startIndex() < segmentStart) {
            // Samples of earlier segments no window needs: re-cut so that they are let go.
            pending_ = pending_.subseg(nextStart_, pending_.endIndex() - nextStart_);
        }
    }

    /// Forget the stream and release the samples held; the next push starts a new grid.
    void reset() {
        pending_ = SigSeg<T>();
        started_ = false;
    }

    /// Index of the oldest sample held for windows not yet complete; nullopt when none is held.
    std::optional<std::int64_t> oldestHeldIndex() const {
        if (pending_.empty()) return std::nullopt;
        return std::max(pending_.startIndex(), nextStart_);
    }
    /// Timebase of the stream (null before the first segment).
    const Timebase* timebase() const { return timebase_; }
    /// Start index of the next window to complete (meaningful once a segment arrived).
    std::int64_t nextWindowStart() const { return nextStart_; }

private:
    std::int64_t firstGridIndexAtOrAfter(std::int64_t index) const {
        const std::int64_t steps = (index - gridOrigin_ + hop_ - 1) / hop_;
        return gridOrigin_ + steps * hop_;
    }

    std::int64_t window_;
    std::int64_t hop_;
    bool started_ = false;
    const Timebase* timebase_ = nullptr;
    std::int64_t gridOrigin_ = 0;
    std::int64_t nextStart_ = 0;    // start of the next window to complete
    std::int64_t receivedEnd_ = 0;  // one past the newest sample received
    // Samples from max(nextStart_, first held) to receivedEnd_; it may also view the part of the
    // newest segment before nextStart_ (that segment held whole: same storage, no re-cut).
    SigSeg<T> pending_;
};

}  // namespace isochron
