// Failed outputs end what only fed them: under every scheduler, a source whose every path ends at a
// failed node is stopped right after the failure (an endless source then ends the run), also
// through a loop and along a 100 000-node chain, while a branch that still reaches a working output
// gives exactly what it gives without the failing branch. Sources that never reached an output are
// left alone. The summary's first line says how many nodes failed.
#include <catch2/catch.hpp>

#include <cstdio>

#include "engine/graph/graph_file.h"
#include "engine/runtime/run_summary.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

const Timebase& tb() { return Timebase::get(100); }

// `count` scalars, one batch each, with progress after each.
FeedScript scalars(int count) {
    FeedScript script;
    for (int i = 0; i < count; ++i) {
        script.batches.push_back({{0, Item::scalar(0.5 * i, SampleRange{&tb(), 10 * i, 10})}, {0, Item::progress(tb().timeOf(10 * i + 10))}});
    }
    return script;
}

// Seconds as the summary writes them (three decimals).
std::string formatSeconds(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", seconds);
    return text;
}

// Data items a node sent on all its outputs.
std::uint64_t itemsSent(const Engine& engine, const std::string& id) {
    std::uint64_t total = 0;
    for (const auto& out : engine.findNode(id)->outputs) total += out.items;
    return total;
}

}  // namespace

TEST_CASE("an endless source whose only output fails is stopped at once, under every scheduler", "[scheduler][failure]") {
    const char* graph = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "src", "type": "test.endless"},
        {"id": "disk", "type": "test.fail_sink", "params": {"n": 5}}
      ],
      "edges": [{"from": "src.out", "to": "disk.in"}]
    })";
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        Engine engine(validateGraph(parseGraph(graph), testRegistry()), parseSchedulerText(scheduler));
        std::vector<std::string> heard;
        engine.setFailureListener([&](const std::string& failure) { heard.push_back(failure); });
        const RunOutcome outcome = engine.run();  // without the stop this never returns
        CHECK(outcome.completed);
        CHECK_FALSE(outcome.stopped);
        const std::vector<std::string> expected{"node 'disk': planted sink failure on item 5 (in process)"};
        CHECK(outcome.failures == expected);
        CHECK(heard == expected);
        CHECK(outcome.cutOffSources == std::vector<std::string>{"src"});
        // The endless source emits one item per call: the one that failed the sink was its last.
        CHECK(itemsSent(engine, "src") == 5);
        CHECK(engine.findNode("src")->finished);
        REQUIRE(engine.findNode("src")->warnings.size() == 1);
        CHECK(engine.findNode("src")->warnings[0].find("stopped early") == 0);
        // The summary's first line says the run completed with a failure, not as a clean run does.
        const std::string summary = summarizeRun(engine, outcome).toText();
        CHECK(summary.substr(0, summary.find('\n')).ends_with(": completed after " + formatSeconds(outcome.wallSeconds) + " s, but 1 node failed"));
    }
}

TEST_CASE("a failed node in the middle cuts off the source above it, through a loop", "[scheduler][failure]") {
    // src -> loop <-> delay, loop.out -> fragile -> out. When fragile fails, loop and delay still
    // reach each other but no output: src is stopped, and `out` (which works) sees what came before.
    const char* graph = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "src", "type": "test.endless"},
        {"id": "loop", "type": "test.loop", "params": {"laps": 2}},
        {"id": "delay", "type": "segments.pass_through"},
        {"id": "fragile", "type": "test.fail_after", "params": {"n": 4}},
        {"id": "out", "type": "test.collect", "params": {"name": "after-loop"}}
      ],
      "edges": [
        {"from": "src.out", "to": "loop.in"}, {"from": "loop.around", "to": "delay.in"},
        {"from": "delay.out", "to": "loop.back"}, {"from": "loop.out", "to": "fragile.in"},
        {"from": "fragile.out", "to": "out.in0"}
      ]
    })";
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        const RunOutcome outcome = runGraph(graph, scheduler);
        CHECK(outcome.completed);
        CHECK(outcome.failures == std::vector<std::string>{"node 'fragile': planted failure on item 4 (in process)"});
        CHECK(outcome.cutOffSources == std::vector<std::string>{"src"});
        const Collected& got = collections()["after-loop"];
        CHECK(got.items[0].size() == 3);
        CHECK_FALSE(got.finished);  // cut short by the failure upstream: no onFinish(), as in a stopped run
    }
    collections().clear();
}

