// Telemetry across ranks without MPI: a relay's additions (another rank's nodes, per-rank totals)
// reach every reader and the JSON lines, and at the end of a run the collector keeps publishing until
// the relay says every rank has ended. One process's JSON is unchanged (no rank fields).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/engine.h"
#include "engine/telemetry/telemetry_json.h"
#include "engine/telemetry/telemetry_relay.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

// Stands in for rank 1: adds its one output node "far" (5 items) and, at the end, says for
// `unfinishedCalls` calls that rank 1 is still running.
class OtherRankRelay final : public TelemetryRelay {
public:
    explicit OtherRankRelay(int unfinishedCalls) : unfinishedCalls_(unfinishedCalls) {}
    bool exchange(TelemetrySnapshot& s, bool final) override {
        for (NodeTelemetry& node : s.nodes) node.rank = 0;
        NodeTelemetry far;
        far.id = "far";
        far.rank = 1;
        far.itemsIn = 5;
        far.queuedItems = 3;
        s.nodes.push_back(far);
        OutputTelemetry output;
        output.node = static_cast<int>(s.nodes.size()) - 1;
        output.items = 5;
        output.latencyP95Ms = 40;
        s.outputs.push_back(output);
        s.ranks = {rankTotals(s, 0), rankTotals(s, 1)};
        if (!final) return true;
        ++finalCalls;
        ownRowsAtTheEnd.push_back(s.ranks[0]);
        ownOutputsAtTheEnd.push_back(s.outputs.front());
        if (finalCalls <= unfinishedCalls_) {
            s.engineState = "running";
            return false;
        }
        return true;
    }
    int finalCalls = 0;
    std::vector<RankTelemetry> ownRowsAtTheEnd;        // rank 0's row, at each final exchange
    std::vector<OutputTelemetry> ownOutputsAtTheEnd;   // its output "out", likewise

private:
    int unfinishedCalls_;
};

const char* kGraph = R"({
  "format": "isochron-graph/1",
  "nodes": [
    {"id": "src", "type": "test.feed", "params": {"name": "relay", "type": "scalar"}},
    {"id": "gain", "type": "test.gain", "params": {"gain": 2}},
    {"id": "out", "type": "test.collect", "params": {"name": "relay"}}
  ],
  "edges": [{"from": "src.out0", "to": "gain.in"}, {"from": "gain.out", "to": "out.in0"}]
})";

}  // namespace

