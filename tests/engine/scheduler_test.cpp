// The scheduler conformance suite: every scheduler, with and without rate control, must give the
// same outputs on the same graphs (chains, fan-out, progress-driven fan-in, cycles), end every sink,
// and survive a failing node.
#include <catch2/catch.hpp>

#include <algorithm>
#include <future>
#include <random>
#include <thread>

#include "engine/graph/graph_file.h"
#include "engine/memory/memory_pool.h"
#include "tests/engine/fan_out_fan_in_graph.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

const Timebase& tb() { return Timebase::get(100); }

// Scalars at increasing sample positions, in random batches, with progress after each batch.
FeedScript scalarScript(std::uint32_t seed, int count, int offset) {
    std::mt19937 rng(seed);
    FeedScript script;
    int i = 0;
    while (i < count) {
        std::vector<std::pair<int, Item>> batch;
        int n = 1 + static_cast<int>(rng() % 4);
        std::int64_t last = 0;
        for (int k = 0; k < n && i < count; ++k, ++i) {
            std::int64_t start = 10 * i + offset;
            batch.push_back({0, Item::scalar(i + offset / 10.0, SampleRange{&tb(), start, 5})});
            last = start + 5;
        }
        batch.push_back({0, Item::progress(tb().timeOf(last))});
        script.batches.push_back(std::move(batch));
    }
    return script;
}

std::vector<Item> runAndCollect(const std::string& graph, const std::string& scheduler, const std::string& sink, int port = 0) {
    RunOutcome outcome = runGraph(graph, scheduler);
    REQUIRE(outcome.completed);
    REQUIRE(outcome.failures.empty());
    REQUIRE(collections()[sink].finished);
    return collections()[sink].items[static_cast<std::size_t>(port)];
}

void requireSame(const std::vector<Item>& reference, const std::vector<Item>& got) {
    REQUIRE(got.size() == reference.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        std::string why;
        INFO("item " << i);
        CHECK(sameData(reference[i], got[i], &why));
        INFO(why);
    }
}

const char* kCycle = R"({
  "format": "isochron-graph/1",
  "nodes": [
    {"id": "src", "type": "test.feed", "params": {"name": "loop", "type": "scalar"}},
    {"id": "loop", "type": "test.loop", "params": {"laps": 4}},
    {"id": "delay", "type": "segments.pass_through"},
    {"id": "out", "type": "test.collect", "params": {"name": "loop"}}
  ],
  "edges": [
    {"from": "src.out0", "to": "loop.in"}, {"from": "loop.around", "to": "delay.in"},
    {"from": "delay.out", "to": "loop.back"}, {"from": "loop.out", "to": "out.in0"}
  ]
})";

}  // namespace

