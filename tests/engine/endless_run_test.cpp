// Runs that can never end are named before they start (isochron-run --check): an endless source, with
// the files it fills, and a fed loop with no node that declares it may drop items (certain when every
// node on it declares it passes each item on, "may never drain" when some declare nothing). A warned
// loop really circulates without end (it passes on far more items than ever entered it until
// stopped); graphs without a warning really end.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>

#include "engine/graph/endless_run.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/wire_tap.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

std::vector<GraphError> warningsFor(const std::string& text) {
    return endlessRunWarnings(validateGraph(parseGraph(text), testRegistry()));
}

std::string describe(const std::vector<GraphError>& warnings) {
    std::string text;
    for (const GraphError& w : warnings) text += w.toString() + "\n";
    return text;
}

// 20 scalar items into `loop`'s first input; `loop` is a list of nodes and edges to close it.
std::string fedLoop(const std::string& nodes, const std::string& edges) {
    return R"({"format": "isochron-graph/1", "nodes": [
      {"id": "src", "type": "workload.tuple_source", "params": {"count": 20, "pace": 0}},
      {"id": "sink", "type": "io.null_sink"}, )" +
           nodes + R"(], "edges": [{"from": "src.out0", "to": "box.in0"}, {"from": "box.out", "to": "sink.in"}, )" + edges + "]}";
}

// Counts the items one port sends, and stops the engine once they exceed `limit`.
class StopAfter final : public WireTap {
public:
    StopAfter(Engine& engine, long limit) : engine_(engine), limit_(limit) {}
    void observe(const Item&) noexcept override {
        if (++seen_ > limit_) engine_.requestStop();
    }
    long seen() const { return seen_; }

private:
    Engine& engine_;
    long limit_;
    std::atomic<long> seen_{0};
};

}  // namespace

TEST_CASE("a loop whose every node passes each item on is warned about, and never drains", "[graph][endless]") {
    const std::string text = fedLoop(R"({"id": "box", "type": "workload.universal_box", "params": {"inputs": 2, "selectivity": 1}})",
                                     R"({"from": "box.out", "to": "box.in1"})");
    const std::vector<GraphError> warnings = warningsFor(text);
    INFO(describe(warnings));
    REQUIRE(warnings.size() == 1);
    CHECK(warnings.front().node == "box");
    CHECK(warnings.front().message.find("feeds itself in a loop that never drains") == 0);

    // What the warning says: 20 items entered, yet the box passes on any number until stopped.
    for (const char* scheduler : {"df", "rtc", "fifo", "qos"}) {
        INFO(scheduler);
        Engine engine(validateGraph(parseGraph(text), testRegistry()), parseSchedulerText(scheduler));
        auto counter = std::make_shared<StopAfter>(engine, 100'000);
        engine.setTap("box", "out", counter);
        const RunOutcome outcome = engine.run();
        CHECK(outcome.stopped);
        CHECK_FALSE(outcome.completed);
        CHECK(counter->seen() > 100'000);
    }
}

TEST_CASE("a loop that drains is not warned about, and ends", "[graph][endless]") {
    const std::string text = fedLoop(R"({"id": "box", "type": "workload.universal_box", "params": {"inputs": 2, "selectivity": 1}},
      {"id": "half", "type": "workload.universal_box", "params": {"selectivity": 0.5}})",
                                     R"({"from": "box.out", "to": "half.in0"}, {"from": "half.out", "to": "box.in1"})");
    const std::vector<GraphError> warnings = warningsFor(text);
    INFO(describe(warnings));
    CHECK(warnings.empty());
    for (const char* scheduler : {"df", "rtc", "fifo", "qos"}) {
        INFO(scheduler);
        Engine engine(validateGraph(parseGraph(text), testRegistry()), parseSchedulerText(scheduler));
        CHECK(engine.run().completed);
    }
}

TEST_CASE("a loop through nodes that declare nothing about their items is warned about as one that may never drain", "[graph][endless]") {
    SECTION("a node that passes items on without saying so") {
        const std::vector<GraphError> warnings = warningsFor(fedLoop(R"({"id": "box", "type": "workload.universal_box", "params": {"inputs": 2}},
      {"id": "f", "type": "test.fail_after", "params": {"n": 1000000000}})",
                                                                     R"({"from": "box.out", "to": "f.in"}, {"from": "f.out", "to": "box.in1"})"));
        INFO(describe(warnings));
        REQUIRE(warnings.size() == 1);
        CHECK(warnings.front().node == "box");
        CHECK(warnings.front().message.find("is on a loop through 'box' and 'f' that may never drain: no node on it is known to drop items "
                                            "('f' (test.fail_after) does not say)") == 0);
    }
    SECTION("a gain of 0 dB into a union that feeds it: circulates until stopped") {
        // The try-out's gain-1 loop: no warning, and it ran until killed.
        const std::string text = R"({"format": "isochron-graph/1", "nodes": [
          {"id": "gen", "type": "generators.signal_generator", "params": {"duration": 0.01, "rate": 8000, "block": 8}},
          {"id": "u", "type": "streams.union", "params": {"inputs": 2}},
          {"id": "g", "type": "channels.gain", "params": {"gain_db": 0}},
          {"id": "sink", "type": "io.null_sink"}],
          "edges": [{"from": "gen.out", "to": "u.in0"}, {"from": "u.out", "to": "g.in0"}, {"from": "g.out0", "to": "u.in1"},
                    {"from": "g.out0", "to": "sink.in"}]})";
        const std::vector<GraphError> warnings = warningsFor(text);
        INFO(describe(warnings));
        REQUIRE(warnings.size() == 1);
        CHECK(warnings.front().node == "u");
        CHECK(warnings.front().message.find("is on a loop through 'u' and 'g' that may never drain") == 0);
        // 10 items entered; far more pass until the run is stopped.
        Engine engine(validateGraph(parseGraph(text), testRegistry()), parseSchedulerText("df"));
        auto counter = std::make_shared<StopAfter>(engine, 10'000);
        engine.setTap("g", "out0", counter);
        const RunOutcome outcome = engine.run();
        CHECK(outcome.stopped);
        CHECK(counter->seen() > 10'000);
    }
    SECTION("math.add feeding its own input, with no delay") {
        const std::vector<GraphError> warnings = warningsFor(R"({"format": "isochron-graph/1", "nodes": [
          {"id": "gen", "type": "generators.signal_generator", "params": {"duration": 0.1}},
          {"id": "a", "type": "math.add"}, {"id": "sink", "type": "io.null_sink"}],
          "edges": [{"from": "gen.out", "to": "a.a"}, {"from": "a.out", "to": "a.b"}, {"from": "a.out", "to": "sink.in"}]})");
        INFO(describe(warnings));
        REQUIRE(warnings.size() == 1);
        CHECK(warnings.front().node == "a");
        CHECK(warnings.front().message.find("feeds itself in a loop that may never drain: no node on it is known to drop items ('a' (math.add) "
                                            "does not say)") == 0);
        CHECK(warnings.front().message.find("depend on the order the scheduler delivers items in") != std::string::npos);
    }
}

