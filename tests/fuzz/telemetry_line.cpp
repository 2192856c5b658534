// Fuzz target: one line of a telemetry file (`isochron-run --telemetry`, "isochron-telemetry/1"), as
// the editor reads it when it follows a run in another process (ui/run/telemetry_line.h).
//
// Input: the text of one line. Properties: a refused line is a TelemetryLineError with a message
// naming a field; an accepted one has one id per node and outputs and queues naming nodes of the line,
// and the engine's own writer (telemetryToJson, the independent reference) writes it back as a line
// whose every field agrees with the input's (absent `rank` and `failure` read as 0 and "", a watermark
// at the clock's ends written as null or "end"), which reads back to a snapshot it writes identically.
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/telemetry/telemetry_json.h"
#include "tests/fuzz/fuzz_support.h"
#include "ui/run/telemetry_line.h"

using namespace isochron;

namespace {

using Json = nlohmann::ordered_json;

// Whether every field `written` has agrees with `original` (which may have more fields).
bool agrees(const Json& written, const Json& original, const std::string& key) {
    if (written.is_object()) {
        if (!original.is_object()) return false;
        for (const auto& [k, value] : written.items()) {
            if (!original.contains(k)) {
                if ((k == "rank" && value == 0) || (k == "failure" && value == "")) continue;
                return false;
            }
            if (!agrees(value, original[k], k)) return false;
        }
        return true;
    }
    if (written.is_array()) {
        if (!original.is_array() || original.size() != written.size()) return false;
        for (std::size_t i = 0; i < written.size(); ++i) {
            if (!agrees(written[i], original[i], key)) return false;
        }
        return true;
    }
    if (key == "watermark_ns" && written.is_null()) return original.is_null() || original == std::numeric_limits<TimeNs>::min();
    if (key == "watermark_ns" && written == "end") return original == "end" || original == std::numeric_limits<TimeNs>::max();
    return written == original;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    ui::TelemetryLine line;
    try {
        line = ui::parseTelemetryLine(text);
    } catch (const ui::TelemetryLineError& e) {
        const std::string message = e.what();
        fuzz::require(message.find(": ") != std::string::npos && message.find(": ") + 2 < message.size(), "a refused line without a field and a reason");
        return 0;
    }
    const TelemetrySnapshot& s = line.snapshot;
    fuzz::require(line.nodeIds.size() == s.nodes.size(), "nodes without exactly one id each");
    for (const OutputTelemetry& o : s.outputs) fuzz::require(o.node >= 0 && static_cast<std::size_t>(o.node) < s.nodes.size(), "an output naming no node");
    for (const QueueTelemetry& q : s.queues) fuzz::require(q.node >= 0 && static_cast<std::size_t>(q.node) < s.nodes.size(), "a queue naming no node");
    const Json written = telemetryToJson(s, line.nodeIds);
    fuzz::require(agrees(written, Json::parse(text), ""), "the writer's line disagrees with the line read");
    const std::string once = written.dump();
    const ui::TelemetryLine again = ui::parseTelemetryLine(once);
    fuzz::require(telemetryToJson(again.snapshot, again.nodeIds).dump() == once, "a written line that does not read back to itself");
    return 0;
}
