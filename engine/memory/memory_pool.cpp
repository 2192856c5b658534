#include "engine/memory/memory_pool.h"

#include "engine/memory/shared_sample_arena.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

namespace isochron {
namespace {

constexpr std::size_t kHeaderBytes = 64;  // keeps payloads 64-byte aligned
constexpr std::uint32_t kMagic = 0x15C4F00D;
constexpr int kHugeClass = MemoryStats::kClassCount;  // marks direct system allocations
constexpr std::size_t kThreadCacheBytesPerClass = 2u << 20;
constexpr std::uint32_t kMaxCachedPerClass = 64;

struct alignas(64) AllocationHeader {
    AllocationHeader* nextFree;
    std::size_t capacity;
    std::uint32_t sizeClass;
    std::uint32_t magic;
};
static_assert(sizeof(AllocationHeader) == kHeaderBytes);

int classFor(std::size_t bytes) {
    if (bytes <= 64) return 0;
    int index = 64 - __builtin_clzll(static_cast<unsigned long long>(bytes - 1)) - 6;
    return index < MemoryStats::kClassCount ? index : kHugeClass;
}

std::uint32_t cacheLimit(int sizeClass) {
    std::size_t byBytes = kThreadCacheBytesPerClass / MemoryPool::classCapacity(sizeClass);
    return static_cast<std::uint32_t>(std::min<std::size_t>(std::max<std::size_t>(byBytes, 2), kMaxCachedPerClass));
}

std::atomic<std::uint64_t> systemAllocationCount{0};

AllocationHeader* systemAllocate(std::size_t capacity, std::uint32_t sizeClass) {
    systemAllocationCount.fetch_add(1, std::memory_order_relaxed);
    // Size-classed blocks come from the shared arena (a sandboxed plugin reads their samples in
    // place), huge ones and any the arena cannot give from the system allocator.
    SharedSampleArena* arena = sizeClass == kHugeClass ? nullptr : SharedSampleArena::instance();
    void* raw = arena ? arena->allocate(kHeaderBytes + capacity) : nullptr;
    if (!raw) raw = ::operator new(kHeaderBytes + capacity, std::align_val_t{64});
    auto* header = static_cast<AllocationHeader*>(raw);
    header->nextFree = nullptr;
    header->capacity = capacity;
    header->sizeClass = sizeClass;
    header->magic = kMagic;
    return header;
}

void systemRelease(AllocationHeader* header) {
    header->magic = 0;
    SharedSampleArena* arena = header->sizeClass == kHugeClass ? nullptr : SharedSampleArena::instance();
    if (arena && arena->contains(header, kHeaderBytes + header->capacity)) return arena->release(header, kHeaderBytes + header->capacity);
    ::operator delete(static_cast<void*>(header), std::align_val_t{64});
}

// A counter written by one thread and read by any: relaxed load + store, no read-modify-write.
struct OwnedCounter {
    std::atomic<std::uint64_t> value{0};
    void add(std::uint64_t delta) { value.store(value.load(std::memory_order_relaxed) + delta, std::memory_order_relaxed); }
    std::uint64_t get() const { return value.load(std::memory_order_relaxed); }
};

struct ClassCounters {
    OwnedCounter allocated;
    OwnedCounter released;
};

// Shared free lists, one per class, refilled by threads returning surplus blocks.
struct Depot {
    std::mutex mutex;
    AllocationHeader* head = nullptr;
    std::uint32_t count = 0;
};

struct ThreadCache;

struct Registry {
    std::mutex mutex;
    std::vector<ThreadCache*> caches;
    std::array<Depot, MemoryStats::kClassCount> depots;
    // Counters of threads that have exited, so live figures stay exact.
    std::array<std::atomic<std::int64_t>, MemoryStats::kClassCount + 1> retiredLive{};
    std::atomic<std::int64_t> retiredLiveBytes{0};
};

Registry& registry() {
    static Registry* instance = new Registry();  // immortal: thread caches may outlive static destruction
    return *instance;
}

struct ThreadCache {
    struct ClassCache {
        AllocationHeader* head = nullptr;
        OwnedCounter count;  // read by stats() from other threads
    };
    std::array<ClassCache, MemoryStats::kClassCount> classes{};
    std::array<ClassCounters, MemoryStats::kClassCount + 1> counters{};
    OwnedCounter liveBytesIn;   // capacity handed out by this thread
    OwnedCounter liveBytesOut;  // capacity returned through this thread

