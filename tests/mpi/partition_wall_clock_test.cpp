// Whether a run follows the wall clock (Engine::anySourceFollowsWallClock, what io.archive_sink's
// when_behind auto decides by) is the whole graph's answer in every partition: fed from unpaced
// generators in another partition it is an import, as the graph run whole is, and a paced source
// anywhere makes it live, in a partition that no channel feeds too. Before, a channel receiver
// counted as a source that does not say, so a recorder across a partition boundary stopped where
// the whole graph waits; and a partition no channel feeds answered for its own sources only.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "distributed/partition_plan.h"
#include "distributed/thread_channels.h"
#include "engine/graph/graph_file.h"
#include "engine/runtime/engine.h"
#include "engine/schedulers/scheduler.h"
#include "tests/support/test_operators.h"

using namespace isochron;
using namespace isochron::distributed;

namespace {

// Two generators at `pace` (partition 0) into a sink in partition 1, and a third at `otherPace`
// in partition 2 with a sink of its own.
std::string graphText(double pace, double otherPace) {
    const std::string gen = R"(, "params": {"duration": 1, "block": 480, "pace": )";
    return R"({"format": "isochron-graph/1", "nodes": [
      {"id": "a", "type": "generators.signal_generator", "partition": 0)" + gen + std::to_string(pace) + R"(}},
      {"id": "b", "type": "generators.signal_generator", "partition": 0)" + gen + std::to_string(pace) + R"(}},
      {"id": "rec", "type": "io.null_sink", "partition": 1},
      {"id": "rec2", "type": "io.null_sink", "partition": 1},
      {"id": "c", "type": "generators.signal_generator", "partition": 2)" + gen + std::to_string(otherPace) + R"(}},
      {"id": "other", "type": "io.null_sink", "partition": 2}],
     "edges": [{"from": "a.out", "to": "rec.in"}, {"from": "b.out", "to": "rec2.in"}, {"from": "c.out", "to": "other.in"}]})";
}

/// What the engine of each of the three partitions says, built as isochron-run --partitions threads builds them.
std::vector<bool> partitionsSay(const ValidatedGraph& graph, const GraphSpec& file) {
    const std::vector<int> partitions = nodePartitions(file, graph);
    ThreadChannels channels(8);
    std::vector<LocalPart> parts;
    for (int partition = 0; partition < 3; ++partition) {
        parts.push_back(localPart(
            graph, partitions, partition, [&](const ChannelSpec& c) { return channels.sender(c); }, [&](const ChannelSpec& c) { return channels.receiver(c); }));
    }
    std::vector<std::unique_ptr<Engine>> engines;
    for (int partition = 0; partition < 3; ++partition) {
        engines.push_back(std::make_unique<Engine>(parts[static_cast<std::size_t>(partition)].graph, parseSchedulerText("df")));
        channels.attachEngine(partition, *engines.back());
    }
    shareWhetherSourcesFollowWallClock(engines);
    return {engines[0]->anySourceFollowsWallClock(), engines[1]->anySourceFollowsWallClock(), engines[2]->anySourceFollowsWallClock()};
}

}  // namespace

TEST_CASE("every partition, fed over a channel or not, follows the wall clock exactly when the whole graph does", "[mpi][threads][archive]") {
    for (const auto& [pace, otherPace] : std::vector<std::pair<double, double>>{{0, 0}, {1, 0}, {0, 1}}) {
        INFO("pace " << pace << ", other pace " << otherPace);
        const GraphSpec file = parseGraph(graphText(pace, otherPace));
        const ValidatedGraph graph = validateGraph(file, test::testRegistry());
        const bool whole = Engine(graph, parseSchedulerText("df")).anySourceFollowsWallClock();
        CHECK(whole == (pace > 0 || otherPace > 0));
        const std::vector<bool> say = partitionsSay(graph, file);
        CHECK(say[1] == whole);  // fed over channels from partition 0
        CHECK(say[0] == whole);  // no channel feeds these two
        CHECK(say[2] == whole);
    }
}
