// The memory manager: pooled, size-classed allocations for sample blocks and segment lists.
//
// Design (see docs/design/memory.md):
// - Size classes are powers of two from 64 B to 64 MiB of payload; bigger requests go straight to the
//   system and are still counted.
// - Each thread keeps a small cache per class ("magazine"); a miss refills from a mutex-guarded depot
//   in batches, and only an empty depot calls the system allocator. In the steady state of a running
//   graph every allocation is a thread-local pop: no lock, no malloc.
// - Telemetry counters live in the thread caches as relaxed atomics written only by their owner,
//   so counting costs plain loads and stores; stats() sums them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace isochron {

/// A snapshot of what the pool holds. [any thread]
struct MemoryStats {
    static constexpr int kClassCount = 21;  // 64 B << 0 .. 64 B << 20 (64 MiB)

    std::uint64_t liveBytes = 0;          ///< payload capacity of allocations currently handed out
    std::uint64_t liveAllocations = 0;    ///< allocations currently handed out
    std::uint64_t cachedBytes = 0;        ///< capacity kept free in the pool for reuse
    std::uint64_t systemAllocations = 0;  ///< calls to the system allocator since start (monotonic)
    std::array<std::uint64_t, kClassCount> liveByClass{};  ///< live allocations per size class
};

/// Process-wide pool of 64-byte-aligned allocations. [any thread]
class MemoryPool {
public:
    /// The one pool shared by the engine, its operators and plugins.
    static MemoryPool& instance();

    /// At least `bytes` of 64-byte-aligned memory. [any thread] [no system allocation in steady state]
    void* allocate(std::size_t bytes);
    /// Return memory from allocate(); may be called from any thread. [any thread]
    void release(void* memory) noexcept;
    /// The usable capacity of an allocation (>= the requested size). [any thread]
    static std::size_t capacityOf(const void* memory) noexcept;

    /// Sum of all threads' counters; slightly stale while other threads allocate. [any thread]
    MemoryStats stats() const;
    /// stats().liveBytes alone: one lock and two counters per thread instead of every class and
    /// depot (the engine's memory guard asks this while sources emit). [any thread]
    std::uint64_t liveBytes() const;
    /// Give the depot's free memory back to the system (the calling thread's cache too). [any thread]
    void trim();

    /// Payload capacity of size class `index`.
    static constexpr std::size_t classCapacity(int index) { return std::size_t{64} << index; }

    MemoryPool(const MemoryPool&) = delete;
    MemoryPool& operator=(const MemoryPool&) = delete;

private:
    MemoryPool() = default;
    ~MemoryPool() = default;
};

}  // namespace isochron
