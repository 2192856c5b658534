#include "engine/telemetry/telemetry_json.h"

namespace isochron {

namespace {

// A watermark as JSON: null before the stream said anything, "end" once it ended, else ns.
nlohmann::ordered_json watermarkJson(TimeNs t) {
    if (t == kBeginningOfTime) return nullptr;
    if (t == kEndOfTime) return "end";
    return t;
}

// Node i's id: the reader's name for a node of this rank, the snapshot's own for another rank's.
const std::string& nodeIdOf(const TelemetrySnapshot& s, const std::vector<std::string>& nodeIds, std::size_t i) {
    return i < nodeIds.size() && s.nodes.at(i).id.empty() ? nodeIds[i] : s.nodes.at(i).id;
}

// Adds `value` under `key`, a key the object does not hold yet (node ids are unique). ordered_json's
// own insertion (operator[], emplace) first searches the object's members one by one: a snapshot of
// 10 000 nodes took about a second to write, so a stop waited seconds for the snapshots queued before it.
void appendNewMember(nlohmann::ordered_json& object, const std::string& key, nlohmann::ordered_json&& value) {
    using Members = nlohmann::ordered_json::object_t::Container;
    static_cast<Members&>(object.get_ref<nlohmann::ordered_json::object_t&>()).emplace_back(key, std::move(value));
}

}  // namespace

nlohmann::ordered_json telemetryToJson(const TelemetrySnapshot& s, const std::vector<std::string>& nodeIds) {
    using nlohmann::ordered_json;
    ordered_json root;
    root["format"] = "isochron-telemetry/1";
    root["sequence"] = s.sequence;
    root["wall_ns"] = s.wallNs;
    root["elapsed_s"] = s.elapsedSeconds;
    root["state"] = s.engineState;
    root["memory"] = {{"live_bytes", s.liveBytes}, {"live_allocations", s.liveAllocations}, {"cached_bytes", s.cachedBytes}};
    if (s.busyNode >= 0 && static_cast<std::size_t>(s.busyNode) < s.nodes.size()) {
        root["busy"] = {{"node", nodeIdOf(s, nodeIds, static_cast<std::size_t>(s.busyNode))}, {"seconds", s.busySeconds}};
    }
    // Figures by rank only in a run spread over ranks: one process writes what it always wrote.
    const bool spread = !s.ranks.empty();
    ordered_json nodes = ordered_json::object();
    for (std::size_t i = 0; i < s.nodes.size(); ++i) {
        const NodeTelemetry& n = s.nodes[i];
        if (i >= nodeIds.size() && n.id.empty()) continue;
        const std::string& id = nodeIdOf(s, nodeIds, i);
        ordered_json node = {{"calls", n.calls},
                             {"items_in", n.itemsIn},
                             {"items_out", n.itemsOut},
                             {"samples_in", n.samplesIn},
                             {"samples_out", n.samplesOut},
                             {"cost_ns_per_item", n.costNsPerItem},
                             {"selectivity", n.selectivity},
                             {"queued_items", n.queuedItems},
                             {"queued_bytes", n.queuedBytes},
                             {"warnings", n.warnings},
                             {"watermark_ns", watermarkJson(n.watermarkNs)},
                             {"skew_ms", n.skewMs},
                             {"held_items", n.heldItems},
                             {"held_bytes", n.heldBytes},
                             {"failed", n.failed},
                             {"finished", n.finished}};
        if (n.failed) node["failure"] = n.failure;
        if (spread) node["rank"] = n.rank;
        appendNewMember(nodes, id, std::move(node));
    }
    root["nodes"] = std::move(nodes);
    ordered_json outputs = ordered_json::object();
    for (const OutputTelemetry& o : s.outputs) {
        const auto node = static_cast<std::size_t>(o.node);
        ordered_json output = {
            {"items", o.items},
            {"samples", o.samples},
            {"items_per_s", o.itemsPerSecond},
            {"samples_per_s", o.samplesPerSecond},
            {"latency_ms", {{"last", o.latencyLastMs}, {"p50", o.latencyP50Ms}, {"p95", o.latencyP95Ms}, {"p99", o.latencyP99Ms}}},
            {"utility", {{"now", o.utilityNow}, {"average", o.utilityAverage}}}};
        if (spread) output["rank"] = s.nodes[node].rank;
        appendNewMember(outputs, nodeIdOf(s, nodeIds, node), std::move(output));
    }
    root["outputs"] = std::move(outputs);
    ordered_json queues = ordered_json::array();
    for (const QueueTelemetry& q : s.queues) {
        queues.push_back({{"node", nodeIdOf(s, nodeIds, static_cast<std::size_t>(q.node))},
                          {"port", q.port},
                          {"items", q.items},
                          {"bytes", q.bytes},
                          {"oldest_wait_ms", q.oldestWaitMs},
                          {"watermark_ns", watermarkJson(q.watermarkNs)},
                          {"late_items", q.lateItems}});
    }
    root["queues"] = std::move(queues);
    if (spread) {
        ordered_json ranks = ordered_json::array();
        for (const RankTelemetry& r : s.ranks) {
            ranks.push_back({{"rank", r.rank},
                             {"sequence", r.sequence},
                             {"elapsed_s", r.elapsedSeconds},
                             {"state", r.engineState},
                             {"items", r.items},
                             {"samples", r.samples},
                             {"items_per_s", r.itemsPerSecond},
                             {"samples_per_s", r.samplesPerSecond},
                             {"queued_items", r.queuedItems},
                             {"queued_bytes", r.queuedBytes},
                             {"latency_ms", {{"p50", r.latencyP50Ms}, {"p95", r.latencyP95Ms}, {"p99", r.latencyP99Ms}}},
                             {"live_bytes", r.liveBytes}});
        }
        root["ranks"] = ranks;
    }
    return root;
}

}  // namespace isochron
