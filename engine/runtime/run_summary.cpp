#include "engine/runtime/run_summary.h"

#include <algorithm>
#include <cstdio>

#include "engine/plugins/routed_items.h"

namespace isochron {
namespace {

std::string format(const char* pattern, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, pattern, value);
    return buffer;
}

// 1234567 -> "1.23 M"
std::string humanRate(double value) {
    const char* units[] = {"", " k", " M", " G", " T"};
    int unit = 0;
    while (value >= 1000.0 && unit < 4) {
        value /= 1000.0;
        ++unit;
    }
    return format(value < 10 ? "%.2f" : value < 100 ? "%.1f" : "%.0f", value) + units[unit];
}

}  // namespace

RunSummary summarizeRun(const Engine& engine, const RunOutcome& outcome) {
    RunSummary summary;
    summary.scheduler = std::string(engine.scheduler().name());
    summary.outcome = outcome;
    const double seconds = outcome.wallSeconds > 0 ? outcome.wallSeconds : 1e-9;
    for (const auto& node : engine.nodes()) {
        NodeSummary n;
        n.node = node->id;
        n.type = node->descriptor->typeName;
        // The engine counts a routed item as processed; no hook of the plugin ran for it.
        const auto* routes = dynamic_cast<const RoutedItems*>(node->op.get());
        n.calls = pluginHookCalls(node->callCount(), routes);
        if (routes) n.routedItems = routes->routedItems();
        for (const auto& in : node->inputs) {
            n.itemsIn += in.items;
            n.samplesIn += in.samples;
            if (in.lateItems) n.lateItems.emplace_back(in.port.name, in.lateItems);
        }
        if (node->op) n.held = node->op->heldState();
        for (const auto& out : node->outputs) {
            n.itemsOut += out.items;
            n.samplesOut += out.samples;
        }
        n.warningCount = node->warningCount;
        n.warnings = node->warnings;
        if (node->failed) n.failure = node->failure;
        if (node->isSink()) {
            OutputSummary o;
            o.node = node->id;
            o.items = n.itemsIn;
            o.samples = n.samplesIn;
            o.samplesPerSecond = static_cast<double>(o.samples) / seconds;
            o.itemsPerSecond = static_cast<double>(o.items) / seconds;
            const LatencyHistogram& h = node->sink->latency;
            o.latencyCount = h.count();
            o.latencyMeanMs = h.meanNs() / 1e6;
            o.latencyP50Ms = h.percentileNs(0.50) / 1e6;
            o.latencyP95Ms = h.percentileNs(0.95) / 1e6;
            o.latencyP99Ms = h.percentileNs(0.99) / 1e6;
            o.latencyMaxMs = static_cast<double>(h.maxNs()) / 1e6;
            o.utilityAverage = h.count() ? node->sink->utilitySum / static_cast<double>(h.count()) : 0.0;
            summary.outputs.push_back(o);
        }
        summary.nodes.push_back(std::move(n));
    }
    return summary;
}

