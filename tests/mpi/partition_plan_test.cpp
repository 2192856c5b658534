// Splitting a graph into the parts ranks run: every node runs on exactly one rank, every edge is either
// inside a part or one channel with a sender and a receiver, channel numbers agree between ranks, and
// partitions that cannot run are refused naming the node or the edge.
#include <catch2/catch.hpp>

#include <set>

#include "distributed/partition_plan.h"
#include "engine/graph/graph_file.h"
#include "tests/support/test_operators.h"

using namespace isochron;
using namespace isochron::distributed;

namespace {

struct Planned {
    GraphSpec file;
    ValidatedGraph graph;
    std::vector<int> partitions;
};

Planned plan(const std::string& json) {
    Planned p;
    p.file = parseGraph(json);
    p.graph = validateGraph(p.file, test::testRegistry());
    p.partitions = nodePartitions(p.file, p.graph);
    return p;
}

OperatorDescriptor endpoint(const ChannelSpec& channel, bool sender) {
    OperatorDescriptor d;
    d.typeName = sender ? "test.sender" : "test.receiver";
    (sender ? d.inputs : d.outputs).push_back(PortSpec{sender ? "in" : "out", channel.type, ""});
    return d;
}

// gen (0) -> filter (1) -> sink (2), and gen -> sink's second channel directly (0 -> 2).
const char* kThreeRanks = R"({"format": "isochron-graph/1", "nodes": [
    {"id": "gen", "type": "generators.signal_generator", "partition": 0},
    {"id": "filter", "type": "filters.butterworth", "partition": 1},
    {"id": "meter", "type": "level.peak_meter", "partition": 1},
    {"id": "wav", "type": "io.wav_file_sink", "partition": 2, "params": {"path": "/dev/null", "channels": 2}},
    {"id": "log", "type": "io.null_sink", "partition": 2}],
  "edges": [{"from": "gen.out", "to": "filter.in"}, {"from": "filter.out", "to": "wav.in0"}, {"from": "gen.out", "to": "wav.in1"},
            {"from": "filter.out", "to": "meter.in"}, {"from": "meter.level", "to": "log.in"}]})";

}  // namespace

TEST_CASE("each rank runs its partition's nodes and one endpoint per channel touching it", "[partition]") {
    const Planned p = plan(kThreeRanks);
    CHECK(p.partitions == std::vector<int>{0, 1, 1, 2, 2});
    CHECK(checkPartitions(p.graph, p.partitions, 3).empty());
    const std::vector<ChannelSpec> channels = channelsOf(p.graph, p.partitions);
    REQUIRE(channels.size() == 4);  // filter.out -> meter.in stays inside rank 1
    CHECK(channels[0].from == "gen.out");
    CHECK(channels[0].to == std::vector<std::string>{"filter.in"});
    CHECK(channels[3].from == "meter.level");
    CHECK(channels[3].type == PortType::scalar());

    std::multiset<int> sent, received;
    std::size_t operatorNodes = 0, localEdges = 0;
    for (int rank = 0; rank < 3; ++rank) {
        INFO("rank " << rank);
        const LocalPart part = localPart(p.graph, p.partitions, rank, [](const ChannelSpec& c) { return endpoint(c, true); },
                                         [](const ChannelSpec& c) { return endpoint(c, false); });
        for (const ChannelSpec& c : part.outgoing) {
            CHECK(c.fromPartition == rank);
            CHECK(channels[static_cast<std::size_t>(c.index)].to == c.to);  // numbered alike on every rank
            sent.insert(c.index);
        }
        for (const ChannelSpec& c : part.incoming) {
            CHECK(c.toPartition == rank);
            received.insert(c.index);
        }
        const std::size_t endpoints = part.outgoing.size() + part.incoming.size();
        CHECK(part.endpointDescriptors.size() == endpoints);
        operatorNodes += part.graph.nodes.size() - endpoints;
        localEdges += part.graph.edges.size() - endpoints;
        for (const ValidatedEdge& e : part.graph.edges) {
            const ValidatedNode& from = part.graph.nodes[static_cast<std::size_t>(e.fromNode)];
            const ValidatedNode& to = part.graph.nodes[static_cast<std::size_t>(e.toNode)];
            CHECK(to.inputs[static_cast<std::size_t>(e.toPort)].type.accepts(from.outputs[static_cast<std::size_t>(e.fromPort)].type));
        }
    }
    CHECK(sent == std::multiset<int>{0, 1, 2, 3});
    CHECK(received == sent);
    CHECK(operatorNodes == p.graph.nodes.size());
    CHECK(localEdges == p.graph.edges.size() - channels.size());
}