    ThreadCache() {
        std::lock_guard lock(registry().mutex);
        registry().caches.push_back(this);
    }

    ~ThreadCache() {
        Registry& reg = registry();
        for (int c = 0; c < MemoryStats::kClassCount; ++c) flushToDepot(c, static_cast<std::uint32_t>(classes[c].count.get()));
        std::lock_guard lock(reg.mutex);
        for (int c = 0; c <= MemoryStats::kClassCount; ++c) {
            reg.retiredLive[c].fetch_add(static_cast<std::int64_t>(counters[c].allocated.get()) -
                                         static_cast<std::int64_t>(counters[c].released.get()));
        }
        reg.retiredLiveBytes.fetch_add(static_cast<std::int64_t>(liveBytesIn.get()) -
                                       static_cast<std::int64_t>(liveBytesOut.get()));
        std::erase(reg.caches, this);
    }

    void flushToDepot(int sizeClass, std::uint32_t howMany) {
        ClassCache& cache = classes[sizeClass];
        if (howMany == 0) return;
        AllocationHeader* first = cache.head;
        AllocationHeader* last = first;
        for (std::uint32_t i = 1; i < howMany; ++i) last = last->nextFree;
        cache.head = last->nextFree;
        cache.count.add(-std::uint64_t{howMany});
        Depot& depot = registry().depots[sizeClass];
        std::lock_guard lock(depot.mutex);
        last->nextFree = depot.head;
        depot.head = first;
        depot.count += howMany;
    }

