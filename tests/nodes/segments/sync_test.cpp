#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/memory/memory_pool.h"
#include "engine/runtime/engine.h"
#include "tests/support/graph_run.h"
#include "tests/support/stream_probes.h"

using namespace isochron;
using namespace isochron::test;

namespace {

struct Stretch {
    std::int64_t start;
    std::vector<float> samples;
};

// One data input: its timebase and contiguous stretches (jumps between them are lost samples).
struct DataStream {
    const Timebase* timebase;
    std::vector<Stretch> stretches;
};

struct ExpectedSegment {
    std::int64_t start;
    std::vector<float> samples;
};

std::vector<float> noise(std::size_t count, std::mt19937& random) {
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> samples(count);
    for (auto& s : samples) s = uniform(random);
    return samples;
}

// Reference: per range, the samples of each stretch whose times lie in [start time, end time).
std::vector<ExpectedSegment> referenceCuts(const DataStream& data, const std::vector<SampleRange>& ranges) {
    std::vector<ExpectedSegment> cuts;
    for (const SampleRange& r : ranges) {
        const std::int64_t first = data.timebase->firstIndexAtOrAfter(r.startTime());
        const std::int64_t end = data.timebase->firstIndexAtOrAfter(r.endTime());
        for (const Stretch& s : data.stretches) {
            const std::int64_t from = std::max(first, s.start);
            const std::int64_t to = std::min(end, s.start + static_cast<std::int64_t>(s.samples.size()));
            if (from >= to) continue;
            auto begin = s.samples.begin() + (from - s.start);
            cuts.push_back({from, std::vector<float>(begin, begin + (to - from))});
        }
    }
    return cuts;
}

// Items of a data feed: random segments of the stretches, optionally each followed by progress.
std::vector<std::vector<std::pair<int, Item>>> dataBatches(const DataStream& data, std::mt19937& random, bool withProgress) {
    std::vector<std::vector<std::pair<int, Item>>> batches;
    std::uniform_int_distribution<std::size_t> pieceLength(1, 600);
    for (const Stretch& s : data.stretches) {
        for (std::size_t at = 0; at < s.samples.size();) {
            const std::size_t take = std::min(pieceLength(random), s.samples.size() - at);
            std::vector<float> piece(s.samples.begin() + static_cast<std::ptrdiff_t>(at),
                                     s.samples.begin() + static_cast<std::ptrdiff_t>(at + take));
            SigSeg<float> segment = makeSignal(piece, s.start + static_cast<std::int64_t>(at), *data.timebase);
            std::vector<std::pair<int, Item>> batch{{0, Item::signal(segment)}};
            if (withProgress) batch.push_back({0, Item::progress(segment.endTime())});
            batches.push_back(std::move(batch));
            at += take;
        }
    }
    return batches;
}

enum class Order { RangesFirst, DataFirst, Interleaved };

// Items of the control feed, in one of the orders relative to `dataRounds` rounds of data.
std::vector<std::vector<std::pair<int, Item>>> controlBatches(const std::vector<SampleRange>& ranges, Order order,
                                                              std::size_t dataRounds, std::mt19937& random,
                                                              bool withProgress) {
    std::vector<std::vector<std::pair<int, Item>>> batches;
    if (order == Order::DataFirst) batches.resize(dataRounds + 1);  // idle rounds while data arrives
    std::bernoulli_distribution idle(0.8);
    for (const SampleRange& r : ranges) {
        if (order == Order::Interleaved) {
            while (idle(random)) batches.emplace_back();
        }
        std::vector<std::pair<int, Item>> batch{{0, Item::timeRange(r)}};
        if (withProgress) batch.push_back({0, Item::progress(r.startTime())});  // later ranges start later
        if (order == Order::RangesFirst && !batches.empty()) {
            for (auto& entry : batch) batches.back().push_back(std::move(entry));
        } else {
            batches.push_back(std::move(batch));
        }
    }
    return batches;
}

std::string syncGraph(std::size_t dataInputs) {
    std::string nodes = R"({"id": "ctl", "type": "test.feed", "params": {"name": "ctl", "type": "time_range"}},
    {"id": "sync", "type": "segments.sync", "params": {"inputs": )" + std::to_string(dataInputs) + "}}";
    std::string edges = R"({"from": "ctl.out0", "to": "sync.control"})";
    for (std::size_t i = 0; i < dataInputs; ++i) {
        const std::string n = std::to_string(i);
        nodes += R"(,
    {"id": "data)" + n + R"(", "type": "test.feed", "params": {"name": "data)" + n + R"("}},
    {"id": "probe)" + n + R"(", "type": "test.probe", "params": {"name": "out)" + n + R"("}})";
        edges += R"(, {"from": "data)" + n + R"(.out0", "to": "sync.data)" + n + R"("}, {"from": "sync.out)" + n +
                 R"(", "to": "probe)" + n + R"(.in"})";
    }
    return R"({"format": "isochron-graph/1", "nodes": [)" + nodes + R"(], "edges": [)" + edges + "]}";
}

}  // namespace

