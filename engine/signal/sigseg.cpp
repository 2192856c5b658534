#include "engine/signal/sigseg.h"

#include <string>

namespace isochron {
namespace {

// The errors of subseg() and append(), out of line: building their messages inline gave every call
// (three per window in a rewindow) a 400-byte frame and six saved registers.
[[noreturn, gnu::noinline, gnu::cold]] void throwSubsegOutside(std::int64_t start, std::int64_t end, std::int64_t viewStart,
                                                               std::int64_t viewEnd) {
    throw std::out_of_range("SigSeg::subseg: [" + std::to_string(start) + ", " + std::to_string(end) + ") is not inside [" +
                            std::to_string(viewStart) + ", " + std::to_string(viewEnd) + ")");
}

[[noreturn, gnu::noinline, gnu::cold]] void throwNotAdjacent(std::int64_t end, std::int64_t nextStart) {
    throw std::invalid_argument("SigSeg::append: segments are not adjacent (this ends at sample " + std::to_string(end) +
                                ", the next starts at " + std::to_string(nextStart) + "); gaps are never stitched");
}

}  // namespace

std::uint32_t SegmentHandle::pieceCount() const noexcept {
    std::uint32_t count = 0;
    forEachPiece([&](const SegmentPiece&, std::int64_t, std::int64_t) { ++count; });
    return count;
}

SegmentHandle SegmentHandle::wrapBlock(SampleType type, SampleBlock* block, std::int64_t offsetSamples,
                                       std::int64_t length, std::int64_t startIndex, const Timebase* timebase) {
    if (length < 0 || offsetSamples < 0 ||
        static_cast<std::size_t>(offsetSamples + length) * sampleSize(type) > block->capacityBytes()) {
        throw std::out_of_range("SigSeg::wrap: range outside the block");
    }
    SegmentList* list = SegmentList::create(type, 1);
    list->pushPiece(block, offsetSamples, length);
    return SegmentHandle(list, 0, length, startIndex, timebase);
}

SegmentHandle SegmentHandle::allocateUntyped(SampleType type, std::int64_t length, std::int64_t startIndex,
                                             const Timebase* timebase) {
    if (length < 0) throw std::invalid_argument("SigSeg::allocate: negative length");
    SampleBlock* block = SampleBlock::create(static_cast<std::size_t>(std::max<std::int64_t>(length, 1)) * sampleSize(type));
    SegmentList* list = SegmentList::create(type, 1);
    list->pushPiece(block, 0, length);
    block->release();  // the list holds it now (or nothing does, for an empty segment)
    return SegmentHandle(list, 0, length, startIndex, timebase);
}

SegmentHandle SegmentHandle::subsegUntyped(std::int64_t absoluteStart, std::int64_t length) const {
    if (length < 0 || absoluteStart < startIndex_ || absoluteStart + length > endIndex()) {
        throwSubsegOutside(absoluteStart, absoluteStart + length, startIndex_, endIndex());
    }
    SegmentHandle result(*this);
    result.offset_ = offset_ + (absoluteStart - startIndex_);
    result.length_ = length;
    result.startIndex_ = absoluteStart;
    return result;
}

void SegmentHandle::appendInPlace(const SegmentHandle& next) {
    if (next.length_ == 0) return;
    if (length_ == 0) {
        *this = next;
        return;
    }
    if (next.timebase_ != timebase_) {
        throw std::invalid_argument("SigSeg::append: segments are on different timebases");
    }
    if (next.startIndex_ != endIndex()) {
        throwNotAdjacent(endIndex(), next.startIndex_);
    }
    if (next.sampleType() != sampleType()) {
        throw std::invalid_argument("SigSeg::append: sample types differ");
    }
    // Both views of one list, `next` right after this one: the union is a view of that list too
    // (a replaying source cuts its blocks from one view per loop). Nothing is written to the list.
    if (next.list_ == list_ && next.offset_ == offset_ + length_) {
        length_ += next.length_;
        return;
    }
    auto spliceRuns = [](SegmentList* target, const SegmentHandle& source) {
        source.forEachPiece([&](const SegmentPiece& p, std::int64_t skip, std::int64_t take) {
            target->pushPiece(p.block, p.offset + skip, take);
        });
    };
    // Fast path (the paper's destructive append): this handle is the list's only user and views its
    // tail, so the list grows in place without disturbing anyone.
    const std::uint32_t nextRuns = next.pieceCount();
    if (list_->unique() && offset_ + length_ == list_->totalLength() &&
        list_->pieceCount() + nextRuns <= list_->pieceCapacity()) {
        spliceRuns(list_, next);
        length_ += next.length_;
        return;
    }
    SegmentList* merged = SegmentList::create(sampleType(), (pieceCount() + nextRuns) * 2);
    spliceRuns(merged, *this);
    spliceRuns(merged, next);
    std::int64_t newLength = length_ + next.length_;
    list_->release();
    list_ = merged;
    offset_ = 0;
    length_ = newLength;
}

const std::byte* SegmentHandle::materializeUntyped() const {
    if (length_ == 0) return nullptr;
    const std::byte* single = nullptr;
    std::uint32_t runs = 0;
    forEachRun([&](const std::byte* data, std::int64_t) {
        if (runs++ == 0) single = data;
    });
    if (runs == 1) return single;
    return list_->materializedRange(offset_, length_);
}

std::byte* SegmentHandle::writableUntyped() {
    if (length_ == 0) return nullptr;
    if (list_->unique() && list_->pieceCount() == 1 && list_->piece(0).block->unique()) {
        list_->renewIdentity();  // the samples may change: results cached by identity must not apply
        const SegmentPiece& p = list_->piece(0);
        return p.block->data() + static_cast<std::size_t>(p.offset + offset_) * sampleSize(sampleType());
    }
    SegmentHandle copy = allocateUntyped(sampleType(), length_, startIndex_, timebase_);
    std::byte* out = copy.list_->piece(0).block->data();
    forEachRun([&](const std::byte* data, std::int64_t count) {
        std::size_t bytes = static_cast<std::size_t>(count) * sampleSize(sampleType());
        std::memcpy(out, data, bytes);
        out += bytes;
    });
    *this = std::move(copy);
    return list_->piece(0).block->data();
}

}  // namespace isochron