    void refillFromDepot(int sizeClass) {
        ClassCache& cache = classes[sizeClass];
        Depot& depot = registry().depots[sizeClass];
        std::uint32_t want = std::max<std::uint32_t>(cacheLimit(sizeClass) / 2, 1);
        std::lock_guard lock(depot.mutex);
        while (want-- > 0 && depot.head != nullptr) {
            AllocationHeader* header = depot.head;
            depot.head = header->nextFree;
            --depot.count;
            header->nextFree = cache.head;
            cache.head = header;
            cache.count.add(1);
        }
    }
};

ThreadCache& threadCache() {
    // The engine library is loaded with the program, so its thread-local cache can live in the
    // static TLS block: an allocation then finds it without a __tls_get_addr call.
    thread_local ThreadCache cache [[gnu::tls_model("initial-exec")]];
    return cache;
}

AllocationHeader* headerOf(const void* memory) {
    return reinterpret_cast<AllocationHeader*>(static_cast<char*>(const_cast<void*>(memory)) - kHeaderBytes);
}

}  // namespace

MemoryPool& MemoryPool::instance() {
    static MemoryPool* pool = new MemoryPool();
    return *pool;
}

void* MemoryPool::allocate(std::size_t bytes) {
    ThreadCache& cache = threadCache();
    int sizeClass = classFor(bytes);
    AllocationHeader* header;
    if (sizeClass == kHugeClass) {
        header = systemAllocate(bytes, kHugeClass);
    } else {
        auto& local = cache.classes[sizeClass];
        if (local.head == nullptr) cache.refillFromDepot(sizeClass);
        if (local.head != nullptr) {
            header = local.head;
            local.head = header->nextFree;
            local.count.add(-std::uint64_t{1});
        } else {
            header = systemAllocate(classCapacity(sizeClass), static_cast<std::uint32_t>(sizeClass));
        }
    }
    cache.counters[sizeClass].allocated.add(1);
    cache.liveBytesIn.add(header->capacity);
    return reinterpret_cast<char*>(header) + kHeaderBytes;
}

void MemoryPool::release(void* memory) noexcept {
    if (memory == nullptr) return;
    AllocationHeader* header = headerOf(memory);
    ThreadCache& cache = threadCache();
    int sizeClass = static_cast<int>(header->sizeClass);
    cache.counters[sizeClass].released.add(1);
    cache.liveBytesOut.add(header->capacity);
    if (sizeClass == kHugeClass) {
        systemRelease(header);
        return;
    }
    auto& local = cache.classes[sizeClass];
    header->nextFree = local.head;
    local.head = header;
    local.count.add(1);
    if (local.count.get() > cacheLimit(sizeClass)) {
        cache.flushToDepot(sizeClass, static_cast<std::uint32_t>(local.count.get() / 2));
    }
}

std::size_t MemoryPool::capacityOf(const void* memory) noexcept {
    return headerOf(memory)->capacity;
}

MemoryStats MemoryPool::stats() const {
    MemoryStats stats;
    Registry& reg = registry();
    std::lock_guard lock(reg.mutex);
    std::int64_t liveBytes = reg.retiredLiveBytes.load();
    std::array<std::int64_t, MemoryStats::kClassCount + 1> live{};
    for (int c = 0; c <= MemoryStats::kClassCount; ++c) live[c] = reg.retiredLive[c].load();
    for (ThreadCache* cache : reg.caches) {
        liveBytes += static_cast<std::int64_t>(cache->liveBytesIn.get()) - static_cast<std::int64_t>(cache->liveBytesOut.get());
        for (int c = 0; c <= MemoryStats::kClassCount; ++c) {
            live[c] += static_cast<std::int64_t>(cache->counters[c].allocated.get()) -
                       static_cast<std::int64_t>(cache->counters[c].released.get());
        }
        for (int c = 0; c < MemoryStats::kClassCount; ++c) {
            stats.cachedBytes += cache->classes[c].count.get() * classCapacity(c);
        }
    }
    for (int c = 0; c < MemoryStats::kClassCount; ++c) {
        std::lock_guard depotLock(reg.depots[c].mutex);
        stats.cachedBytes += std::uint64_t{reg.depots[c].count} * classCapacity(c);
    }
    for (int c = 0; c <= MemoryStats::kClassCount; ++c) {
        stats.liveAllocations += static_cast<std::uint64_t>(std::max<std::int64_t>(live[c], 0));
        if (c < MemoryStats::kClassCount) stats.liveByClass[c] = static_cast<std::uint64_t>(std::max<std::int64_t>(live[c], 0));
    }
    stats.liveBytes = static_cast<std::uint64_t>(std::max<std::int64_t>(liveBytes, 0));
    stats.systemAllocations = systemAllocationCount.load(std::memory_order_relaxed);
    return stats;
}

std::uint64_t MemoryPool::liveBytes() const {
    Registry& reg = registry();
    std::lock_guard lock(reg.mutex);
    std::int64_t liveBytes = reg.retiredLiveBytes.load();
    for (ThreadCache* cache : reg.caches) {
        liveBytes += static_cast<std::int64_t>(cache->liveBytesIn.get()) - static_cast<std::int64_t>(cache->liveBytesOut.get());
    }
    return static_cast<std::uint64_t>(std::max<std::int64_t>(liveBytes, 0));
}

void MemoryPool::trim() {
    ThreadCache& cache = threadCache();
    for (int c = 0; c < MemoryStats::kClassCount; ++c) {
        cache.flushToDepot(c, static_cast<std::uint32_t>(cache.classes[c].count.get()));
    }
    Registry& reg = registry();
    for (int c = 0; c < MemoryStats::kClassCount; ++c) {
        AllocationHeader* list;
        {
            std::lock_guard lock(reg.depots[c].mutex);
            list = reg.depots[c].head;
            reg.depots[c].head = nullptr;
            reg.depots[c].count = 0;
        }
        while (list != nullptr) {
            AllocationHeader* next = list->nextFree;
            systemRelease(list);
            list = next;
        }
    }
}

}  // namespace isochron
