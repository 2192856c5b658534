#include "ui/run/telemetry_line.h"

#include <cmath>
#include <limits>
#include <map>

#include <nlohmann/json.hpp>

#include "engine/graph/json_nesting.h"

namespace isochron::ui {

namespace {

using Json = nlohmann::ordered_json;

// A telemetry line nests four levels (outputs.ID.latency_ms.p50); deeper text is refused unparsed.
constexpr std::size_t kLineNesting = 8;

[[noreturn]] void refuse(const std::string& where, const std::string& what) { throw TelemetryLineError(where + ": " + what); }

const Json& member(const Json& object, const std::string& where, const char* key) {
    const auto it = object.find(key);
    if (it == object.end()) refuse(where, std::string("has no \"") + key + "\"");
    return *it;
}

const Json& objectAt(const Json& object, const std::string& where, const char* key) {
    const Json& value = member(object, where, key);
    if (!value.is_object()) refuse(where + "." + key, "is not an object");
    return value;
}

std::uint64_t count(const Json& object, const std::string& where, const char* key) {
    const Json& value = member(object, where, key);
    if (!value.is_number_unsigned()) refuse(where + "." + key, "is not a whole number >= 0: " + value.dump());
    return value.get<std::uint64_t>();
}

int smallCount(const Json& object, const std::string& where, const char* key) {
    const std::uint64_t value = count(object, where, key);
    if (value > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) refuse(where + "." + key, "is too large: " + std::to_string(value));
    return static_cast<int>(value);
}

double number(const Json& object, const std::string& where, const char* key) {
    const Json& value = member(object, where, key);
    if (!value.is_number()) refuse(where + "." + key, "is not a number: " + value.dump());
    const double x = value.get<double>();
    if (!std::isfinite(x)) refuse(where + "." + key, "is not finite");
    return x;
}

bool flag(const Json& object, const std::string& where, const char* key) {
    const Json& value = member(object, where, key);
    if (!value.is_boolean()) refuse(where + "." + key, "is not true or false: " + value.dump());
    return value.get<bool>();
}

std::string state(const Json& object, const std::string& where, bool allowNone) {
    const Json& value = member(object, where, "state");
    const std::string text = value.is_string() ? value.get<std::string>() : std::string();
    if (!value.is_string() || !(text == "running" || text == "finished" || text == "stopped" || (allowNone && text.empty()))) {
        refuse(where + ".state", "is not \"running\", \"finished\" or \"stopped\": " + value.dump());
    }
    return text;
}

// null: nothing promised yet, "end": ended, else ns on the stream's clock (telemetry_json.cpp).
TimeNs watermark(const Json& object, const std::string& where) {
    const Json& value = member(object, where, "watermark_ns");
    if (value.is_null()) return kBeginningOfTime;
    if (value == "end") return kEndOfTime;
    if (!value.is_number_integer()) refuse(where + ".watermark_ns", "is not null, \"end\" or a whole number of ns: " + value.dump());
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<TimeNs>::max())) {
        refuse(where + ".watermark_ns", "is too large: " + value.dump());
    }
    return value.get<TimeNs>();
}

int rankOf(const Json& object, const std::string& where, bool spread) {
    if (!object.contains("rank")) return 0;
    if (!spread) refuse(where + ".rank", "is only written beside a \"ranks\" list (a run spread over ranks)");
    return smallCount(object, where, "rank");
}

void readNode(const Json& n, const std::string& where, bool spread, NodeTelemetry& t) {
    if (!n.is_object()) refuse(where, "is not an object");
    t.calls = count(n, where, "calls");
    t.itemsIn = count(n, where, "items_in");
    t.itemsOut = count(n, where, "items_out");
    t.samplesIn = count(n, where, "samples_in");
    t.samplesOut = count(n, where, "samples_out");
    t.costNsPerItem = number(n, where, "cost_ns_per_item");
    t.selectivity = number(n, where, "selectivity");
    t.queuedItems = count(n, where, "queued_items");
    t.queuedBytes = count(n, where, "queued_bytes");
    t.warnings = count(n, where, "warnings");
    t.watermarkNs = watermark(n, where);
    t.skewMs = number(n, where, "skew_ms");
    t.heldItems = count(n, where, "held_items");
    t.heldBytes = count(n, where, "held_bytes");
    t.failed = flag(n, where, "failed");
    t.finished = flag(n, where, "finished");
    if (const auto it = n.find("failure"); it != n.end()) {
        if (!t.failed) refuse(where + ".failure", "is only written when \"failed\" is true");
        if (!it->is_string()) refuse(where + ".failure", "is not text");
        t.failure = it->get<std::string>();
    }
    t.rank = rankOf(n, where, spread);
}

void readOutput(const Json& o, const std::string& where, OutputTelemetry& t) {
    if (!o.is_object()) refuse(where, "is not an object");
    t.items = count(o, where, "items");
    t.samples = count(o, where, "samples");
    t.itemsPerSecond = number(o, where, "items_per_s");
    t.samplesPerSecond = number(o, where, "samples_per_s");
    const Json& latency = objectAt(o, where, "latency_ms");
    t.latencyLastMs = number(latency, where + ".latency_ms", "last");
    t.latencyP50Ms = number(latency, where + ".latency_ms", "p50");
    t.latencyP95Ms = number(latency, where + ".latency_ms", "p95");
    t.latencyP99Ms = number(latency, where + ".latency_ms", "p99");
    const Json& utility = objectAt(o, where, "utility");
    t.utilityNow = number(utility, where + ".utility", "now");
    t.utilityAverage = number(utility, where + ".utility", "average");
}