nlohmann::ordered_json RunSummary::toJson() const {
    using nlohmann::ordered_json;
    ordered_json root;
    root["format"] = "isochron-run-report/1";
    root["scheduler"] = scheduler;
    root["completed"] = outcome.completed;
    root["stopped"] = outcome.stopped;
    root["wall_s"] = outcome.wallSeconds;
    root["failures"] = outcome.failures;
    // Node ids are unique: entries are appended (ordered_json's operator[] looks for the key first,
    // quadratic in a 100 000-node graph's report).
    auto append = [](ordered_json& object, const std::string& key, ordered_json value) {
        object.get_ref<ordered_json::object_t&>().emplace_back(key, std::move(value));
    };
    ordered_json outs = ordered_json::object();
    for (const auto& o : outputs) {
        append(outs, o.node, {
            {"items", o.items},
            {"samples", o.samples},
            {"samples_per_s", o.samplesPerSecond},
            {"items_per_s", o.itemsPerSecond},
            {"latency_ms", {{"count", o.latencyCount}, {"mean", o.latencyMeanMs}, {"p50", o.latencyP50Ms},
                            {"p95", o.latencyP95Ms}, {"p99", o.latencyP99Ms}, {"max", o.latencyMaxMs}}},
            {"utility_average", o.utilityAverage},
        });
    }
    root["outputs"] = outs;
    ordered_json nodesJson = ordered_json::object();
    for (const auto& n : nodes) {
        ordered_json entry = {{"type", n.type}, {"calls", n.calls}, {"items_in", n.itemsIn}, {"items_out", n.itemsOut},
                              {"samples_in", n.samplesIn}, {"samples_out", n.samplesOut}};
        if (n.routedItems) entry["routed_items"] = n.routedItems;
        if (n.warningCount) {
            entry["warning_count"] = n.warningCount;
            entry["warnings"] = n.warnings;
        }
        if (!n.failure.empty()) entry["failure"] = n.failure;
        if (!n.lateItems.empty()) {
            ordered_json late = ordered_json::object();
            for (const auto& [port, count] : n.lateItems) late[port] = count;
            entry["late_items"] = late;
        }
        if (n.held.peakItems) {
            entry["held"] = {{"items", n.held.items}, {"bytes", n.held.bytes}, {"peak_items", n.held.peakItems}, {"peak_bytes", n.held.peakBytes}};
        }
        append(nodesJson, n.node, std::move(entry));
    }
    root["nodes"] = nodesJson;
    return root;
}

std::string RunSummary::toText() const {
    std::string text;
    char line[256];
    std::snprintf(line, sizeof line, "scheduler %s: %s after %.3f s", scheduler.c_str(),
                  outcome.completed ? "completed" : outcome.stopped ? "stopped" : "ended", outcome.wallSeconds);
    text += line;
    // A run with failed nodes is not a clean one, even when it completed (the failures are listed on standard error).
    const std::size_t failed = outcome.failures.size();
    if (failed > 0) text += ", but " + std::to_string(failed) + (failed == 1 ? " node failed" : " nodes failed");
    text += "\n";
    std::snprintf(line, sizeof line, "%-18s %10s %12s %14s %30s %12s\n", "output", "items", "samples", "samples/s",
                  "latency ms p50 / p95 / p99", "avg utility");
    text += line;
    for (const auto& o : outputs) {
        std::string latency = o.latencyCount ? format("%.3f", o.latencyP50Ms) + " / " + format("%.3f", o.latencyP95Ms) +
                                                   " / " + format("%.3f", o.latencyP99Ms)
                                             : "-";
        std::string utility = o.latencyCount ? format("%.3f", o.utilityAverage) : "-";
        std::snprintf(line, sizeof line, "%-18s %10llu %12llu %14s %30s %12s\n", o.node.c_str(),
                      static_cast<unsigned long long>(o.items), static_cast<unsigned long long>(o.samples),
                      humanRate(o.samplesPerSecond).c_str(), latency.c_str(), utility.c_str());
        text += line;
    }
    return text;
}

std::string RunSummary::problemsText(const std::map<std::string, std::size_t, std::less<>>& shownAtStart) const {
    std::string text;
    for (const auto& n : nodes) {
        const auto shown = shownAtStart.find(n.node);
        const std::size_t skip = shown == shownAtStart.end() ? 0 : shown->second;
        for (std::size_t w = skip; w < n.warnings.size(); ++w) text += "warning: node '" + n.node + "': " + n.warnings[w] + "\n";
        for (const auto& [port, count] : n.lateItems) {
            text += "note: node '" + n.node + "', input '" + port + "': " + std::to_string(count) + " late items (behind what the operator had already released: sent to its 'late' output, and lost if nothing is wired to it)\n";
        }
        if (n.warningCount > n.warnings.size()) {
            text += "warning: node '" + n.node + "': " + std::to_string(n.warningCount - n.warnings.size()) +
                    " more warnings\n";
        }
    }
    for (const auto& f : outcome.failures) text += "error: " + f + "\n";
    return text;
}

}  // namespace isochron