TEST_CASE("every scheduler gives the same outputs on fan-out and progress-driven fan-in", "[scheduler]") {
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        feedScripts()["a"] = scalarScript(seed, 60, 0);
        feedScripts()["b"] = scalarScript(seed + 100, 45, 3);
        std::vector<Item> referenceMerged, referenceTap;
        for (const auto& scheduler : schedulerMatrix()) {
            INFO("seed " << seed << ", scheduler " << scheduler);
            std::vector<Item> merged = runAndCollect(kFanOutFanInGraph, scheduler, "merged");
            std::vector<Item> tap = collections()["tap"].items[0];
            REQUIRE(merged.size() == 105);
            REQUIRE(tap.size() == 60);
            if (referenceMerged.empty()) {
                referenceMerged = merged;
                referenceTap = tap;
                // The merge really is in time order, and the values went through the gains.
                for (std::size_t i = 1; i < merged.size(); ++i) {
                    CHECK(merged[i - 1].range().start <= merged[i].range().start);
                }
                CHECK(tap[5].value() == 15.0);
                continue;
            }
            requireSame(referenceMerged, merged);
            requireSame(referenceTap, tap);
        }
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("cycles run under every scheduler: loop-closing edges are queued", "[scheduler][cycle]") {
    feedScripts()["loop"] = scalarScript(9, 25, 0);
    std::vector<Item> reference;
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        std::vector<Item> got = runAndCollect(kCycle, scheduler, "loop");
        REQUIRE(got.size() == 25);
        for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i].value() == static_cast<double>(i) + 4000.0);
        if (reference.empty()) reference = got;
        else requireSame(reference, got);
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("progress is forwarded, and a fan-in forwards the minimum over its inputs", "[scheduler][progress]") {
    FeedScript a, b;
    a.batches = {{{0, Item::progress(1000)}}, {{0, Item::progress(5000)}}, {{0, Item::progress(9000)}}};
    b.batches = {{{0, Item::progress(3000)}}, {{0, Item::progress(4000)}}, {{0, Item::progress(20000)}}};
    feedScripts()["a"] = a;
    feedScripts()["b"] = b;
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        runAndCollect(kFanOutFanInGraph, scheduler, "merged");
        const auto& seen = collections()["merged"].progress[0];
        // Increasing, each a minimum over the two feeds' progress so far. Which minima show up depends
        // on how the feeds interleave (a scheduler choice); the data never does.
        for (std::size_t i = 1; i < seen.size(); ++i) CHECK(seen[i - 1] < seen[i]);
        REQUIRE_FALSE(seen.empty());
        CHECK(seen.front() == 1000);
        CHECK((seen.back() == 9000 || seen.back() == 20000));
        for (TimeNs t : seen) CHECK((t == 1000 || t == 3000 || t == 4000 || t == 5000 || t == 9000 || t == 20000));
        // The tap follows feed a alone.
        CHECK(collections()["tap"].progress[0] == std::vector<TimeNs>{1000, 5000, 9000});
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("a failing node is disabled and reported; the rest of the graph runs to the end", "[scheduler][failure]") {
    const char* graph = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "src", "type": "test.feed", "params": {"name": "f", "type": "scalar"}},
        {"id": "fragile", "type": "test.fail_after", "params": {"n": 4}},
        {"id": "broken", "type": "test.collect", "params": {"name": "broken"}},
        {"id": "healthy", "type": "test.collect", "params": {"name": "healthy"}}
      ],
      "edges": [{"from": "src.out0", "to": "fragile.in"}, {"from": "fragile.out", "to": "broken.in0"},
                {"from": "src.out0", "to": "healthy.in0"}]
    })";
    feedScripts()["f"] = scalarScript(4, 10, 0);
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        RunOutcome outcome = runGraph(graph, scheduler);
        CHECK(outcome.completed);
        REQUIRE(outcome.failures.size() == 1);
        CHECK(outcome.failures[0] == "node 'fragile': planted failure on item 4 (in process)");
        CHECK(collections()["broken"].items[0].size() == 3);
        // Its input ended, cut short by the failure: it ends as in a stopped run, without onFinish()
        // (a file sink keeps the file it would have replaced).
        CHECK_FALSE(collections()["broken"].finished);
        CHECK(collections()["healthy"].items[0].size() == 10);
        CHECK(collections()["healthy"].finished);
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("live parameters are validated on post and applied between items", "[scheduler][parameters]") {
    GraphSpec spec = parseGraph(R"({
      "format": "isochron-graph/1",
      "nodes": [{"id": "src", "type": "test.feed", "params": {"name": "p", "type": "scalar"}},
                {"id": "g", "type": "test.gain", "params": {"gain": 2}},
                {"id": "out", "type": "test.collect", "params": {"name": "p"}}],
      "edges": [{"from": "src.out0", "to": "g.in"}, {"from": "g.out", "to": "out.in0"}]
    })");
    feedScripts()["p"] = scalarScript(5, 6, 0);
    Engine engine(validateGraph(spec, testRegistry()), parseSchedulerText("df"));
    CHECK_THROWS_WITH(engine.postParameter("g", "gain", 500.0), Catch::Contains("above the maximum"));
    CHECK_THROWS_WITH(engine.postParameter("nope", "gain", 1.0), Catch::Contains("no node named 'nope'"));
    CHECK_THROWS_WITH(engine.postParameter("g", "volume", 1.0), Catch::Contains("no parameter 'volume'"));
    CHECK_THROWS_WITH(engine.postParameter("src", "name", std::string("x")), Catch::Contains("cannot change while running"));
    std::thread poster([&] { engine.postParameter("g", "gain", std::int64_t{-1}); });
    poster.join();
    engine.run();
    const auto& got = collections()["p"].items[0];
    REQUIRE(got.size() == 6);
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i].value() == -static_cast<double>(i));
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("scheduler names and parameters are checked", "[scheduler]") {
    CHECK_THROWS_WITH(createScheduler(parseSchedulerText("lifo")), Catch::Contains("unknown scheduler 'lifo'"));
    CHECK_THROWS_WITH(parseSchedulerText("fifo-slice:slice_us=-1"), Catch::Contains("below the minimum"));
    CHECK_THROWS_WITH(parseSchedulerText("df:speed=2"), Catch::Contains("no parameter 'speed'"));
    CHECK(createScheduler(parseSchedulerText("fifo-slice:slice_us=3,burst=2"))->name() == "fifo-slice");
    CHECK(availableSchedulers().size() >= 4);
}