void readRank(const Json& r, const std::string& where, RankTelemetry& t) {
    if (!r.is_object()) refuse(where, "is not an object");
    t.rank = smallCount(r, where, "rank");
    t.sequence = count(r, where, "sequence");
    t.elapsedSeconds = number(r, where, "elapsed_s");
    t.engineState = state(r, where, true);
    t.items = count(r, where, "items");
    t.samples = count(r, where, "samples");
    t.itemsPerSecond = number(r, where, "items_per_s");
    t.samplesPerSecond = number(r, where, "samples_per_s");
    t.queuedItems = count(r, where, "queued_items");
    t.queuedBytes = count(r, where, "queued_bytes");
    const Json& latency = objectAt(r, where, "latency_ms");
    t.latencyP50Ms = number(latency, where + ".latency_ms", "p50");
    t.latencyP95Ms = number(latency, where + ".latency_ms", "p95");
    t.latencyP99Ms = number(latency, where + ".latency_ms", "p99");
    t.liveBytes = count(r, where, "live_bytes");
}

}  // namespace

TelemetryLine parseTelemetryLine(std::string_view text) {
    if (const auto deep = jsonNestedBeyond(text, kLineNesting)) {
        refuse("line", "nests deeper than a telemetry snapshot (at byte " + std::to_string(*deep) + ")");
    }
    Json root;
    try {
        root = Json::parse(text);
    } catch (const Json::parse_error& e) {
        refuse("line", "is not JSON (at byte " + std::to_string(e.byte) + ")");
    } catch (const Json::exception& e) {  // a number too large for any JSON number type
        refuse("line", std::string("is not JSON this reader takes: ") + e.what());
    }
    if (!root.is_object()) refuse("line", "is not a JSON object");
    if (member(root, "line", "format") != "isochron-telemetry/1") {
        refuse("format", "is not \"isochron-telemetry/1\": " + root["format"].dump());
    }
    TelemetryLine line;
    TelemetrySnapshot& s = line.snapshot;
    s.sequence = count(root, "line", "sequence");
    const Json& wall = member(root, "line", "wall_ns");
    if (!wall.is_number_integer() || (wall.is_number_unsigned() && wall.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<TimeNs>::max()))) {
        refuse("wall_ns", "is not a whole number of ns: " + wall.dump());
    }
    s.wallNs = wall.get<TimeNs>();
    s.elapsedSeconds = number(root, "line", "elapsed_s");
    s.engineState = state(root, "line", false);
    const Json& memory = objectAt(root, "line", "memory");
    s.liveBytes = count(memory, "memory", "live_bytes");
    s.liveAllocations = count(memory, "memory", "live_allocations");
    s.cachedBytes = count(memory, "memory", "cached_bytes");

    const bool spread = root.contains("ranks");
    std::map<std::string, int, std::less<>> indexOf;
    for (const auto& [id, node] : objectAt(root, "line", "nodes").items()) {
        indexOf.emplace(id, static_cast<int>(line.nodeIds.size()));
        line.nodeIds.push_back(id);
        readNode(node, "nodes." + id, spread, s.nodes.emplace_back());
    }
    for (const auto& [id, output] : objectAt(root, "line", "outputs").items()) {
        const std::string where = "outputs." + id;
        const auto node = indexOf.find(id);
        if (node == indexOf.end()) refuse(where, "names no node of \"nodes\"");
        OutputTelemetry& t = s.outputs.emplace_back();
        t.node = node->second;
        readOutput(output, where, t);
        if (rankOf(output, where, spread) != s.nodes[static_cast<std::size_t>(t.node)].rank) refuse(where + ".rank", "differs from its node's rank");
    }
    const Json& queues = member(root, "line", "queues");
    if (!queues.is_array()) refuse("queues", "is not a list");
    for (std::size_t i = 0; i < queues.size(); ++i) {
        const Json& q = queues[i];
        const std::string where = "queues[" + std::to_string(i) + "]";
        if (!q.is_object()) refuse(where, "is not an object");
        const Json& id = member(q, where, "node");
        const auto node = id.is_string() ? indexOf.find(id.get<std::string>()) : indexOf.end();
        if (node == indexOf.end()) refuse(where + ".node", "names no node of \"nodes\": " + id.dump());
        QueueTelemetry& t = s.queues.emplace_back();
        t.node = node->second;
        t.port = smallCount(q, where, "port");
        t.items = count(q, where, "items");
        t.bytes = count(q, where, "bytes");
        t.oldestWaitMs = number(q, where, "oldest_wait_ms");
        t.watermarkNs = watermark(q, where);
        t.lateItems = count(q, where, "late_items");
    }
    if (root.contains("busy")) {
        const Json& busy = objectAt(root, "line", "busy");
        const Json& id = member(busy, "busy", "node");
        const auto node = id.is_string() ? indexOf.find(id.get<std::string>()) : indexOf.end();
        if (node == indexOf.end()) refuse("busy.node", "names no node of \"nodes\": " + id.dump());
        s.busyNode = node->second;
        s.busySeconds = number(busy, "busy", "seconds");
    }
    if (spread) {
        const Json& ranks = root["ranks"];
        if (!ranks.is_array() || ranks.empty()) refuse("ranks", "is not a list of ranks");
        for (std::size_t i = 0; i < ranks.size(); ++i) readRank(ranks[i], "ranks[" + std::to_string(i) + "]", s.ranks.emplace_back());
    }
    return line;
}

}  // namespace isochron::ui
