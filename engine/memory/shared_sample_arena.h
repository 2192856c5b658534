// SharedSampleArena: the memory the MemoryPool carves its size-classed blocks from: one memfd,
// mapped read-write here and read-only by every sandboxed plugin process (engine/plugins/sandbox/),
// so a segment crosses to a sandbox as an offset into this memory instead of a copy of its samples.
//
// Trust: a sandbox maps the arena PROT_READ. It can read any pooled memory of the host (samples,
// segment lists, the pool's own headers) but write none of it, so a plugin that crashes or runs
// wild in its sandbox cannot corrupt the host through the arena. The sandbox is there to survive
// plugin faults, not to keep secrets: an in-process plugin reads all of it anyway.
//
// The arena reserves address space once (kReservedBytes, sparse: pages are committed when touched)
// and hands out fresh blocks by bumping an offset; blocks the pool gives back (trim) keep their
// address, their pages are returned to the system, and they are handed out again for the same size.
// When the arena cannot be made (no memfd) or is full, the pool falls back to the system allocator
// and the sandbox copies those segments, as before. Sanitized builds and runs under valgrind do not
// use it (their tools must see every block as the allocator's to find leaks, overflows and reads of
// samples never written).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace isochron {

/// The process's shared pool memory. [any thread]
class SharedSampleArena {
public:
    /// Address space reserved for the arena (virtual; pages are committed when touched).
    static constexpr std::size_t kReservedBytes = std::size_t{64} << 30;

    /// The process's arena, made on first use; null when there is none (see above). [any thread]
    static SharedSampleArena* instance();

    /// The memfd to map (close-on-exec). [any thread]
    int fd() const { return fd_; }
    /// Whether [memory, memory + bytes) lies inside the arena. [any thread] [no allocation]
    bool contains(const void* memory, std::size_t bytes) const {
        const auto at = reinterpret_cast<std::uintptr_t>(memory);
        const auto base = reinterpret_cast<std::uintptr_t>(base_);
        return at >= base && at - base <= kReservedBytes && bytes <= kReservedBytes - (at - base);
    }
    /// Offset of `memory` (inside the arena) from its start. [any thread] [no allocation]
    std::uint64_t offsetOf(const void* memory) const { return reinterpret_cast<const std::byte*>(memory) - base_; }

    /// `bytes` of 64-byte-aligned arena memory, a block given back earlier for the same size first;
    /// null when the arena is full. [any thread] [locks]
    void* allocate(std::size_t bytes);
    /// Give a block from allocate(bytes) back: its pages go back to the system, its address is kept
    /// for the next allocate(bytes). [any thread] [locks]
    void release(void* memory, std::size_t bytes);

    SharedSampleArena(const SharedSampleArena&) = delete;
    SharedSampleArena& operator=(const SharedSampleArena&) = delete;

private:
    SharedSampleArena(int fd, std::byte* base) : fd_(fd), base_(base) {}

    // Blocks given back, by size: each holds the next one's address in its first bytes.
    struct FreeList {
        std::size_t bytes = 0;
        void* head = nullptr;
    };

    int fd_;
    std::byte* base_;
    std::mutex mutex_;
    std::size_t used_ = 0;              // bytes handed out from the start (the bump offset)
    std::array<FreeList, 32> freed_{};  // the pool has 21 sizes
};

}  // namespace isochron