TEST_CASE("a relay's other ranks reach the readers, and the end waits until the relay says every rank ended", "[telemetry]") {
    const Timebase& tb = Timebase::get(1000);
    FeedScript script;
    for (int b = 0; b < 20; ++b) {
        std::vector<std::pair<int, Item>> batch;
        batch.push_back({0, Item::scalar(b, SampleRange{&tb, 10 * b, 10})});
        script.batches.push_back(std::move(batch));
    }
    feedScripts()["relay"] = std::move(script);
    Engine engine(validateGraph(parseGraph(kGraph), testRegistry()), parseSchedulerText("df"));
    auto relay = std::make_shared<OtherRankRelay>(3);
    engine.relayTelemetry(relay, 200);
    auto channel = engine.openTelemetry(200);
    std::vector<TelemetrySnapshot> seen;
    std::atomic<bool> done{false};
    std::thread reader([&] {
        for (;;) {
            const bool finishing = done.load();
            while (const TelemetrySnapshot* s = channel->next()) {
                seen.push_back(*s);
                channel->release(s);
            }
            if (finishing) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    });
    const RunOutcome outcome = engine.run();
    done = true;
    reader.join();
    REQUIRE(outcome.completed);
    REQUIRE(channel->dropped() == 0);
    CHECK(relay->finalCalls == 4);  // three answers "still running", then the end
    REQUIRE(seen.size() >= 5);
    // The last four snapshots are the end's: "running" while the other rank runs, then "finished" once.
    for (std::size_t i = seen.size() - 4; i + 1 < seen.size(); ++i) CHECK(seen[i].engineState == "running");
    for (std::size_t i = 1; i < seen.size(); ++i) CHECK(seen[i].sequence == seen[i - 1].sequence + 1);
    const TelemetrySnapshot& last = seen.back();
    CHECK(last.engineState == "finished");
    REQUIRE(last.nodes.size() == 4);
    CHECK(last.nodes[1].itemsIn == 20);
    CHECK(last.nodes[3].id == "far");
    REQUIRE(last.ranks.size() == 2);
    CHECK(last.ranks[0].items == 20);  // what reached "out", rank 0's only output
    CHECK(last.ranks[1].items == 5);
    CHECK(last.ranks[1].queuedItems == 3);
    CHECK(last.ranks[1].latencyP95Ms == 40);

    const auto json = telemetryToJson(last, {"src", "gain", "out"});
    CHECK(json["nodes"]["gain"]["rank"] == 0);
    CHECK(json["nodes"]["gain"]["items_in"] == 20);
    CHECK(json["nodes"]["far"]["rank"] == 1);
    CHECK(json["nodes"]["far"]["items_in"] == 5);
    CHECK(json["outputs"]["out"]["rank"] == 0);
    CHECK(json["outputs"]["far"]["rank"] == 1);
    REQUIRE(json["ranks"].size() == 2);
    CHECK(json["ranks"][1]["rank"] == 1);
    CHECK(json["ranks"][1]["items"] == 5);
    CHECK(json["ranks"][1]["queued_items"] == 3);

    // One process: no rank anywhere.
    TelemetrySnapshot alone = last;
    alone.nodes.pop_back();
    alone.outputs.pop_back();
    alone.ranks.clear();
    const auto aloneJson = telemetryToJson(alone, {"src", "gain", "out"});
    CHECK(!aloneJson.contains("ranks"));
    CHECK(!aloneJson["nodes"]["gain"].contains("rank"));
    CHECK(!aloneJson["outputs"]["out"].contains("rank"));
}

TEST_CASE("while the other ranks run on, this rank's figures stay those of its end, its rates included", "[telemetry]") {
    const Timebase& tb = Timebase::get(1000);
    FeedScript script;
    for (int b = 0; b < 20; ++b) {
        std::vector<std::pair<int, Item>> batch;
        batch.push_back({0, Item::scalar(b, SampleRange{&tb, 10 * b, 10})});
        script.batches.push_back(std::move(batch));
    }
    feedScripts()["relay"] = std::move(script);
    Engine engine(validateGraph(parseGraph(kGraph), testRegistry()), parseSchedulerText("df"));
    auto relay = std::make_shared<OtherRankRelay>(3);
    engine.relayTelemetry(relay, 200);
    REQUIRE(engine.run().completed);
    REQUIRE(relay->finalCalls == 4);
    const RankTelemetry& end = relay->ownRowsAtTheEnd.front();
    CHECK(end.engineState == "finished");
    CHECK(end.items == 20);
    CHECK(end.itemsPerSecond > 0);  // the 20 items came after the run's first snapshot
    for (std::size_t call = 1; call < relay->ownRowsAtTheEnd.size(); ++call) {
        INFO("final exchange " << call);
        const RankTelemetry& again = relay->ownRowsAtTheEnd[call];
        CHECK(again.engineState == "finished");
        CHECK(again.items == end.items);
        CHECK(again.itemsPerSecond == end.itemsPerSecond);
        CHECK(again.sequence > relay->ownRowsAtTheEnd[call - 1].sequence);  // published again, not the same snapshot
        CHECK(again.elapsedSeconds > relay->ownRowsAtTheEnd[call - 1].elapsedSeconds);  // the run's time goes on
        CHECK(relay->ownOutputsAtTheEnd[call].itemsPerSecond == relay->ownOutputsAtTheEnd.front().itemsPerSecond);
    }
}
