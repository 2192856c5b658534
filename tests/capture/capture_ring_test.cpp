// CaptureRing between two threads: every block arrives once, whole and in order, or is refused
// (the producer then counts it as dropped); nothing is overwritten.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

#include "nodes/capture/capture_ring.h"

using namespace isochron;

TEST_CASE("CaptureRing hands blocks from a producer thread to a consumer thread intact and in order", "[capture][ring]") {
    constexpr std::int64_t kBlocks = 50000;
    constexpr std::int64_t kFrames = 16;
    constexpr int kChannels = 3;
    CaptureRing ring(3, kFrames, kChannels);  // rounded up to 4 slots
    std::atomic<std::int64_t> dropped{0};
    std::thread producer([&] {
        for (std::int64_t block = 0; block < kBlocks; ++block) {
            CaptureSlot* slot = ring.beginWrite();
            if (!slot) {
                dropped.fetch_add(1, std::memory_order_relaxed);
                continue;
            }
            slot->firstFrame = block * kFrames;
            slot->frames = kFrames;
            for (std::int64_t i = 0; i < kFrames * kChannels; ++i) slot->samples[i] = static_cast<float>(block * kFrames * kChannels + i);
            ring.endWrite();
        }
    });
    std::int64_t received = 0;
    std::int64_t previousFirst = -1;
    bool intact = true;
    bool ordered = true;
    const auto consume = [&] {
        while (const CaptureSlot* slot = ring.front()) {
            ordered = ordered && slot->firstFrame > previousFirst;
            previousFirst = slot->firstFrame;
            for (std::int64_t i = 0; i < kFrames * kChannels; ++i) {
                intact = intact && slot->samples[i] == static_cast<float>(slot->firstFrame * kChannels + i);
            }
            ring.pop();
            ++received;
        }
    };
    while (received + dropped.load() < kBlocks) consume();
    producer.join();
    consume();
    CHECK(intact);
    CHECK(ordered);
    CHECK(received + dropped.load() == kBlocks);
    CHECK(received >= 4);  // at least the first ring-full
}

TEST_CASE("CaptureRing refuses a block when full and never overwrites one", "[capture][ring]") {
    CaptureRing ring(2, 4, 1);
    for (int i = 0; i < 2; ++i) {
        CaptureSlot* slot = ring.beginWrite();
        REQUIRE(slot);
        slot->firstFrame = i;
        ring.endWrite();
    }
    CHECK(ring.beginWrite() == nullptr);
    REQUIRE(ring.front());
    CHECK(ring.front()->firstFrame == 0);
    ring.pop();
    CHECK(ring.beginWrite() != nullptr);
    CHECK(ring.front()->firstFrame == 1);
    CHECK_THROWS_AS(CaptureRing(1, 4, 1), std::invalid_argument);
}
