// SigSeg<T>: a value-semantics handle to a run of isochronous samples (XStream's signal segment).
//
// A SigSeg names samples [startIndex, startIndex + length) of a stream on a Timebase. Copies share
// storage (reference counts, RefCount-Lazy): subseg() and append() never copy samples, iteration walks
// the pieces in place, materialize() makes one contiguous span only when asked (and caches it), and
// writable() copies only when the storage is shared (copy-on-write).
//
// A stream with lost samples shows a jump in startIndex between consecutive segments; append() of
// non-adjacent segments is refused rather than silently stitched.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <span>
#include <stdexcept>
#include <string>

#include "engine/signal/sample_type.h"
#include "engine/signal/segment_list.h"
#include "engine/time/timebase.h"

namespace isochron {

/// Untyped owning view of a SegmentList range; the storage shared by all SigSeg<T>. [any thread]
/// Members that do not say otherwise neither allocate nor block.
class SegmentHandle {
public:
    SegmentHandle() = default;
    // Copies and moves are inline: every Item copy or move makes one, and out of line each was a call
    // into the engine library.
    SegmentHandle(const SegmentHandle& other) noexcept
        : list_(other.list_), offset_(other.offset_), length_(other.length_), startIndex_(other.startIndex_),
          timebase_(other.timebase_) {
        if (list_) list_->addRef();
    }
    SegmentHandle(SegmentHandle&& other) noexcept
        : list_(other.list_), offset_(other.offset_), length_(other.length_), startIndex_(other.startIndex_),
          timebase_(other.timebase_) {
        other.list_ = nullptr;
        other.length_ = 0;
        other.offset_ = 0;
    }
    SegmentHandle& operator=(const SegmentHandle& other) noexcept {
        if (this != &other) {
            if (other.list_) other.list_->addRef();
            if (list_) list_->release();
            list_ = other.list_;
            offset_ = other.offset_;
            length_ = other.length_;
            startIndex_ = other.startIndex_;
            timebase_ = other.timebase_;
        }
        return *this;
    }
    SegmentHandle& operator=(SegmentHandle&& other) noexcept {
        if (this != &other) {
            if (list_) list_->release();
            list_ = other.list_;
            offset_ = other.offset_;
            length_ = other.length_;
            startIndex_ = other.startIndex_;
            timebase_ = other.timebase_;
            other.list_ = nullptr;
            other.length_ = 0;
            other.offset_ = 0;
        }
        return *this;
    }
    ~SegmentHandle() { if (list_) list_->release(); }

    std::int64_t length() const noexcept { return length_; }
    bool empty() const noexcept { return length_ == 0; }
    /// Absolute index of the first sample in its timebase.
    std::int64_t startIndex() const noexcept { return startIndex_; }
    /// One past the last sample's index.
    std::int64_t endIndex() const noexcept { return startIndex_ + length_; }
    /// The stream's timebase (null only for frames whose values are not samples in time).
    const Timebase* timebase() const noexcept { return timebase_; }
    SampleType sampleType() const noexcept { return list_ ? list_->sampleType() : SampleType::None; }
    /// Time of the first sample and one-past-the-last, on timebase()'s clock.
    TimeNs startTime() const { return timebase_->timeOf(startIndex_); }
    TimeNs endTime() const { return timebase_->timeOf(endIndex()); }

    /// Number of storage pieces the view spans (1 = contiguous without copying).
    std::uint32_t pieceCount() const noexcept;
    /// The shared list (for tests and the memory telemetry; null when empty).
    const SegmentList* list() const noexcept { return list_; }
    /// Identity of the storage (see SegmentList::identity); with startIndex() and length() it
    /// names these exact samples, so derived results can be cached without holding a reference.
    std::uint64_t storageIdentity() const noexcept { return list_ ? list_->identity() : 0; }