TEST_CASE("a scheduler parameter given twice is refused, naming the scheduler, the key and both values", "[scheduler]") {
    // "rr:train=1,train=2" ran with train 2, silently; graph files refuse a key given twice.
    CHECK_THROWS_WITH(parseSchedulerText("rr:train=1,train=2"),
                      Catch::Contains("scheduler 'rr', parameter 'train' is given twice (train=1 and train=2): give it once"));
    CHECK_THROWS_WITH(parseSchedulerText("fifo-slice:slice_us=3,burst=2,slice_us=3"), Catch::Contains("parameter 'slice_us' is given twice"));
    CHECK(parseSchedulerText("fifo-slice:slice_us=3,burst=2").params.size() == 2);
}

TEST_CASE("stop ends a run that would never finish", "[scheduler]") {
    // The source never finishes, so only the stop can end the run; the stopper waits until the run
    // has produced an item (a promise the source fulfils), so the stop lands while it is running.
    GraphSpec spec = parseGraph(R"({"format": "isochron-graph/1",
      "nodes": [{"id": "src", "type": "test.endless", "params": {"name": "e"}},
                {"id": "out", "type": "io.null_sink"}],
      "edges": [{"from": "src.out", "to": "out.in"}]})");
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        std::future<void> running = endlessStarted()["e"].get_future();
        Engine engine(validateGraph(spec, testRegistry()), parseSchedulerText(scheduler));
        std::thread stopper([&] {
            running.wait();
            engine.requestStop();
        });
        RunOutcome outcome = engine.run();
        stopper.join();
        CHECK(outcome.stopped);
        CHECK_FALSE(outcome.completed);
        CHECK(engine.findNode("src")->calls > 0);
        endlessStarted().clear();
    }
}

TEST_CASE("the memory guard pauses admission and bounds memory when outputs hoard data", "[scheduler][memory]") {
    // A fast generator into a sink that keeps everything: without the guard memory grows until stopped.
    GraphSpec spec = parseGraph(R"({"format": "isochron-graph/1",
      "nodes": [{"id": "gen", "type": "generators.signal_generator", "params": {"waveform": "noise", "duration": 0, "block": 16384}},
                {"id": "hoard", "type": "test.collect", "params": {"name": "hoard"}}],
      "edges": [{"from": "gen.out", "to": "hoard.in0"}]})");
    for (const std::string scheduler : {"fifo", "df"}) {
        INFO("scheduler " << scheduler);
        const std::uint64_t before = MemoryPool::instance().stats().liveBytes;
        const std::uint64_t limit = before + (std::uint64_t{24} << 20);
        std::uint64_t peak = 0;
        {
            Engine engine(validateGraph(spec, testRegistry()), parseSchedulerText(scheduler));
            engine.setMemoryLimit(limit);
            std::atomic<bool> done{false};
            std::thread watcher([&] {
                // Watch until memory has reached the limit, then long enough for the guard to trip
                // a few times (bounded by time, so a slow build under load still ends).
                int afterLimit = 0;
                for (int i = 0; i < 4000 && afterLimit < 40; ++i) {
                    peak = std::max<std::uint64_t>(peak, MemoryPool::instance().stats().liveBytes);
                    if (peak > limit) ++afterLimit;
                    std::this_thread::sleep_for(std::chrono::milliseconds(5));
                }
                engine.requestStop();
                done = true;
            });
            engine.run();
            watcher.join();
            CHECK(engine.admissionPauses() > 0);
            const auto& warnings = engine.findNode("gen")->warnings;
            REQUIRE_FALSE(warnings.empty());
            CHECK(warnings.front().find("memory limit") != std::string::npos);
            CHECK(collections()["hoard"].items[0].size() > 10);
        }
        // Over the limit by at most what one guard interval (1 ms) admits.
        CHECK(peak < limit + (std::uint64_t{16} << 20));
        collections().clear();
    }
}

