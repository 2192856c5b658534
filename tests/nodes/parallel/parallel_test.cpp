// parasplit in one process: a parallel.split feeding q replicas of an operator, joined by a
// parallel.merge, gives exactly what the unsplit operator gives (the reference is the unsplit run of
// the same graph), over a matrix of replica counts, window and block sizes and every scheduler; events
// routed by key keep each key in one replica.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

// Noise blocks into `replica` (type and params JSON) into collection `collection`: the reference.
std::string unsplitGraph(const std::string& replica, int block) {
    return R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"waveform": "noise", "rate": 16000, "duration": 2.3, "block": )" +
           std::to_string(block) + R"(}},
      {"id": "work", )" + replica + R"(},
      {"id": "sink", "type": "test.collect", "params": {"name": "whole"}}],
     "edges": [{"from": "gen.out", "to": "work.in"}, {"from": "work.out", "to": "sink.in0"}]})";
}

// The same source split into q copies of `replica`, merged in time order into collection "split".
std::string splitGraph(const std::string& replica, int block, int q, const std::string& splitParams) {
    std::string nodes = R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"waveform": "noise", "rate": 16000, "duration": 2.3, "block": )" +
                        std::to_string(block) + R"(}},
      {"id": "split", "type": "parallel.split", "params": {"outputs": )" + std::to_string(q) + ", " + splitParams + R"(}},
      {"id": "merge", "type": "parallel.merge", "params": {"inputs": )" + std::to_string(q) + R"(}},
      {"id": "sink", "type": "test.collect", "params": {"name": "split"}})";
    std::string edges = R"({"from": "gen.out", "to": "split.in"}, {"from": "merge.out", "to": "sink.in0"})";
    for (int k = 0; k < q; ++k) {
        const std::string id = "work" + std::to_string(k);
        nodes += ",\n{\"id\": \"" + id + "\", " + replica + "}";
        edges += ", {\"from\": \"split.out" + std::to_string(k) + "\", \"to\": \"" + id + ".in\"}, {\"from\": \"" + id +
                 ".out\", \"to\": \"merge.in" + std::to_string(k) + "\"}";
    }
    return nodes + "],\n\"edges\": [" + edges + "]}";
}

// A signal stream as one run: its first index and its samples; fails the test at a gap or overlap.
struct Stream {
    std::int64_t start = 0;
    std::vector<float> samples;
};
Stream joined(const std::vector<Item>& items) {
    Stream stream;
    REQUIRE(!items.empty());
    stream.start = items.front().range().start;
    for (const Item& item : items) {
        REQUIRE(item.kind() == ItemKind::Signal);
        CHECK(item.range().start == stream.start + static_cast<std::int64_t>(stream.samples.size()));  // in order, once each
        const std::vector<float> samples = samplesOf(item);
        stream.samples.insert(stream.samples.end(), samples.begin(), samples.end());
    }
    return stream;
}

// Every block size and replica count under the depth-first scheduler, and every scheduler once.
void checkSplitEqualsWhole(const std::string& replica, const std::string& splitParams) {
    struct Setup {
        int block, q;
        std::string scheduler;
    };
    std::vector<Setup> setups;
    for (const int block : {512, 1500, 4096}) {
        for (const int q : {1, 2, 3}) setups.push_back({block, q, "df"});
    }
    for (const std::string& scheduler : schedulerMatrix()) setups.push_back({1500, 3, scheduler});
    for (const Setup& setup : setups) {
        INFO("block " << setup.block << ", q " << setup.q << ", scheduler " << setup.scheduler << ", split " << splitParams);
        collections().clear();
        REQUIRE(runGraph(unsplitGraph(replica, setup.block), setup.scheduler).completed);
        REQUIRE(runGraph(splitGraph(replica, setup.block, setup.q, splitParams), setup.scheduler).completed);
        const Stream whole = joined(collections()["whole"].items[0]);
        const Stream split = joined(collections()["split"].items[0]);
        CHECK(whole.samples.size() == static_cast<std::size_t>(2.3 * 16000));
        CHECK(split.start == whole.start);
        CHECK(split.samples == whole.samples);
    }
}

}  // namespace