TEST_CASE("a branch that still reaches a working output runs to its end as if the failing one were absent", "[scheduler][failure]") {
    // Two sources: `feed` into a working output, `src` (endless) into an output that fails.
    const char* withFailingBranch = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "feed", "type": "test.feed", "params": {"name": "healthy", "type": "scalar"}},
        {"id": "gain", "type": "test.gain", "params": {"gain": 3}},
        {"id": "healthy", "type": "test.collect", "params": {"name": "healthy"}},
        {"id": "src", "type": "test.endless"},
        {"id": "disk", "type": "test.fail_sink", "params": {"n": 2}}
      ],
      "edges": [{"from": "feed.out0", "to": "gain.in"}, {"from": "gain.out", "to": "healthy.in0"},
                {"from": "src.out", "to": "disk.in"}]
    })";
    const char* alone = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "feed", "type": "test.feed", "params": {"name": "healthy", "type": "scalar"}},
        {"id": "gain", "type": "test.gain", "params": {"gain": 3}},
        {"id": "healthy", "type": "test.collect", "params": {"name": "healthy"}}
      ],
      "edges": [{"from": "feed.out0", "to": "gain.in"}, {"from": "gain.out", "to": "healthy.in0"}]
    })";
    feedScripts()["healthy"] = scalars(40);
    REQUIRE(runGraph(alone, "df").failures.empty());
    const std::vector<Item> reference = collections()["healthy"].items[0];
    REQUIRE(reference.size() == 40);
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        const RunOutcome outcome = runGraph(withFailingBranch, scheduler);
        CHECK(outcome.completed);
        CHECK(outcome.failures == std::vector<std::string>{"node 'disk': planted sink failure on item 2 (in process)"});
        CHECK(outcome.cutOffSources == std::vector<std::string>{"src"});
        const Collected& got = collections()["healthy"];
        CHECK(got.finished);
        REQUIRE(got.items[0].size() == reference.size());
        for (std::size_t i = 0; i < reference.size(); ++i) {
            std::string why;
            INFO("item " << i);
            CHECK(sameData(reference[i], got.items[0][i], &why));
            INFO(why);
        }
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("a source that still reaches a working output is not stopped when another of its outputs fails", "[scheduler][failure]") {
    const char* graph = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "feed", "type": "test.feed", "params": {"name": "fan", "type": "scalar"}},
        {"id": "disk", "type": "test.fail_sink", "params": {"n": 3}},
        {"id": "healthy", "type": "test.collect", "params": {"name": "fan"}}
      ],
      "edges": [{"from": "feed.out0", "to": "disk.in"}, {"from": "feed.out0", "to": "healthy.in0"}]
    })";
    feedScripts()["fan"] = scalars(25);
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        const RunOutcome outcome = runGraph(graph, scheduler);
        CHECK(outcome.completed);
        CHECK(outcome.failures.size() == 1);
        CHECK(outcome.cutOffSources.empty());
        CHECK(collections()["fan"].items[0].size() == 25);
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("a source that never reached an output is not stopped by a failure elsewhere", "[scheduler][failure]") {
    // `loose` feeds a node whose output is not connected: it never reached an output, so the
    // failure of `disk` is no reason to stop it (it runs to its end as before).
    const char* graph = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "loose", "type": "test.feed", "params": {"name": "loose", "type": "scalar"}},
        {"id": "gain", "type": "test.gain"},
        {"id": "feed", "type": "test.feed", "params": {"name": "short", "type": "scalar"}},
        {"id": "disk", "type": "test.fail_sink", "params": {"n": 1}}
      ],
      "edges": [{"from": "loose.out0", "to": "gain.in"}, {"from": "feed.out0", "to": "disk.in"}]
    })";
    feedScripts()["loose"] = scalars(30);
    feedScripts()["short"] = scalars(30);
    for (const char* scheduler : {"df", "fifo", "superbox-mc:workers=2"}) {
        INFO("scheduler " << scheduler);
        Engine engine(validateGraph(parseGraph(graph), testRegistry()), parseSchedulerText(scheduler));
        const RunOutcome outcome = engine.run();
        CHECK(outcome.completed);
        CHECK(outcome.cutOffSources == std::vector<std::string>{"feed"});
        CHECK(itemsSent(engine, "loose") == 30);
        CHECK(itemsSent(engine, "gain") == 30);
    }
    feedScripts().clear();
}

TEST_CASE("a failed output at the end of a 100 000-node chain stops its source", "[large][failure]") {
    // The search for what still reaches an output walks the whole chain backwards: no recursion.
    GraphSpec spec;
    auto node = [](std::string id, std::string type, std::map<std::string, nlohmann::json> params = {}) {
        NodeSpec n;
        n.id = std::move(id);
        n.type = std::move(type);
        n.params = std::move(params);
        return n;
    };
    spec.nodes.push_back(node("src", "test.endless"));
    std::string previous = "src";
    for (int i = 0; i < 100'000; ++i) {
        const std::string id = std::string("g").append(std::to_string(i));
        spec.nodes.push_back(node(id, "test.gain"));
        spec.edges.push_back({previous, "out", id, "in"});
        previous = id;
    }
    spec.nodes.push_back(node("disk", "test.fail_sink", {{"n", 3}}));
    spec.edges.push_back({previous, "out", "disk", "in"});
    Engine engine(validateGraph(spec, testRegistry()), parseSchedulerText("fifo"));
    const RunOutcome outcome = engine.run();
    CHECK(outcome.completed);
    CHECK(outcome.cutOffSources == std::vector<std::string>{"src"});
    CHECK(itemsSent(engine, "src") == 3);
}
