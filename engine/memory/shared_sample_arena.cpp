#include "engine/memory/shared_sample_arena.h"

#include "engine/files/standard_streams.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <new>

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define ISOCHRON_UNDER_VALGRIND() RUNNING_ON_VALGRIND
#else
#define ISOCHRON_UNDER_VALGRIND() 0
#endif

namespace isochron {
namespace {

constexpr std::size_t kAlignment = 64;
constexpr std::size_t kPageBytes = 4096;

// The memfd and its mapping; false when they cannot be made.
bool mapArena(int& fd, std::byte*& base) {
#if defined(ISOCHRON_SANITIZED)
    (void)fd;
    (void)base;
    return false;
#else
    // Memcheck sees mapped pages as initialised: under it the pool stays on the system allocator,
    // so reads of samples never written are still reported.
    if (ISOCHRON_UNDER_VALGRIND()) return false;
    // Never numbered as a standard stream: a message written there would land among the samples.
    fd = aboveStandardStreams(memfd_create("isochron-samples", MFD_CLOEXEC));
    if (fd < 0) return false;
    void* mapping = MAP_FAILED;
    if (ftruncate(fd, static_cast<off_t>(SharedSampleArena::kReservedBytes)) == 0) {
        mapping = mmap(nullptr, SharedSampleArena::kReservedBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    }
    if (mapping == MAP_FAILED) {
        close(fd);
        return false;
    }
    base = static_cast<std::byte*>(mapping);
    return true;
#endif
}

}  // namespace

SharedSampleArena* SharedSampleArena::instance() {
    static SharedSampleArena* arena = [] {
        int fd = -1;
        std::byte* base = nullptr;
        return mapArena(fd, base) ? new SharedSampleArena(fd, base) : nullptr;  // immortal, as the pool
    }();
    return arena;
}

void* SharedSampleArena::allocate(std::size_t bytes) {
    std::lock_guard lock(mutex_);
    for (FreeList& list : freed_) {
        if (list.bytes != bytes || !list.head) continue;
        void* block = list.head;
        list.head = *static_cast<void**>(block);
        return block;
    }
    const std::size_t at = (used_ + kAlignment - 1) & ~(kAlignment - 1);
    if (at > kReservedBytes || bytes > kReservedBytes - at) return nullptr;
    used_ = at + bytes;
    return base_ + at;
}

void SharedSampleArena::release(void* memory, std::size_t bytes) {
    // Return the whole pages past the first (which keeps the free list's link) to the system.
    const std::uint64_t start = offsetOf(memory);
    const std::uint64_t firstPage = (start + kPageBytes + kPageBytes - 1) & ~std::uint64_t{kPageBytes - 1};
    const std::uint64_t endPage = (start + bytes) & ~std::uint64_t{kPageBytes - 1};
    if (endPage > firstPage) fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(firstPage), static_cast<off_t>(endPage - firstPage));
    std::lock_guard lock(mutex_);
    FreeList* slot = nullptr;
    for (FreeList& list : freed_) {
        if (list.bytes == bytes) {
            slot = &list;
            break;
        }
        if (!slot && !list.head) slot = &list;
    }
    if (!slot) return;  // more sizes than the pool has: the block stays unused
    slot->bytes = bytes;
    *static_cast<void**>(memory) = slot->head;
    slot->head = memory;
}

}  // namespace isochron