TEST_CASE("round-robin windows through q replicas of a memoryless operator give the unsplit output", "[parallel][split]") {
    for (const int window : {7, 1000, 4096, 7777}) {
        checkSplitEqualsWhole(R"("type": "math.abs")", R"("routing": "round_robin", "window": )" + std::to_string(window));
    }
}

TEST_CASE("windows with overlap through q replicas of an FIR filter give the unsplit output", "[parallel][split]") {
    // The filter's output at a sample depends on the 62 samples before it: an overlap of 62 is exact.
    const std::string fir = R"("type": "filters.fir", "params": {"taps": 63, "cutoff_hz": 2000, "method": "direct"})";
    for (const int window : {100, 1000, 4096}) checkSplitEqualsWhole(fir, R"("routing": "overlap", "overlap": 62, "window": )" + std::to_string(window));
}

TEST_CASE("without overlap an FIR filter's replicas differ from the unsplit output", "[parallel][split]") {
    // The property the overlap is for: each replica starts its windows with another window's history.
    const std::string fir = R"("type": "filters.fir", "params": {"taps": 63, "cutoff_hz": 2000, "method": "direct"})";
    collections().clear();
    REQUIRE(runGraph(unsplitGraph(fir, 1024)).completed);
    REQUIRE(runGraph(splitGraph(fir, 1024, 2, R"("routing": "round_robin", "window": 1000)")).completed);
    CHECK(joined(collections()["split"].items[0]).samples != joined(collections()["whole"].items[0]).samples);
}

TEST_CASE("events routed by key keep each key in one replica and merge back into their order", "[parallel][split]") {
    const Timebase& tb = Timebase::get(1000);
    // 300 events at distinct times, keys 0..6, in time order.
    FeedScript script;
    std::vector<std::pair<double, std::int64_t>> sent;  // (key, time)
    for (int i = 0; i < 300; ++i) {
        EventRecord* record = EventRecord::create("hit");
        const double key = static_cast<double>((i * 5 + i / 7) % 7);
        record->set("key", key);
        record->set("i", i);
        sent.emplace_back(key, 10 * i);
        script.batches.push_back({{0, Item::event(record, SampleRange{&tb, 10 * i, 1}, 1.0)}});
        script.batches.back().push_back({0, Item::progress(tb.timeOf(10 * i + 1))});
    }
    for (const std::string& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        collections().clear();
        feedScripts()["events"] = script;
        const std::string graph = R"({"format": "isochron-graph/1", "nodes": [
          {"id": "feed", "type": "test.feed", "params": {"name": "events", "type": "event"}},
          {"id": "split", "type": "parallel.split", "params": {"outputs": 3, "routing": "by_key", "key": "key"}},
          {"id": "r0", "type": "segments.pass_through"}, {"id": "r1", "type": "segments.pass_through"}, {"id": "r2", "type": "segments.pass_through"},
          {"id": "merge", "type": "parallel.merge", "params": {"inputs": 3}},
          {"id": "replicas", "type": "test.collect", "params": {"name": "replicas", "inputs": 3}},
          {"id": "sink", "type": "test.collect", "params": {"name": "merged"}}],
         "edges": [{"from": "feed.out0", "to": "split.in"},
                   {"from": "split.out0", "to": "r0.in"}, {"from": "split.out1", "to": "r1.in"}, {"from": "split.out2", "to": "r2.in"},
                   {"from": "r0.out", "to": "merge.in0"}, {"from": "r1.out", "to": "merge.in1"}, {"from": "r2.out", "to": "merge.in2"},
                   {"from": "split.out0", "to": "replicas.in0"}, {"from": "split.out1", "to": "replicas.in1"}, {"from": "split.out2", "to": "replicas.in2"},
                   {"from": "merge.out", "to": "sink.in0"}]})";
        REQUIRE(runGraph(graph, scheduler).completed);
        std::map<double, std::set<int>> replicasOfKey;
        std::size_t routed = 0;
        for (int k = 0; k < 3; ++k) {
            const std::vector<Item>& items = collections()["replicas"].items[static_cast<std::size_t>(k)];
            routed += items.size();
            CHECK(!items.empty());  // seven keys spread over three replicas
            for (const Item& item : items) replicasOfKey[*item.event()->get("key")].insert(k);
        }
        CHECK(routed == sent.size());
        for (const auto& [key, replicas] : replicasOfKey) {
            INFO("key " << key);
            CHECK(replicas.size() == 1);
        }
        const std::vector<Item>& merged = collections()["merged"].items[0];
        REQUIRE(merged.size() == sent.size());
        for (std::size_t i = 0; i < merged.size(); ++i) {
            INFO("event " << i);
            CHECK(merged[i].range().start == sent[i].second);
            CHECK(*merged[i].event()->get("key") == sent[i].first);
        }
    }
}

