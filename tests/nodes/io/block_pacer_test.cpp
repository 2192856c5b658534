#include <catch2/catch.hpp>

#include <algorithm>

#include "nodes/io/block_pacer.h"

using namespace isochron;

namespace {

constexpr TimeNs kMs = 1'000'000;

/// The wall clock a paced round reads between its blocks: it stands still unless a test moves it
/// by wallStepNs per read (the time each block takes downstream).
TimeNs wallNowNs = 0;
TimeNs wallStepNs = 0;
TimeNs fakeWallClock() {
    wallNowNs += wallStepNs;
    return wallNowNs;
}

/// Settings for a 1 kHz stream of 100-sample blocks (0.1 s each).
BlockPacerSettings kiloHertz(std::int64_t total, double pace, double maxLagSeconds = 2) {
    BlockPacerSettings settings;
    settings.rateHz = 1000;
    settings.blockLength = 100;
    settings.totalLength = total;
    settings.pace = pace;
    settings.maxLagSeconds = maxLagSeconds;
    settings.progressInterval = 250;
    settings.roundSpanSeconds = 1e9;  // a round hands out every due block (the cases that bound it set their span)
    wallNowNs = 0;
    wallStepNs = 0;
    settings.wallClock = &fakeWallClock;
    return settings;
}

/// Start positions of the blocks one round at `nowNs` hands out.
std::vector<std::int64_t> roundStarts(BlockPacer& pacer, TimeNs nowNs, std::int64_t budget = 1000) {
    std::vector<std::int64_t> starts;
    pacer.beginRound(budget, nowNs);
    while (auto block = pacer.nextBlock()) starts.push_back(block->start);
    return starts;
}

}  // namespace

TEST_CASE("BlockPacer cuts on a block grid that restarts every cycle", "[io][block_pacer]") {
    BlockPacerSettings settings = kiloHertz(750, 0);
    settings.cycleLength = 250;
    BlockPacer pacer;
    pacer.configure(settings);
    std::vector<std::pair<std::int64_t, std::int64_t>> blocks;
    std::vector<bool> progress;
    while (!pacer.finished()) {
        pacer.beginRound(5, 0);
        CHECK_FALSE(pacer.roundOver());
        auto block = pacer.nextBlock();  // unpaced: one block per round whatever the budget
        REQUIRE(block);
        CHECK(pacer.roundOver());  // the source need not ask for admission again
        CHECK_FALSE(pacer.nextBlock());
        CHECK(block->arrivalNs > 0);
        blocks.emplace_back(block->start, block->length);
        progress.push_back(block->progressDue);
        CHECK(pacer.endRound().state == (pacer.finished() ? SourceStatus::State::Finished : SourceStatus::State::Produced));
    }
    const std::vector<std::pair<std::int64_t, std::int64_t>> expected = {
        {0, 100}, {100, 100}, {200, 50}, {250, 100}, {350, 100}, {450, 50}, {500, 100}, {600, 100}, {700, 50}};
    CHECK(blocks == expected);
    // Progress once 250 samples went out since the last promise.
    CHECK(progress == std::vector<bool>{false, false, true, false, false, true, false, false, true});
}

TEST_CASE("BlockPacer paced: blocks are due at anchor + end / (rate * pace), up to the budget", "[io][block_pacer]") {
    BlockPacer pacer;
    pacer.configure(kiloHertz(1000, 2.0));  // 100 samples = 50 ms at 2x
    CHECK(roundStarts(pacer, 1000 * kMs).empty());  // anchors here; the first block ends 50 ms later
    SourceStatus status = pacer.endRound();
    CHECK(status.state == SourceStatus::State::Waiting);
    CHECK(status.wakeAtNs == 1050 * kMs);

    pacer.beginRound(10, 1120 * kMs);
    CHECK_FALSE(pacer.roundOver());
    auto first = pacer.nextBlock();
    REQUIRE(first);
    CHECK(first->arrivalNs == 1050 * kMs);  // stamped with its due time, not with "now"
    auto second = pacer.nextBlock();
    REQUIRE(second);
    CHECK(second->arrivalNs == 1100 * kMs);
    CHECK_FALSE(pacer.nextBlock());
    CHECK(pacer.endRound().wakeAtNs == 1150 * kMs);

    CHECK(roundStarts(pacer, 1300 * kMs, 2) == std::vector<std::int64_t>{200, 300});  // budget 2 of 4 due
    CHECK(pacer.roundOver());
    CHECK(pacer.endRound().state == SourceStatus::State::Produced);
    CHECK(roundStarts(pacer, 1300 * kMs) == std::vector<std::int64_t>{400, 500});
    CHECK(roundStarts(pacer, 2000 * kMs) == std::vector<std::int64_t>{600, 700, 800, 900});
    CHECK(pacer.roundOver());  // budget left, but the stream is finished
    CHECK(pacer.endRound().state == SourceStatus::State::Finished);
}