TEST_CASE("an output feeding several nodes of one other partition is one channel, fanned out on the receiving rank", "[partition]") {
    // gen (0) feeds filter and meter (both 1) and wav (2): two channels, not three.
    const Planned p = plan(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "gen", "type": "generators.signal_generator", "partition": 0},
        {"id": "filter", "type": "filters.butterworth", "partition": 1},
        {"id": "meter", "type": "level.peak_meter", "partition": 1},
        {"id": "log", "type": "io.null_sink", "partition": 1},
        {"id": "wav", "type": "io.wav_file_sink", "partition": 2, "params": {"path": "/dev/null", "channels": 2}}],
      "edges": [{"from": "gen.out", "to": "filter.in"}, {"from": "gen.out", "to": "wav.in0"}, {"from": "gen.out", "to": "meter.in"},
                {"from": "filter.out", "to": "wav.in1"}, {"from": "meter.level", "to": "log.in"}]})");
    REQUIRE(checkPartitions(p.graph, p.partitions, 3).empty());
    const std::vector<ChannelSpec> channels = channelsOf(p.graph, p.partitions);
    REQUIRE(channels.size() == 3);
    CHECK(channels[0].from == "gen.out");
    CHECK(channels[0].toPartition == 1);
    CHECK(channels[0].to == std::vector<std::string>{"filter.in", "meter.in"});
    CHECK(channels[0].toText() == "filter.in, meter.in");
    CHECK(channels[1].from == "gen.out");
    CHECK(channels[1].toPartition == 2);
    CHECK(channels[2].from == "filter.out");

    const auto sender = [](const ChannelSpec& c) { return endpoint(c, true); };
    const auto receiver = [](const ChannelSpec& c) { return endpoint(c, false); };
    const LocalPart producer = localPart(p.graph, p.partitions, 0, sender, receiver);
    CHECK(producer.outgoing.size() == 2);
    CHECK(producer.graph.edges.size() == 2);  // gen.out -> each sender, once
    const LocalPart consumer = localPart(p.graph, p.partitions, 1, sender, receiver);
    REQUIRE(consumer.incoming.size() == 1);
    CHECK(consumer.outgoing.size() == 1);
    // The one receiver feeds both consumers.
    int receiverNode = -1;
    for (std::size_t n = 0; n < consumer.graph.nodes.size(); ++n) {
        if (consumer.graph.nodes[n].id == "gen.out (rank 0) -> filter.in, meter.in") receiverNode = static_cast<int>(n);
    }
    REQUIRE(receiverNode >= 0);
    std::set<std::string> fed;
    for (const ValidatedEdge& e : consumer.graph.edges) {
        if (e.fromNode == receiverNode) fed.insert(consumer.graph.nodes[static_cast<std::size_t>(e.toNode)].id);
    }
    CHECK(fed == std::set<std::string>{"filter", "meter"});
}

TEST_CASE("a node without a partition runs on rank 0, and a graph without partitions is one part", "[partition]") {
    const Planned p = plan(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "gen", "type": "generators.signal_generator"}, {"id": "sink", "type": "io.null_sink"}],
      "edges": [{"from": "gen.out", "to": "sink.in"}]})");
    CHECK_FALSE(isPartitioned(p.file));
    CHECK(p.partitions == std::vector<int>{0, 0});
    CHECK(channelsOf(p.graph, p.partitions).empty());
    const LocalPart idle = localPart(p.graph, p.partitions, 1, [](const ChannelSpec& c) { return endpoint(c, true); },
                                     [](const ChannelSpec& c) { return endpoint(c, false); });
    CHECK(idle.graph.nodes.empty());
}

TEST_CASE("partitions no rank runs, custom items between ranks and partitions feeding each other are refused", "[partition][errors]") {
    const Planned tooFew = plan(kThreeRanks);
    const std::vector<GraphError> errors = checkPartitions(tooFew.graph, tooFew.partitions, 2);
    REQUIRE(errors.size() == 2);
    CHECK(errors[0].node == "wav");
    CHECK(errors[0].field == "partition");
    CHECK(errors[0].toString().find("mpirun -np 3") != std::string::npos);

    const Planned custom = plan(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 16000}},
        {"id": "stft", "type": "spatial.array_stft", "params": {"channels": 1}},
        {"id": "sink", "type": "io.null_sink", "partition": 1}],
      "edges": [{"from": "gen.out", "to": "stft.in0"}, {"from": "stft.spectra", "to": "sink.in"}]})");
    const std::vector<GraphError> customErrors = checkPartitions(custom.graph, custom.partitions, 2);
    REQUIRE(customErrors.size() == 1);
    CHECK(customErrors[0].toString().find("stft.spectra -> sink.in") != std::string::npos);
    CHECK(customErrors[0].toString().find("cannot be sent to another rank") != std::string::npos);

    const Planned cycle = plan(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "gen", "type": "generators.signal_generator"},
        {"id": "there", "type": "segments.pass_through", "partition": 1},
        {"id": "back", "type": "segments.pass_through"},
        {"id": "sink", "type": "io.null_sink", "partition": 1}],
      "edges": [{"from": "gen.out", "to": "there.in"}, {"from": "there.out", "to": "back.in"}, {"from": "back.out", "to": "sink.in"}]})");
    const std::vector<GraphError> cycleErrors = checkPartitions(cycle.graph, cycle.partitions, 2);
    REQUIRE(cycleErrors.size() == 1);
    CHECK(cycleErrors[0].toString().find("partitions 0, 1 feed each other") != std::string::npos);
}