TEST_CASE("sync cuts every range out of every data input, whatever the order and scheduler", "[segments][sync]") {
    registerStreamProbes();
    std::mt19937 random(31337);
    const Timebase& control = Timebase::get(1000);
    const std::vector<DataStream> data{
        {&Timebase::get(1000), {{0, noise(3000, random)}}},
        {&Timebase::get(3000), {{300, noise(4700, random)}, {5100, noise(3900, random)}}},  // lost 5000..5100
        {&Timebase::get(750, 250'000), {{0, noise(2200, random)}}},
    };
    // Ranges anywhere from before the data to after its end, some overlapping, some empty.
    std::vector<SampleRange> ranges;
    std::uniform_int_distribution<std::int64_t> startStep(0, 120);
    std::uniform_int_distribution<std::int64_t> length(0, 400);
    for (std::int64_t start = -250; start < 3400; start += startStep(random)) ranges.push_back({&control, start, length(random)});
    ranges.push_back({&control, 2900, 1000});  // runs past the end of every input
    std::stable_sort(ranges.begin(), ranges.end(), [](const SampleRange& a, const SampleRange& b) { return a.start < b.start; });

    std::vector<std::vector<ExpectedSegment>> want;
    for (const DataStream& d : data) want.push_back(referenceCuts(d, ranges));

    for (Order order : {Order::RangesFirst, Order::DataFirst, Order::Interleaved}) {
        for (bool withProgress : {false, true}) {
            std::size_t dataRounds = 0;
            for (std::size_t i = 0; i < data.size(); ++i) {
                FeedScript script;
                script.batches = dataBatches(data[i], random, withProgress);
                dataRounds = std::max(dataRounds, script.batches.size());
                feedScripts()["data" + std::to_string(i)] = std::move(script);
            }
            FeedScript controlScript;
            controlScript.batches = controlBatches(ranges, order, dataRounds, random, withProgress);
            feedScripts()["ctl"] = std::move(controlScript);
            std::vector<std::vector<Item>> firstRun;  // per output, under the first scheduler
            for (const auto& scheduler : schedulerMatrix()) {
                INFO("order " << int(order) << ", progress " << withProgress << ", " << scheduler);
                RunOutcome outcome = runGraph(syncGraph(data.size()), scheduler);
                REQUIRE(outcome.completed);
                for (const auto& failure : outcome.failures) FAIL(failure);
                for (std::size_t i = 0; i < data.size(); ++i) {
                    INFO("out" << i);
                    const Probed& got = probes()["out" + std::to_string(i)];
                    REQUIRE(got.items.size() == want[i].size());
                    for (std::size_t k = 0; k < want[i].size(); ++k) {
                        INFO("segment " << k);
                        CHECK(got.items[k].segment().timebase() == data[i].timebase);
                        CHECK(got.items[k].segment().startIndex() == want[i][k].start);
                        CHECK(samplesOf(got.items[k]) == want[i][k].samples);
                    }
                    CHECK(got.brokenPromises == 0);
                    CHECK(got.finished);
                    if (firstRun.size() <= i) firstRun.push_back(got.items);
                    for (std::size_t k = 0; k < got.items.size(); ++k) CHECK(sameData(got.items[k], firstRun[i][k]));
                }
            }
        }
    }
    feedScripts().clear();
    probes().clear();
}

TEST_CASE("sync passes on a data segment that exactly covers a range as it is", "[segments][sync]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(1000);
    std::mt19937 random(4);
    FeedScript dataScript;
    std::vector<SigSeg<float>> sent;
    for (int b = 0; b < 8; ++b) {
        sent.push_back(makeSignal(noise(100, random), 100 * b, tb));
        dataScript.batches.push_back({{0, Item::signal(sent.back())}});
    }
    feedScripts()["data0"] = dataScript;
    // Ranges exactly on segments 2 and 5, given before any data.
    FeedScript controlScript;
    controlScript.batches = {{{0, Item::timeRange({&tb, 200, 100})}, {0, Item::timeRange({&tb, 500, 100})}}};
    feedScripts()["ctl"] = controlScript;
    for (const auto& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        REQUIRE(runGraph(syncGraph(1), scheduler).completed);
        const Probed& got = probes()["out0"];
        REQUIRE(got.items.size() == 2);
        CHECK(got.items[0].segment().list() == sent[2].list());
        CHECK(got.items[1].segment().list() == sent[5].list());
        CHECK(got.items[1].segment().length() == 100);
    }
    feedScripts().clear();
    probes().clear();
}

TEST_CASE("sync reports a range without samples once per output and skips it", "[segments][sync]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(1000);
    std::mt19937 random(5);
    FeedScript dataScript;
    dataScript.batches = {{{0, Item::signal(makeSignal(noise(500, random), 0, tb))}}};
    feedScripts()["data0"] = dataScript;
    FeedScript controlScript;
    controlScript.batches = {{{0, Item::timeRange({&tb, 100, 50})},
                              {0, Item::timeRange({&tb, 600, 50})},
                              {0, Item::timeRange({&tb, 700, 50})}}};
    feedScripts()["ctl"] = controlScript;
    ValidatedGraph graph = validateGraph(parseGraph(syncGraph(1)), testRegistry());
    Engine engine(graph, parseSchedulerText("df"));
    REQUIRE(engine.run().completed);
    const Probed& got = probes()["out0"];
    REQUIRE(got.items.size() == 1);
    CHECK(got.items[0].segment().startIndex() == 100);
    CHECK(got.items[0].segment().length() == 50);
    CHECK(engine.findNode("sync")->warningCount == 1);
    feedScripts().clear();
    probes().clear();
}

TEST_CASE("sync keeps memory bounded on a long stream driven by a silence detector", "[segments][sync][detect]") {
    registerStreamProbes();
    // 3000 blocks of 1024 samples (12 MB of floats); 2 loud blocks in every 50.
    const char* graph = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "audio", "type": "test.blocks", "params": {"blocks": 3000, "block": 1024, "period": 50, "loud": 2}},
        {"id": "detector", "type": "detect.silence_detector", "params": {"window": 1024, "threshold": 0.01}},
        {"id": "sync", "type": "segments.sync"},
        {"id": "probe", "type": "test.probe", "params": {"name": "bursts", "keep": false}}
      ],
      "edges": [
        {"from": "audio.out", "to": "detector.in"}, {"from": "audio.out", "to": "sync.data0"},
        {"from": "detector.ranges", "to": "sync.control"}, {"from": "sync.out0", "to": "probe.in"}
      ]
    })";
    for (const auto& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        const std::uint64_t before = MemoryPool::instance().stats().liveBytes;
        RunOutcome outcome = runGraph(graph, scheduler);
        REQUIRE(outcome.completed);
        REQUIRE(outcome.failures.empty());
        const Probed& got = probes()["bursts"];
        CHECK(got.itemCount == 60);
        CHECK(got.brokenPromises == 0);
        // Holding everything would take 12 MB; a few blocks around the open run is all it needs.
        const std::uint64_t peak = got.peakLiveBytes > before ? got.peakLiveBytes - before : 0;
        CHECK(peak < 64 * 4096);
        CHECK(MemoryPool::instance().stats().liveBytes <= before);
    }
    probes().clear();
}