TEST_CASE("BlockPacer drops the overdue blocks once more than max_lag behind", "[io][block_pacer]") {
    BlockPacer pacer;
    pacer.configure(kiloHertz(BlockPacerSettings::kForever, 1.0, 0.25));
    CHECK(roundStarts(pacer, 0).empty());
    CHECK(roundStarts(pacer, 100 * kMs) == std::vector<std::int64_t>{0});
    // Next block [100, 200) was due at 200 ms; at 440 ms it is 240 ms late: within max_lag.
    CHECK(pacer.beginRound(100, 440 * kMs) == 0);
    CHECK(pacer.nextBlock()->start == 100);
    // At 1230 ms [200, 300) is 930 ms late: every block ending by 1230 is dropped, [1200, 1300) waits.
    CHECK(pacer.beginRound(100, 1230 * kMs) == 1000);
    CHECK(pacer.position() == 1200);
    CHECK_FALSE(pacer.nextBlock());
    CHECK(pacer.endRound().wakeAtNs == 1300 * kMs);
}

TEST_CASE("BlockPacer keeps the schedule continuous when the pace changes", "[io][block_pacer]") {
    BlockPacer pacer;
    pacer.configure(kiloHertz(BlockPacerSettings::kForever, 1.0));
    roundStarts(pacer, 0);
    CHECK(roundStarts(pacer, 200 * kMs) == std::vector<std::int64_t>{0, 100});
    pacer.changePace(4.0);  // from position 200 (due at 200 ms) on, 100 samples take 25 ms
    pacer.beginRound(10, 200 * kMs);
    CHECK_FALSE(pacer.nextBlock());
    CHECK(pacer.endRound().wakeAtNs == 225 * kMs);

    pacer.changePace(0);  // unpaced: the next block at once
    CHECK(roundStarts(pacer, 200 * kMs) == std::vector<std::int64_t>{200});
    pacer.changePace(1.0);  // paced again: anchored at the next round
    CHECK(roundStarts(pacer, 5000 * kMs).empty());
    CHECK(pacer.endRound().wakeAtNs == 5100 * kMs);
}

TEST_CASE("BlockPacer unpaced skips to the block holding a position in one step", "[io][block_pacer]") {
    BlockPacer pacer;
    pacer.configure(kiloHertz(1'000'000'000'050, 0));  // 1e9 s at 1 kHz: 1e10 blocks
    CHECK(roundStarts(pacer, 0) == std::vector<std::int64_t>{0});
    pacer.skipEmptyTo(50);  // inside the next block: nothing to skip
    CHECK(pacer.position() == 100);
    pacer.skipEmptyTo(1'000'000'000'020);
    CHECK(pacer.position() == 1'000'000'000'000);
    pacer.beginRound(1, 0);
    auto block = pacer.nextBlock();
    REQUIRE(block);
    CHECK(block->start == 1'000'000'000'000);
    CHECK(block->length == 50);  // the last block, cut at the stream's end
    CHECK(block->progressDue);   // the promise covers the skipped stretch
    CHECK(pacer.finished());
    pacer.configure(kiloHertz(1'000'000'000'050, 0));
    pacer.skipEmptyTo(BlockPacerSettings::kForever);  // beyond the end: the last block stays
    CHECK(pacer.position() == 1'000'000'000'000);

}

TEST_CASE("BlockPacer paced skips only as far as the last block already due, which it then hands out at its due time", "[io][block_pacer]") {
    BlockPacer pacer;
    pacer.configure(kiloHertz(1'000'000, 1.0));  // 100 samples = 100 ms
    CHECK(roundStarts(pacer, 0).empty());        // anchors at 0
    pacer.beginRound(1000, 50 * kMs);
    pacer.skipEmptyTo(5000);  // nothing due yet: no move
    CHECK(pacer.position() == 0);
    CHECK_FALSE(pacer.nextBlock());
    // At 1050 ms blocks up to [900, 1000) are due, [1000, 1100) not: the skip stops at [900, 1000).
    pacer.beginRound(1000, 1050 * kMs);
    pacer.skipEmptyTo(5000);
    CHECK(pacer.position() == 900);
    auto block = pacer.nextBlock();
    REQUIRE(block);
    CHECK(block->start == 900);
    CHECK(block->arrivalNs == 1000 * kMs);
    CHECK(block->progressDue);
    pacer.skipEmptyTo(5000);  // the next block is not due: it waits
    CHECK(pacer.position() == 1000);
    CHECK_FALSE(pacer.nextBlock());
    CHECK(pacer.endRound().wakeAtNs == 1100 * kMs);
    // A target before the due blocks' end: the skip stops at the block holding it.
    pacer.beginRound(1000, 3000 * kMs);
    pacer.skipEmptyTo(1450);
    CHECK(pacer.position() == 1400);
    // At 3000 ms exactly [2900, 3000) is due, and the skip stops there.
    pacer.skipEmptyTo(5000);
    CHECK(pacer.position() == 2900);
    CHECK(pacer.nextBlock()->start == 2900);
}