    /// Calls f(const std::byte* data, std::int64_t count) for each contiguous run, in order. [no allocation]
    template <class F> void forEachRun(F&& f) const {
        const std::size_t elementSize = sampleSize(sampleType());
        forEachPiece([&](const SegmentPiece& p, std::int64_t skip, std::int64_t take) {
            f(p.block->data() + static_cast<std::size_t>(p.offset + skip) * elementSize, take);
        });
    }
    /// Calls f(piece, skip, take) for each storage piece the view covers. [no allocation]
    template <class F> void forEachPiece(F&& f) const {
        std::int64_t skip = offset_;
        std::int64_t remaining = length_;
        for (std::uint32_t i = 0; remaining > 0; ++i) {
            const SegmentPiece& p = list_->piece(i);
            if (skip >= p.length) {
                skip -= p.length;
                continue;
            }
            std::int64_t take = std::min(p.length - skip, remaining);
            f(p, skip, take);
            remaining -= take;
            skip = 0;
        }
    }

protected:
    SegmentHandle(SegmentList* adoptedList, std::int64_t offset, std::int64_t length, std::int64_t startIndex,
                  const Timebase* timebase) noexcept
        : list_(adoptedList), offset_(offset), length_(length), startIndex_(startIndex), timebase_(timebase) {}

    static SegmentHandle wrapBlock(SampleType type, SampleBlock* block, std::int64_t offsetSamples, std::int64_t length,
                                   std::int64_t startIndex, const Timebase* timebase);
    static SegmentHandle allocateUntyped(SampleType type, std::int64_t length, std::int64_t startIndex,
                                         const Timebase* timebase);
    SegmentHandle subsegUntyped(std::int64_t absoluteStart, std::int64_t length) const;
    void appendInPlace(const SegmentHandle& next);
    const std::byte* materializeUntyped() const;
    std::byte* writableUntyped();

    SegmentList* list_ = nullptr;
    std::int64_t offset_ = 0;  // samples skipped at the start of list_
    std::int64_t length_ = 0;
    std::int64_t startIndex_ = 0;
    const Timebase* timebase_ = nullptr;
};

/// A segment of samples of type T (float, double, int16_t, std::complex<float>). [any thread]
/// Members that do not say otherwise neither allocate nor block.
template <class T>
class SigSeg : public SegmentHandle {
public:
    static constexpr SampleType kType = SampleTypeOf<T>::value;

    SigSeg() = default;

    /// Fresh pool storage for `length` samples, uninitialized; fill it through writable(). [pool allocation]
    static SigSeg allocate(std::int64_t length, std::int64_t startIndex, const Timebase* timebase) {
        return SigSeg(allocateUntyped(kType, length, startIndex, timebase));
    }
    /// A segment holding a copy of `samples`. [pool allocation]
    static SigSeg copyOf(std::span<const T> samples, std::int64_t startIndex, const Timebase* timebase) {
        SigSeg seg = allocate(static_cast<std::int64_t>(samples.size()), startIndex, timebase);
        if (!samples.empty()) std::memcpy(seg.writable().data(), samples.data(), samples.size_bytes());
        return seg;
    }
    /// A segment sharing `length` samples of `block` from sample `offset` (takes its own reference).
    static SigSeg wrap(SampleBlock* block, std::int64_t offset, std::int64_t length, std::int64_t startIndex,
                       const Timebase* timebase) {
        return SigSeg(wrapBlock(kType, block, offset, length, startIndex, timebase));
    }

    /// Samples [absoluteStart, absoluteStart + length) of this segment, sharing storage. Throws
    /// std::out_of_range when the range is not inside the segment. [no allocation]
    SigSeg subseg(std::int64_t absoluteStart, std::int64_t length) const {
        return SigSeg(subsegUntyped(absoluteStart, length));
    }
    /// This segment followed by `next`, which must start where this one ends on the same timebase
    /// (std::invalid_argument otherwise: a gap is never stitched). Shares storage. [pool allocation at most]
    SigSeg& append(const SigSeg& next) {
        appendInPlace(next);
        return *this;
    }
    /// The union of two adjacent segments; see append().
    static SigSeg concat(SigSeg first, const SigSeg& second) { return std::move(first.append(second)); }