TEST_CASE("sync declares repeated data inputs and outputs", "[segments][sync]") {
    const OperatorDescriptor* d = testRegistry().find("segments.sync");
    REQUIRE(d != nullptr);
    ParamSet params;
    params.set("inputs", std::int64_t{3});
    const auto inputs = d->resolveInputs(params);
    const auto outputs = d->resolveOutputs(params);
    REQUIRE(inputs.size() == 4);
    CHECK(inputs[0].name == "control");
    CHECK(inputs[3].name == "data2");
    REQUIRE(outputs.size() == 3);
    CHECK(outputs[2].name == "out2");
}

TEST_CASE("sync with inputs 0 takes the size of the bus feeding data*, and refuses to run without data", "[segments][sync]") {
    const std::string bus = R"({"format": "isochron-graph/1", "nodes": [
        {"id": "ranges", "type": "test.feed", "params": {"name": "unused", "type": "time_range"}},
        {"id": "channels", "type": "test.feed", "params": {"name": "unused", "outputs": 3}},
        {"id": "cut", "type": "segments.sync", "params": {"inputs": 0}},
        {"id": "sink", "type": "test.collect", "params": {"inputs": 0}}],
      "edges": [{"from": "ranges.out0", "to": "cut.control"}, {"from": "channels.out*", "to": "cut.data*"},
                {"from": "cut.out*", "to": "sink.in*"}]})";
    const ValidatedGraph graph = validateGraph(parseGraph(bus), testRegistry());
    CHECK(graph.nodes[2].inputs.size() == 4);
    CHECK(graph.nodes[2].outputs.size() == 3);

    const std::string alone = R"({"format": "isochron-graph/1", "nodes": [
        {"id": "ranges", "type": "test.feed", "params": {"name": "unused", "type": "time_range"}},
        {"id": "cut", "type": "segments.sync", "params": {"inputs": 0}}],
      "edges": [{"from": "ranges.out0", "to": "cut.control"}]})";
    CHECK_THROWS_WITH(runGraph(alone), Catch::Contains("node 'cut'") && Catch::Contains("no data inputs"));
    feedScripts().clear();
}
