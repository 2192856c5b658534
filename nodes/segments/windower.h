// Windower<T>: cuts a stream of SigSegs into fixed windows on a grid, without copying samples.
//
// Windows of `window` samples start at firstIndex + k * hop, where firstIndex is the first sample
// the windower sees: hop < window overlaps windows, hop > window skips samples between them. Incoming
// segments are appended to one pending SigSeg (copy-free), each complete window is a subseg of it
// (the last window the held view serves is that view, narrowed in place), and samples no later
// window needs are dropped (those of the newest segment, which shares their storage, once the next
// one arrives), so at most about window + one segment is held. A segment that is itself exactly the
// next window (source blocks aligned with the windows) is passed on as is: same storage, no work.
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
        // Samples that all came with this segment can be held through it when its storage list is
        // shared: its producer cuts segments from one longer view, so the next one continues that
        // list and appending it costs no list work (and the pieces gathered so far are let go). The
        // segment is then held whole: its samples before nextStart_ share its storage anyway.
        const bool segmentShared = segment.list() != nullptr && segment.list()->referenceCount() > 1;
        while (nextStart_ + window_ <= pending_.endIndex()) {
            const std::int64_t start = nextStart_;
            nextStart_ += hop_;  // before the callback, so that it sees where the next window starts
            const bool lastWindow = nextStart_ + window_ > pending_.endIndex();
            if (lastWindow && (nextStart_ >= pending_.endIndex() || (segmentShared && nextStart_ >= segmentStart))) {
                // No later window needs the held view (or only samples held through the segment
                // below): the view itself becomes this window, narrowed in place. A subseg and the
                // release of the view cost two reference-count updates.
                pending_.narrow(start, window_);
                onWindow(SigSeg<T>(std::move(pending_)));
                break;
            }
            onWindow(pending_.subseg(start, window_));
        }
        if (nextStart_ >= receivedEnd_) {
            pending_ = SigSeg<T>();
        } else if (segmentShared && nextStart_ >= segmentStart) {
            pending_ = std::move(segment);
        } else if (nextStart_ > pending_.startIndex() && pending_.startIndex() < segmentStart) {
            pending_.narrow(nextStart_, receivedEnd_ - nextStart_);  // let go of what earlier segments brought
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

    /// A SigSeg whose view narrows in place. Only this handle's view changes (the storage it
    /// shares never does), so narrowing costs no reference-count updates, unlike a subseg of a
    /// handle that is then dropped.
    class HeldSamples : public SigSeg<T> {
    public:
        HeldSamples& operator=(SigSeg<T>&& other) noexcept {
            SigSeg<T>::operator=(std::move(other));
            return *this;
        }
        /// Keep samples [absoluteStart, absoluteStart + length), which lie inside the view.
        void narrow(std::int64_t absoluteStart, std::int64_t length) noexcept {
            this->offset_ += absoluteStart - this->startIndex_;
            this->startIndex_ = absoluteStart;
            this->length_ = length;
        }
    };

    std::int64_t window_;
    std::int64_t hop_;
    bool started_ = false;
    const Timebase* timebase_ = nullptr;
    std::int64_t gridOrigin_ = 0;
    std::int64_t nextStart_ = 0;    // start of the next window to complete
    std::int64_t receivedEnd_ = 0;  // one past the newest sample received
    // Samples from max(nextStart_, first held) to receivedEnd_; it may also view the part of the
    // newest segment before nextStart_ (that segment held whole: same storage, no re-cut).
    HeldSamples pending_;
};

}  // namespace isochron
