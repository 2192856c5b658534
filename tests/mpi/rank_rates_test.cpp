// A rank's throughput in telemetry across ranks: blocks of 4096 samples about 12 times a second,
// seen in snapshots 30 times a second, read as the rate they make (not 0 in one period and twice the
// rate in the next), and a rank that waited for the others after its last block keeps that rate in
// its last snapshot instead of falling to 0.
#include <catch2/catch.hpp>

#include <algorithm>

#include "distributed/rank_rates.h"

using namespace isochron;
using namespace isochron::distributed;

namespace {

constexpr double kBlockSeconds = 4096.0 / 48000.0;  // 85 ms: a block every 2 or 3 snapshots
constexpr double kSnapshotSeconds = 1.0 / 30.0;
constexpr double kRate = 48000.0;

/// Rank 1's totals at snapshot `k`: the blocks that have come by then (the first at 0 s), `state` as its engine says.
RankTelemetry rankAt(int k, int lastBlock, const char* state = "running") {
    RankTelemetry totals;
    totals.rank = 1;
    totals.elapsedSeconds = k * kSnapshotSeconds;
    totals.engineState = state;
    const int blocks = std::min(static_cast<int>(totals.elapsedSeconds / kBlockSeconds) + 1, lastBlock + 1);
    totals.samples = static_cast<std::uint64_t>(blocks) * 4096;
    totals.items = static_cast<std::uint64_t>(blocks);
    return totals;
}

}  // namespace

TEST_CASE("a rank's rate is measured over a window of blocks, and its last snapshot keeps it", "[mpi][telemetry]") {
    RankRates rates;
    int k = 0;
    // Ten seconds of blocks: after the first window every rate is within a fifth of the real one.
    for (; k * kSnapshotSeconds < 10.0; ++k) {
        RankTelemetry totals = rankAt(k, 1000);
        rates.smooth(totals);
        if (totals.elapsedSeconds < 1.5) continue;
        INFO("snapshot " << k << " at " << totals.elapsedSeconds << " s");
        CHECK(totals.samplesPerSecond == Approx(kRate).epsilon(0.2));
        CHECK(totals.itemsPerSecond == Approx(kRate / 4096).epsilon(0.2));
    }
    // The blocks end; the rank waits a second for the others, then ends: its last snapshot says the rate of its blocks.
    const int lastBlock = static_cast<int>(k * kSnapshotSeconds / kBlockSeconds);
    for (const int end = k + 30; k < end; ++k) {
        RankTelemetry totals = rankAt(k, lastBlock);
        rates.smooth(totals);
    }
    RankTelemetry last = rankAt(k, lastBlock, "finished");
    rates.smooth(last);
    CHECK(last.samplesPerSecond == Approx(kRate).epsilon(0.2));
    CHECK(last.itemsPerSecond == Approx(kRate / 4096).epsilon(0.2));
}

TEST_CASE("a rank that has sent nothing yet has no rate", "[mpi][telemetry]") {
    RankRates rates;
    RankTelemetry totals;
    totals.rank = 2;
    totals.elapsedSeconds = 0.5;
    totals.engineState = "running";
    rates.smooth(totals);
    CHECK(totals.samplesPerSecond == 0.0);
    CHECK(totals.itemsPerSecond == 0.0);
}
