// A reference-counted block of sample memory from the MemoryPool: the bottom level of a SigSeg.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace isochron {

/// Pool-allocated, reference-counted, 64-byte-aligned raw sample storage. [any thread]
class SampleBlock {
public:
    /// A new block with capacity >= `bytes` and one reference. [any thread] [pool allocation]
    static SampleBlock* create(std::size_t bytes);

    void addRef() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
    /// Drop one reference; the last one returns the memory to the pool. [any thread]
    void release() noexcept {
        if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy();
    }
    bool unique() const noexcept { return refs_.load(std::memory_order_acquire) == 1; }
    std::uint32_t referenceCount() const noexcept { return refs_.load(std::memory_order_relaxed); }

    std::byte* data() noexcept { return reinterpret_cast<std::byte*>(this) + kDataOffset; }
    const std::byte* data() const noexcept { return reinterpret_cast<const std::byte*>(this) + kDataOffset; }
    std::size_t capacityBytes() const noexcept { return capacity_; }

private:
    static constexpr std::size_t kDataOffset = 64;
    explicit SampleBlock(std::size_t capacity) : capacity_(capacity) {}
    void destroy() noexcept;

    std::atomic<std::uint32_t> refs_{1};
    std::size_t capacity_;
};

}  // namespace isochron
