// RefCount-Lazy storage behind SigSegs (XStream, section III-B, Fig. 5).
//
// Two levels of reference counting: a SigSeg handle points at a SegmentList, and the list holds
// references to the SampleBlocks its pieces come from. subseg() shares the list (a new view, no
// allocation); append() splices lists (in place when the left list is not shared) and merges a piece
// that continues the previous one in the same block, so re-joining slices of one block stays a
// single piece. Samples are copied only by materialize() of a view spanning several pieces (cached on
// the list) and by copy-on-write.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "engine/signal/sample_block.h"
#include "engine/signal/sample_type.h"

namespace isochron {

/// A run of samples inside one block. Offsets and lengths are in samples.
struct SegmentPiece {
    SampleBlock* block;
    std::int64_t offset;
    std::int64_t length;
};

/// Reference-counted, ordered list of pieces; immutable once shared. [any thread]
class SegmentList {
public:
    /// An empty list with room for `pieceCapacity` pieces and one reference. [pool allocation]
    static SegmentList* create(SampleType type, std::uint32_t pieceCapacity);

    void addRef() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
    void release() noexcept {
        if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy();
    }
    bool unique() const noexcept { return refs_.load(std::memory_order_acquire) == 1; }
    std::uint32_t referenceCount() const noexcept { return refs_.load(std::memory_order_relaxed); }

    SampleType sampleType() const noexcept { return type_; }
    /// A number no other list has had, renewed when the samples change in place: (identity, range)
    /// names the same samples for as long as it is observed, so results can be cached by it.
    std::uint64_t identity() const noexcept { return identity_; }
    /// Take a fresh identity (the samples are about to change in place).
    void renewIdentity() noexcept;
    std::uint32_t pieceCount() const noexcept { return count_; }
    std::uint32_t pieceCapacity() const noexcept { return capacity_; }
    std::int64_t totalLength() const noexcept { return totalLength_; }
    const SegmentPiece& piece(std::uint32_t i) const noexcept { return pieces()[i]; }

    /// Add a piece at the end, merging it with the last piece when it continues it in the same block.
    /// Takes a new reference on the block. Only while the list is not shared. [no allocation]
    void pushPiece(SampleBlock* block, std::int64_t offset, std::int64_t length) noexcept;
    /// True when pushPiece would need a new piece slot that is not there.
    bool wouldOverflow(const SampleBlock* block, std::int64_t offset) const noexcept;

    /// Contiguous copy of samples [offset, offset+length) of this list, cached for the list's lifetime.
    /// [any thread] [allocates on the first request for a range]
    const std::byte* materializedRange(std::int64_t offset, std::int64_t length) const;

private:
    SegmentList(SampleType type, std::uint32_t capacity);
    void destroy() noexcept;

    // A contiguous copy of one range; several can chain (lock-free push) and live as long as the list.
    struct Materialized {
        SampleBlock* block;
        std::int64_t offset;
        std::int64_t length;
        Materialized* next;
    };

    std::atomic<std::uint32_t> refs_{1};
    std::uint64_t identity_;
    SampleType type_;
    std::uint32_t count_ = 0;
    std::uint32_t capacity_;
    std::int64_t totalLength_ = 0;
    mutable std::atomic<Materialized*> materialized_{nullptr};
    // `capacity_` SegmentPiece entries follow the object in the same allocation.
    SegmentPiece* pieces() noexcept { return reinterpret_cast<SegmentPiece*>(this + 1); }
    const SegmentPiece* pieces() const noexcept { return reinterpret_cast<const SegmentPiece*>(this + 1); }
};
static_assert(sizeof(SegmentList) % alignof(SegmentPiece) == 0);

}  // namespace isochron
