// The probe ring under a concurrent writer: every copy the reader gets is a run of consecutive values.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

#include "ui/run/probe_ring.h"

using namespace isochron::ui;

TEST_CASE("a reader racing a writer always copies consecutive values", "[ui][probe]") {
    ProbeRing ring(4096);
    std::atomic<bool> done{false};
    std::thread writer([&] {
        float block[97];
        float next = 0;
        while (next < 4'000'000) {  // exact in float below 2^24
            for (float& v : block) v = next++;
            ring.write(block, 97);
        }
        done = true;
    });
    std::vector<float> copy(1500);
    int reads = 0;
    while (!done) {
        const std::size_t n = ring.readLatest(copy.data(), copy.size());
        for (std::size_t i = 1; i < n; ++i) REQUIRE(copy[i] == copy[i - 1] + 1);
        ++reads;
    }
    writer.join();
    CHECK(reads > 0);
    const std::size_t n = ring.readLatest(copy.data(), copy.size());
    CHECK(n == 1500);
    CHECK(copy.back() == ring.written() - 1);
}

TEST_CASE("fewer values than asked for before the ring fills", "[ui][probe]") {
    ProbeRing ring(64);
    const float values[3] = {1, 2, 3};
    ring.write(values, 3);
    float out[10];
    REQUIRE(ring.readLatest(out, 10) == 3);
    CHECK(out[0] == 1);
    CHECK(out[2] == 3);
    CHECK(ring.readLatest(out, 2) == 2);
    CHECK(out[0] == 2);
}