    /// Sample at relative position i (0 <= i < length). O(pieces); prefer iteration or materialize().
    T at(std::int64_t i) const {
        if (i < 0 || i >= length_) throw std::out_of_range("SigSeg::at: index outside the segment");
        T value{};
        forEachSpan([&](std::span<const T> run) {
            if (i >= 0 && i < static_cast<std::int64_t>(run.size())) value = run[static_cast<std::size_t>(i)];
            i -= static_cast<std::int64_t>(run.size());
        });
        return value;
    }

    /// Calls f(std::span<const T>) for each contiguous run, in order, without copying. [no allocation]
    template <class F> void forEachSpan(F&& f) const {
        forEachRun([&](const std::byte* data, std::int64_t count) {
            f(std::span<const T>(reinterpret_cast<const T*>(data), static_cast<std::size_t>(count)));
        });
    }

    /// All samples as one contiguous span: free for a single piece, else copied once and cached
    /// with the storage. Valid while any SigSeg shares this storage. [allocates only for several pieces]
    std::span<const T> materialize() const {
        return {reinterpret_cast<const T*>(materializeUntyped()), static_cast<std::size_t>(length_)};
    }
    /// Mutable contiguous samples; copies first unless this handle is the storage's only user.
    std::span<T> writable() {
        return {reinterpret_cast<T*>(writableUntyped()), static_cast<std::size_t>(length_)};
    }

    /// Forward iterator over samples across pieces; no materialization.
    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using pointer = const T*;
        using reference = const T&;

        const_iterator() = default;
        reference operator*() const { return *current_; }
        const_iterator& operator++() {
            ++current_;
            --remaining_;
            if (current_ == runEnd_ && remaining_ > 0) enterPiece(piece_ + 1, 0);
            return *this;
        }
        const_iterator operator++(int) { auto copy = *this; ++*this; return copy; }
        bool operator==(const const_iterator& other) const { return remaining_ == other.remaining_; }

    private:
        friend class SigSeg;
        const_iterator(const SegmentList* list, std::int64_t skip, std::int64_t remaining)
            : list_(list), remaining_(remaining) {
            if (remaining_ == 0) return;
            std::uint32_t index = 0;
            while (skip >= list_->piece(index).length) skip -= list_->piece(index++).length;
            enterPiece(index, skip);
        }
        void enterPiece(std::uint32_t index, std::int64_t skip) {
            piece_ = index;
            const SegmentPiece& p = list_->piece(index);
            current_ = reinterpret_cast<const T*>(p.block->data()) + p.offset + skip;
            std::int64_t run = std::min(p.length - skip, remaining_);
            runEnd_ = current_ + run;
        }
        const SegmentList* list_ = nullptr;
        std::uint32_t piece_ = 0;
        const T* current_ = nullptr;
        const T* runEnd_ = nullptr;
        std::int64_t remaining_ = 0;
    };
    const_iterator begin() const { return const_iterator(list_, offset_, length_); }
    const_iterator end() const { return const_iterator(); }

    /// Reinterpret an untyped handle whose sampleType() is T (checked).
    static SigSeg fromHandle(SegmentHandle handle) {
        if (!handle.empty() && handle.sampleType() != kType) {
            throw std::invalid_argument("SigSeg: handle holds " + std::string(sampleTypeName(handle.sampleType())) +
                                        " samples, not " + std::string(sampleTypeName(kType)));
        }
        return SigSeg(std::move(handle));
    }

private:
    explicit SigSeg(SegmentHandle&& handle) : SegmentHandle(std::move(handle)) {}
};

}  // namespace isochron