TEST_CASE("a loop through several nodes is named by all of them, once", "[graph][endless]") {
    const std::string text = fedLoop(R"({"id": "box", "type": "workload.universal_box", "params": {"inputs": 2}},
      {"id": "a", "type": "segments.pass_through"}, {"id": "b", "type": "workload.universal_box"})",
                                     R"({"from": "box.out", "to": "a.in"}, {"from": "a.out", "to": "b.in0"}, {"from": "b.out", "to": "box.in1"})");
    const std::vector<GraphError> warnings = warningsFor(text);
    INFO(describe(warnings));
    REQUIRE(warnings.size() == 1);
    CHECK(warnings.front().node == "box");  // the loop's first node in graph order
    CHECK(warnings.front().message.find("is on a loop through 'box', 'a' and 'b' that never drains") == 0);
}

TEST_CASE("a loop no source reaches is not warned about: nothing ever enters it, and the run ends", "[graph][endless]") {
    const std::string text = R"({"format": "isochron-graph/1", "nodes": [
      {"id": "src", "type": "workload.tuple_source", "params": {"count": 20, "pace": 0}}, {"id": "sink", "type": "io.null_sink"},
      {"id": "g", "type": "test.gain"}],
      "edges": [{"from": "src.out0", "to": "sink.in"}, {"from": "g.out", "to": "g.in"}]})";
    const std::vector<GraphError> warnings = warningsFor(text);
    INFO(describe(warnings));
    CHECK(warnings.empty());
    Engine engine(validateGraph(parseGraph(text), testRegistry()), parseSchedulerText("df"));
    CHECK(engine.run().completed);
}

TEST_CASE("an endless source is warned about, naming the files it fills", "[graph][endless]") {
    SECTION("a generator of duration 0 into a WAV file") {
        const std::vector<GraphError> warnings = warningsFor(R"({"format": "isochron-graph/1", "nodes": [
          {"id": "gen", "type": "generators.signal_generator", "params": {"duration": 0}},
          {"id": "wav", "type": "io.wav_file_sink", "params": {"path": "/tmp/isochron-endless-test.wav"}}],
          "edges": [{"from": "gen.out", "to": "wav.in0"}]})");
        INFO(describe(warnings));
        REQUIRE(warnings.size() == 1);
        CHECK(warnings.front().node == "gen");
        CHECK(warnings.front().message ==
              "produces without end (duration is 0): the run ends only when stopped (Ctrl-C), and until then "
              "'wav' (/tmp/isochron-endless-test.wav) grows without bound");
    }
    SECTION("a tuple source of count 0 that nothing consumes") {
        const std::vector<GraphError> warnings = warningsFor(R"({"format": "isochron-graph/1", "nodes": [
          {"id": "tuples", "type": "workload.tuple_source", "params": {"count": 0}}]})");
        INFO(describe(warnings));
        REQUIRE(warnings.size() == 1);
        CHECK(warnings.front().node == "tuples");
        CHECK(warnings.front().message == "produces without end (count is 0): the run ends only when stopped (Ctrl-C)");
    }
    SECTION("sources that end are not warned about") {
        CHECK(warningsFor(R"({"format": "isochron-graph/1", "nodes": [
          {"id": "gen", "type": "generators.signal_generator", "params": {"duration": 1}},
          {"id": "tuples", "type": "workload.tuple_source", "params": {"count": 3}}]})")
                  .empty());
    }
}
