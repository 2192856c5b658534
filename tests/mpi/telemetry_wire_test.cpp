// A rank's telemetry snapshot survives the trip to rank 0: every node's counters, strings and rank,
// every output's figures; bytes that are not a snapshot are refused.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "distributed/telemetry_wire.h"

using namespace isochron;
using namespace isochron::distributed;

namespace {

TelemetrySnapshot sampleSnapshot(std::size_t nodes) {
    TelemetrySnapshot s;
    s.sequence = 42;
    s.wallNs = 1'795'000'000'123'456'789;
    s.elapsedSeconds = 3.25;
    s.engineState = "finished";
    s.liveBytes = 4096;
    s.liveAllocations = 3;
    s.cachedBytes = 777;
    for (std::size_t i = 0; i < nodes; ++i) {
        NodeTelemetry n;
        n.calls = 10 + i;
        n.itemsIn = 100 * i + 1;
        n.itemsOut = 100 * i + 2;
        n.samplesIn = 4096 * i + 3;
        n.samplesOut = 4096 * i + 4;
        n.costNsPerItem = 12.5 * static_cast<double>(i);
        n.selectivity = 0.5;
        n.queuedItems = i;
        n.queuedBytes = 8 * i;
        n.warnings = i % 2;
        n.watermarkNs = i == 0 ? kBeginningOfTime : (i == 1 ? kEndOfTime : static_cast<TimeNs>(i * 1000));
        n.skewMs = 1.5;
        n.heldItems = 2 * i;
        n.heldBytes = 16 * i;
        n.failed = i == 2;
        n.finished = true;
        if (n.failed) n.failure = "bad input (in process)";
        n.rank = 2;
        s.nodes.push_back(n);
        if (i % 2 == 0) {
            OutputTelemetry o;
            o.node = static_cast<int>(i);
            o.items = 7 * i;
            o.samples = 9 * i;
            o.itemsPerSecond = 1.25;
            o.samplesPerSecond = 48000;
            o.latencyLastMs = 0.5;
            o.latencyP50Ms = 0.25;
            o.latencyP95Ms = 0.75;
            o.latencyP99Ms = 1.0;
            o.utilityNow = 1.0;
            o.utilityAverage = 0.875;
            s.outputs.push_back(o);
        }
    }
    s.queues.push_back(QueueTelemetry{});
    return s;
}

}  // namespace

TEST_CASE("a telemetry snapshot crosses to rank 0 with every figure, id and rank", "[telemetry_wire]") {
    for (std::size_t nodes : {std::size_t{0}, std::size_t{1}, std::size_t{5}}) {
        INFO(nodes << " nodes");
        const TelemetrySnapshot sent = sampleSnapshot(nodes);
        std::vector<std::string> ids;
        for (std::size_t i = 0; i < nodes; ++i) ids.push_back("node " + std::to_string(i) + (i == 3 ? std::string(300, 'x') : ""));
        std::vector<std::byte> bytes;
        encodeTelemetry(sent, ids, bytes);
        TelemetrySnapshot got = sampleSnapshot(7);  // buffers of a bigger snapshot are reused, not kept
        decodeTelemetry(bytes, got);
        CHECK(got.sequence == sent.sequence);
        CHECK(got.wallNs == sent.wallNs);
        CHECK(got.elapsedSeconds == sent.elapsedSeconds);
        CHECK(got.engineState == "finished");
        CHECK(got.liveBytes == sent.liveBytes);
        CHECK(got.liveAllocations == sent.liveAllocations);
        CHECK(got.cachedBytes == sent.cachedBytes);
        REQUIRE(got.nodes.size() == nodes);
        for (std::size_t i = 0; i < nodes; ++i) {
            const NodeTelemetry& a = sent.nodes[i];
            const NodeTelemetry& b = got.nodes[i];
            CHECK(b.id == ids[i]);
            CHECK(b.rank == 2);
            CHECK(b.calls == a.calls);
            CHECK(b.itemsIn == a.itemsIn);
            CHECK(b.itemsOut == a.itemsOut);
            CHECK(b.samplesIn == a.samplesIn);
            CHECK(b.samplesOut == a.samplesOut);
            CHECK(b.costNsPerItem == a.costNsPerItem);
            CHECK(b.selectivity == a.selectivity);
            CHECK(b.queuedItems == a.queuedItems);
            CHECK(b.queuedBytes == a.queuedBytes);
            CHECK(b.warnings == a.warnings);
            CHECK(b.watermarkNs == a.watermarkNs);
            CHECK(b.skewMs == a.skewMs);
            CHECK(b.heldItems == a.heldItems);
            CHECK(b.heldBytes == a.heldBytes);
            CHECK(b.failed == a.failed);
            CHECK(b.finished == a.finished);
            CHECK(b.failure == a.failure);
        }
        REQUIRE(got.outputs.size() == sent.outputs.size());
        for (std::size_t i = 0; i < sent.outputs.size(); ++i) {
            CHECK(got.outputs[i].node == sent.outputs[i].node);
            CHECK(got.outputs[i].items == sent.outputs[i].items);
            CHECK(got.outputs[i].samples == sent.outputs[i].samples);
            CHECK(got.outputs[i].samplesPerSecond == sent.outputs[i].samplesPerSecond);
            CHECK(got.outputs[i].latencyP95Ms == sent.outputs[i].latencyP95Ms);
            CHECK(got.outputs[i].utilityAverage == sent.outputs[i].utilityAverage);
        }
        CHECK(got.queues.empty());  // per port queues stay on their rank
        CHECK(got.ranks.empty());
    }
}

TEST_CASE("bytes that are not a whole telemetry snapshot are refused", "[telemetry_wire]") {
    const TelemetrySnapshot sent = sampleSnapshot(3);
    std::vector<std::byte> bytes;
    encodeTelemetry(sent, {"a", "b", "c"}, bytes);
    TelemetrySnapshot got;
    for (std::size_t cut : {std::size_t{0}, std::size_t{10}, bytes.size() / 2, bytes.size() - 1}) {
        INFO("cut at " << cut);
        CHECK_THROWS_AS(decodeTelemetry(std::span<const std::byte>(bytes.data(), cut), got), std::invalid_argument);
    }
    std::vector<std::byte> wrong = bytes;
    wrong[0] = std::byte{0};
    CHECK_THROWS_AS(decodeTelemetry(wrong, got), std::invalid_argument);
}