namespace {

// Sees what the looping box sends; once the loop has gone around `laps` times and the box's other
// output, a collector, has received something, it asks the engine to stop. Runs on the
// engine thread, inside the drain, so the stop lands while the loop is busy; no clock involved.
class StopAfterLaps final : public WireTap {
public:
    StopAfterLaps(Engine& engine, std::uint64_t laps, std::string sink) : engine_(engine), laps_(laps), sink_(std::move(sink)) {}
    void observe(const Item&) noexcept override {
        ++seen_;
        const auto& items = collections()[sink_].items;
        const std::uint64_t collected = items.empty() ? 0 : items[0].size();
        // Sent toward the collector but not yet collected: what waits in its queue.
        largestBacklog_ = std::max(largestBacklog_, seen_ - std::min(seen_, collected));
        // A scheduler that starves the collector is stopped after many more laps; the test then fails.
        if ((seen_ >= laps_ && collected > 0) || seen_ >= 100 * laps_) engine_.requestStop();
    }
    std::uint64_t seen() const { return seen_; }
    /// The most items that ever waited for the collector.
    std::uint64_t largestBacklog() const { return largestBacklog_; }

private:
    Engine& engine_;
    std::uint64_t laps_;
    std::string sink_;
    std::uint64_t seen_ = 0;
    std::uint64_t largestBacklog_ = 0;
};

}  // namespace

TEST_CASE("a feedback loop that never drains stops on request under every scheduler, and its other output is served", "[scheduler][cycle]") {
    // The box's output feeds its own second input and a collector: every item goes around forever.
    // rtc drained the loop inside one box call, never looking at the stop flag nor running the
    // collector (whose queue grew about 0.6 GB/s).
    GraphSpec spec = parseGraph(R"({"format": "isochron-graph/1",
      "nodes": [{"id": "src", "type": "test.endless", "params": {"name": "loop-src"}},
                {"id": "box", "type": "workload.universal_box", "params": {"inputs": 2}},
                {"id": "out", "type": "test.collect", "params": {"name": "loop-out"}}],
      "edges": [{"from": "src.out", "to": "box.in0"}, {"from": "box.out", "to": "box.in1"}, {"from": "box.out", "to": "out.in0"}]})");
    constexpr std::uint64_t kLaps = 20'000;
    constexpr std::uint64_t kLargestBacklog = 64;
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        // The QoS schedulers run the box with the least slack first, and the looping box always has
        // less than the collector after it: they starved the collector until waiting was bounded.
        collections().erase("loop-out");
        Engine engine(validateGraph(spec, testRegistry()), parseSchedulerText(scheduler));
        auto stopper = std::make_shared<StopAfterLaps>(engine, kLaps, "loop-out");
        engine.setTap("box", "out", stopper);
        RunOutcome outcome = engine.run();
        CHECK(outcome.stopped);
        CHECK_FALSE(outcome.completed);
        CHECK(stopper->seen() >= kLaps);
        CHECK(stopper->seen() < 100 * kLaps);
        CHECK_FALSE(collections()["loop-out"].items[0].empty());
        // The collector keeps up with the one item going around: fifo-slice let the box's turn run
        // on the items it fed itself during that turn, so each turn sent the collector a time
        // slice's worth of items and it fell further behind on every turn (its queue grew without end).
        CHECK(stopper->largestBacklog() <= kLargestBacklog);
    }
    collections().clear();
}

namespace {

// Asks the engine to stop at the first item it sees, and counts what it sees after.
class StopAtFirstItem final : public WireTap {
public:
    explicit StopAtFirstItem(Engine& engine) : engine_(engine) {}
    void observe(const Item&) noexcept override {
        if (seen_++ == 0) engine_.requestStop();
    }
    std::uint64_t seen() const { return seen_; }

private:
    Engine& engine_;
    std::uint64_t seen_ = 0;
};

}  // namespace

TEST_CASE("a stop request ends a source's burst at the next block, under every scheduler", "[scheduler]") {
    // A paced source far behind its pace emits every overdue block in one call: under df each block
    // ran the graph to its end, and the stop waited for the whole burst (Ctrl-C took seconds under
    // overload). Paced a million times faster than real time, every block is overdue at once.
    GraphSpec spec = parseGraph(R"({"format": "isochron-graph/1",
      "nodes": [{"id": "gen", "type": "generators.signal_generator", "params": {"rate": 48000, "duration": 10, "block": 64, "pace": 1e6}},
                {"id": "out", "type": "io.null_sink"}],
      "edges": [{"from": "gen.out", "to": "out.in"}]})");
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        Engine engine(validateGraph(spec, testRegistry()), parseSchedulerText(scheduler));
        auto stopper = std::make_shared<StopAtFirstItem>(engine);
        engine.setTap("gen", "out", stopper);
        RunOutcome outcome = engine.run();
        CHECK(outcome.stopped);
        CHECK(stopper->seen() == 1);
    }
}