TEST_CASE("BlockPacer ends a paced round once its next block is more than max_lag late by the wall clock", "[io][block_pacer]") {
    // Under a depth-first scheduler each block is processed as it goes out: a round of 10 due blocks
    // whose blocks take 400 ms each downstream would hand out the last one 3.5 s late (max_lag 2 s).
    BlockPacer pacer;
    pacer.configure(kiloHertz(BlockPacerSettings::kForever, 1.0, 2.0));
    CHECK(roundStarts(pacer, 0).empty());
    wallNowNs = 1000 * kMs;
    wallStepNs = 400 * kMs;
    // Block [400, 500), due at 500 ms, is read out at 2600 ms: 2.1 s late, so the round ends before it.
    CHECK(roundStarts(pacer, 1000 * kMs) == std::vector<std::int64_t>{0, 100, 200, 300});
    CHECK(pacer.roundOver());
    CHECK(pacer.endRound().state == SourceStatus::State::Produced);  // asked again at once
    // The next round drops what is overdue instead of handing it out later still.
    CHECK(pacer.beginRound(100, 2600 * kMs) == 2200);
    CHECK(pacer.position() == 2600);
}

TEST_CASE("BlockPacer hands out at most roundSpanSeconds of stream per paced round", "[io][block_pacer]") {
    // A queueing scheduler processes a round's blocks after it: a round handing out seconds of
    // backlog held them all in a queue for many times max_lag.
    BlockPacerSettings settings = kiloHertz(BlockPacerSettings::kForever, 1.0, 2.0);
    settings.roundSpanSeconds = 0.25;  // 250 samples: blocks starting before position + 250
    BlockPacer pacer;
    pacer.configure(settings);
    CHECK(roundStarts(pacer, 0).empty());
    CHECK(roundStarts(pacer, 1000 * kMs) == std::vector<std::int64_t>{0, 100, 200});
    CHECK(pacer.endRound().state == SourceStatus::State::Produced);  // the rest is due: asked again at once
    CHECK(roundStarts(pacer, 1000 * kMs) == std::vector<std::int64_t>{300, 400, 500});
    // Once the rest is more than max_lag late, the next round drops it instead.
    CHECK(pacer.beginRound(100, 3100 * kMs) == 2500);
    CHECK(pacer.position() == 3100);
}

TEST_CASE("BlockPacer paced promises progress at the end of each round, not only every progress_interval samples", "[io][block_pacer]") {
    // A 10 items/s source with the default progress_interval (65536) would promise once in 1.8 h.
    BlockPacerSettings settings = kiloHertz(BlockPacerSettings::kForever, 1.0);
    settings.rateHz = 10;
    settings.blockLength = 1;
    settings.progressInterval = 65536;
    BlockPacer pacer;
    pacer.configure(settings);
    CHECK(roundStarts(pacer, 0).empty());
    for (TimeNs second = 1; second <= 3; ++second) {
        pacer.beginRound(1000, second * 1000 * kMs);
        std::vector<bool> promises;
        while (auto block = pacer.nextBlock()) promises.push_back(block->progressDue);
        // Ten items due in this second: only the last of the round promises.
        std::vector<bool> expected(10, false);
        expected.back() = true;
        CHECK(promises == expected);
    }

    SECTION("a fast stream promises at most every 10 ms of stream time at round ends") {
        BlockPacer fast;
        settings = kiloHertz(BlockPacerSettings::kForever, 1.0);
        settings.blockLength = 1;  // 1 ms blocks; 10 ms = 10 samples
        fast.configure(settings);
        CHECK(roundStarts(fast, 0).empty());
        std::vector<bool> promises;
        for (TimeNs ms = 1; ms <= 20; ++ms) {
            fast.beginRound(1000, ms * kMs);
            while (auto block = fast.nextBlock()) promises.push_back(block->progressDue);
        }
        REQUIRE(promises.size() == 20);
        CHECK(std::count(promises.begin(), promises.end(), true) == 2);
        CHECK(promises[9]);
        CHECK(promises[19]);
    }
}