namespace {

// The partitions of `p` with the file node `node` moved to `partition`, as the advice of a refusal says.
std::vector<int> withNodeIn(const Planned& p, const std::string& node, int partition) {
    std::vector<int> partitions = p.partitions;
    for (std::size_t i = 0; i < p.graph.nodes.size(); ++i) {
        if (p.graph.nodes[i].id.substr(0, p.graph.nodes[i].id.find('/')) == node) partitions[i] = partition;
    }
    return partitions;
}

}  // namespace

TEST_CASE("partitions feeding each other are refused naming the edges of the cycle and a node whose move breaks it", "[partition]") {
    // As "Record this wire" used to leave it: a recorder on rank 0 of onsets found on rank 1, which rank 0 feeds.
    const Planned recorded = plan(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "gen", "type": "generators.signal_generator"},
        {"id": "highpass", "type": "filters.butterworth", "partition": 1},
        {"id": "meter", "type": "level.peak_meter", "partition": 1},
        {"id": "log", "type": "io.null_sink", "partition": 2},
        {"id": "record", "type": "io.null_sink"}],
      "edges": [{"from": "gen.out", "to": "highpass.in"}, {"from": "highpass.out", "to": "meter.in"},
                {"from": "meter.level", "to": "log.in"}, {"from": "meter.level", "to": "record.in"}]})");
    const std::vector<GraphError> errors = checkPartitions(recorded.graph, recorded.partitions, 3);
    REQUIRE(errors.size() == 1);
    const std::string text = errors[0].toString();
    INFO(text);
    CHECK(text.find("field 'partition': partitions 0, 1 feed each other in a cycle") != std::string::npos);
    // Both edges of the cycle, each end with its rank; the edge to rank 2 is no part of it.
    CHECK(text.find("gen.out on rank 0 -> highpass.in on rank 1") != std::string::npos);
    CHECK(text.find("meter.level on rank 1 -> record.in on rank 0") != std::string::npos);
    CHECK(text.find("log.in") == std::string::npos);
    CHECK(text.find("put node 'record' in partition 1") != std::string::npos);
    CHECK(checkPartitions(recorded.graph, withNodeIn(recorded, "record", 1), 3).empty());

    // 0 -> 1 -> 0 -> 1: moving 'back' to 1 leaves a pipeline.
    const Planned there = plan(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "gen", "type": "generators.signal_generator"},
        {"id": "there", "type": "segments.pass_through", "partition": 1},
        {"id": "back", "type": "segments.pass_through"},
        {"id": "sink", "type": "io.null_sink", "partition": 1}],
      "edges": [{"from": "gen.out", "to": "there.in"}, {"from": "there.out", "to": "back.in"}, {"from": "back.out", "to": "sink.in"}]})");
    const std::vector<GraphError> thereErrors = checkPartitions(there.graph, there.partitions, 2);
    REQUIRE(thereErrors.size() == 1);
    INFO(thereErrors[0].toString());
    CHECK(thereErrors[0].toString().find("there.out on rank 1 -> back.in on rank 0") != std::string::npos);
    CHECK(thereErrors[0].toString().find("put node 'back' in partition 1") != std::string::npos);
    CHECK(checkPartitions(there.graph, withNodeIn(there, "back", 1), 2).empty());

    // A chain going back and forth five times: no one node's move ends the cycle, the advice says what to aim for.
    const Planned zigzag = plan(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "gen", "type": "generators.signal_generator"},
        {"id": "a", "type": "segments.pass_through", "partition": 1},
        {"id": "b", "type": "segments.pass_through"},
        {"id": "c", "type": "segments.pass_through", "partition": 1},
        {"id": "d", "type": "segments.pass_through"},
        {"id": "sink", "type": "io.null_sink", "partition": 1}],
      "edges": [{"from": "gen.out", "to": "a.in"}, {"from": "a.out", "to": "b.in"}, {"from": "b.out", "to": "c.in"},
                {"from": "c.out", "to": "d.in"}, {"from": "d.out", "to": "sink.in"}]})");
    const std::vector<GraphError> zigzagErrors = checkPartitions(zigzag.graph, zigzag.partitions, 2);
    REQUIRE(zigzagErrors.size() == 1);
    INFO(zigzagErrors[0].toString());
    CHECK(zigzagErrors[0].toString().find("d.out on rank 0 -> sink.in on rank 1") != std::string::npos);
    CHECK(zigzagErrors[0].toString().find("put node") == std::string::npos);
    CHECK(zigzagErrors[0].toString().find("move nodes so that every edge between these partitions runs one way") != std::string::npos);
}
