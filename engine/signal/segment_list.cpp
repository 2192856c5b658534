#include "engine/signal/segment_list.h"

#include <cstring>
#include <new>

#include "engine/memory/memory_pool.h"

namespace isochron {

SampleBlock* SampleBlock::create(std::size_t bytes) {
    void* memory = MemoryPool::instance().allocate(kDataOffset + bytes);
    std::size_t capacity = MemoryPool::capacityOf(memory) - kDataOffset;
    return new (memory) SampleBlock(capacity);
}

void SampleBlock::destroy() noexcept {
    this->~SampleBlock();
    MemoryPool::instance().release(this);
}

namespace {
std::atomic<std::uint64_t> nextListIdentity{1};
}

SegmentList::SegmentList(SampleType type, std::uint32_t capacity)
    : identity_(nextListIdentity.fetch_add(1, std::memory_order_relaxed)), type_(type), capacity_(capacity) {}

void SegmentList::renewIdentity() noexcept { identity_ = nextListIdentity.fetch_add(1, std::memory_order_relaxed); }

SegmentList* SegmentList::create(SampleType type, std::uint32_t pieceCapacity) {
    if (pieceCapacity == 0) pieceCapacity = 1;
    std::size_t bytes = sizeof(SegmentList) + sizeof(SegmentPiece) * pieceCapacity;
    void* memory = MemoryPool::instance().allocate(bytes);
    // Use the whole size class: the spare slots make later in-place appends free.
    std::size_t usable = (MemoryPool::capacityOf(memory) - sizeof(SegmentList)) / sizeof(SegmentPiece);
    return new (memory) SegmentList(type, static_cast<std::uint32_t>(usable));
}

void SegmentList::destroy() noexcept {
    for (std::uint32_t i = 0; i < count_; ++i) pieces()[i].block->release();
    for (Materialized* m = materialized_.load(std::memory_order_acquire); m != nullptr;) {
        Materialized* next = m->next;
        m->block->release();
        MemoryPool::instance().release(m);
        m = next;
    }
    this->~SegmentList();
    MemoryPool::instance().release(this);
}

bool SegmentList::wouldOverflow(const SampleBlock* block, std::int64_t offset) const noexcept {
    if (count_ < capacity_) return false;
    const SegmentPiece& last = pieces()[count_ - 1];
    return !(last.block == block && last.offset + last.length == offset);
}

void SegmentList::pushPiece(SampleBlock* block, std::int64_t offset, std::int64_t length) noexcept {
    if (length <= 0) return;
    totalLength_ += length;
    if (count_ > 0) {
        SegmentPiece& last = pieces()[count_ - 1];
        if (last.block == block && last.offset + last.length == offset) {
            last.length += length;
            return;
        }
    }
    block->addRef();
    pieces()[count_++] = SegmentPiece{block, offset, length};
}

const std::byte* SegmentList::materializedRange(std::int64_t offset, std::int64_t length) const {
    const std::size_t elementSize = sampleSize(type_);
    for (Materialized* m = materialized_.load(std::memory_order_acquire); m != nullptr; m = m->next) {
        if (offset >= m->offset && offset + length <= m->offset + m->length) {
            return m->block->data() + (offset - m->offset) * elementSize;
        }
    }
    SampleBlock* block = SampleBlock::create(static_cast<std::size_t>(length) * elementSize);
    std::byte* out = block->data();
    std::int64_t skip = offset;
    std::int64_t remaining = length;
    for (std::uint32_t i = 0; i < count_ && remaining > 0; ++i) {
        const SegmentPiece& p = pieces()[i];
        if (skip >= p.length) {
            skip -= p.length;
            continue;
        }
        std::int64_t take = std::min(p.length - skip, remaining);
        std::memcpy(out, p.block->data() + (p.offset + skip) * elementSize, static_cast<std::size_t>(take) * elementSize);
        out += take * elementSize;
        remaining -= take;
        skip = 0;
    }
    auto* fresh = new (MemoryPool::instance().allocate(sizeof(Materialized))) Materialized{block, offset, length, nullptr};
    Materialized* head = materialized_.load(std::memory_order_acquire);
    do {
        fresh->next = head;
    } while (!materialized_.compare_exchange_weak(head, fresh, std::memory_order_acq_rel, std::memory_order_acquire));
    return block->data();
}

}  // namespace isochron