TEST_CASE("a split refuses routings its input cannot take", "[parallel][split][errors]") {
    CHECK_THROWS_WITH(runGraph(splitGraph(R"("type": "math.abs")", 512, 2, R"("routing": "by_key")")),
                      Catch::Contains("routing 'by_key' sends events"));
}

TEST_CASE("p splitters by key behind a round-robin router, merged per replica, give the events back in order", "[parallel][split]") {
    // The paper's layout with p = 2 splitters and q = 3 replicas: router -> 2 by_key splitters ->
    // replica j merges output j of both -> a last merge of the three replicas.
    const Timebase& tb = Timebase::get(1000);
    FeedScript script;
    for (int i = 0; i < 200; ++i) {
        EventRecord* record = EventRecord::create("hit");
        record->set("key", static_cast<double>((i * 3 + i / 4) % 5));
        script.batches.push_back({{0, Item::event(record, SampleRange{&tb, 10 * i, 1}, 1.0)}, {0, Item::progress(tb.timeOf(10 * i + 1))}});
    }
    std::string nodes = R"({"id": "feed", "type": "test.feed", "params": {"name": "events", "type": "event"}},
      {"id": "router", "type": "parallel.split", "params": {"outputs": 2}},
      {"id": "last", "type": "parallel.merge", "params": {"inputs": 3}},
      {"id": "sink", "type": "test.collect", "params": {"name": "merged"}})";
    std::string edges = R"({"from": "feed.out0", "to": "router.in"}, {"from": "last.out", "to": "sink.in0"})";
    for (int s = 0; s < 2; ++s) {
        nodes += R"(, {"id": "splitter)" + std::to_string(s) + R"(", "type": "parallel.split", "params": {"outputs": 3, "routing": "by_key", "key": "key"}})";
        edges += R"(, {"from": "router.out)" + std::to_string(s) + R"(", "to": "splitter)" + std::to_string(s) + R"(.in"})";
    }
    for (int j = 0; j < 3; ++j) {
        const std::string n = std::to_string(j);
        nodes += R"(, {"id": "gather)" + n + R"(", "type": "parallel.merge", "params": {"inputs": 2}}, {"id": "replica)" + n +
                 R"(", "type": "segments.pass_through"})";
        edges += R"(, {"from": "splitter0.out)" + n + R"(", "to": "gather)" + n + R"(.in0"}, {"from": "splitter1.out)" + n + R"(", "to": "gather)" + n +
                 R"(.in1"}, {"from": "gather)" + n + R"(.out", "to": "replica)" + n + R"(.in"}, {"from": "replica)" + n + R"(.out", "to": "last.in)" + n + R"("})";
    }
    for (const std::string& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        collections().clear();
        feedScripts()["events"] = script;
        REQUIRE(runGraph(R"({"format": "isochron-graph/1", "nodes": [)" + nodes + R"(], "edges": [)" + edges + "]}", scheduler).completed);
        const std::vector<Item>& merged = collections()["merged"].items[0];
        REQUIRE(merged.size() == 200);
        for (std::size_t i = 0; i < merged.size(); ++i) CHECK(merged[i].range().start == static_cast<std::int64_t>(10 * i));
    }
}
