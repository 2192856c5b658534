#include <catch2/catch.hpp>

#include <cstring>
#include <thread>
#include <vector>

#include "engine/memory/memory_pool.h"

using namespace isochron;

TEST_CASE("allocations are aligned, sized by class and counted", "[memory]") {
    MemoryPool& pool = MemoryPool::instance();
    const MemoryStats before = pool.stats();
    void* small = pool.allocate(10);
    void* medium = pool.allocate(5000);
    CHECK(reinterpret_cast<std::uintptr_t>(small) % 64 == 0);
    CHECK(reinterpret_cast<std::uintptr_t>(medium) % 64 == 0);
    CHECK(MemoryPool::capacityOf(small) == 64);
    CHECK(MemoryPool::capacityOf(medium) == 8192);
    std::memset(medium, 1, 5000);
    const MemoryStats during = pool.stats();
    CHECK(during.liveAllocations == before.liveAllocations + 2);
    CHECK(during.liveBytes == before.liveBytes + 64 + 8192);
    pool.release(small);
    pool.release(medium);
    CHECK(pool.stats().liveAllocations == before.liveAllocations);
    CHECK(pool.stats().liveBytes == before.liveBytes);
}

TEST_CASE("liveBytes() counts what stats() counts, across threads", "[memory]") {
    MemoryPool& pool = MemoryPool::instance();
    const std::uint64_t before = pool.liveBytes();
    CHECK(before == pool.stats().liveBytes);
    void* here = pool.allocate(3000);
    void* there = nullptr;
    std::thread other([&] { there = pool.allocate(100); });  // a second thread cache, retired when it ends
    other.join();
    CHECK(pool.liveBytes() == before + 4096 + 128);
    CHECK(pool.liveBytes() == pool.stats().liveBytes);
    pool.release(there);  // released through this thread's cache
    pool.release(here);
    CHECK(pool.liveBytes() == before);
    CHECK(pool.liveBytes() == pool.stats().liveBytes);
}

TEST_CASE("released blocks are reused without asking the system again", "[memory]") {
    MemoryPool& pool = MemoryPool::instance();
    std::vector<void*> warm;
    for (int i = 0; i < 32; ++i) warm.push_back(pool.allocate(16384));
    for (void* p : warm) pool.release(p);
    const std::uint64_t systemBefore = pool.stats().systemAllocations;
    for (int round = 0; round < 1000; ++round) {
        void* a = pool.allocate(16384);
        void* b = pool.allocate(16000);
        pool.release(a);
        pool.release(b);
    }
    CHECK(pool.stats().systemAllocations == systemBefore);
}

TEST_CASE("blocks may be freed by another thread and counters stay exact", "[memory]") {
    MemoryPool& pool = MemoryPool::instance();
    const std::uint64_t before = pool.stats().liveAllocations;
    std::vector<void*> made(20000);
    std::thread producer([&] {
        for (auto& p : made) p = pool.allocate(256);
    });
    producer.join();
    CHECK(pool.stats().liveAllocations == before + made.size());
    std::thread consumer([&] {
        for (void* p : made) pool.release(p);
    });
    consumer.join();
    CHECK(pool.stats().liveAllocations == before);

    // Concurrent churn from two threads.
    auto churn = [&] {
        std::vector<void*> held;
        for (int i = 0; i < 50000; ++i) {
            held.push_back(pool.allocate(64u << (i % 6)));
            if (held.size() > 100) {
                pool.release(held.front());
                held.erase(held.begin());
            }
        }
        for (void* p : held) pool.release(p);
    };
    std::thread t1(churn), t2(churn);
    t1.join();
    t2.join();
    CHECK(pool.stats().liveAllocations == before);
}

TEST_CASE("huge requests bypass the classes but are still counted", "[memory]") {
    MemoryPool& pool = MemoryPool::instance();
    const MemoryStats before = pool.stats();
    void* huge = pool.allocate((std::size_t{64} << 20) + 1);
    CHECK(pool.stats().liveAllocations == before.liveAllocations + 1);
    pool.release(huge);
    CHECK(pool.stats().liveAllocations == before.liveAllocations);
    pool.trim();
    CHECK(pool.stats().cachedBytes == 0);
}
