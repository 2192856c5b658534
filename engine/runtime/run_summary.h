// What a run did, per output and per node: the numbers the runner prints and writes as JSON, and
// that the benchmarks and the editor's comparison view reuse.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/runtime/engine.h"

namespace isochron {

/// Figures for one output (a node without output ports). [value type]
struct OutputSummary {
    std::string node;
    std::uint64_t items = 0;    ///< data items received (progress excluded)
    std::uint64_t samples = 0;  ///< samples in received signals
    double samplesPerSecond = 0;
    double itemsPerSecond = 0;
    std::uint64_t latencyCount = 0;  ///< items with a known arrival time
    double latencyMeanMs = 0, latencyP50Ms = 0, latencyP95Ms = 0, latencyP99Ms = 0, latencyMaxMs = 0;
    double utilityAverage = 0;  ///< mean QoS utility over items with a known latency
};

/// Figures for any node. [value type]
struct NodeSummary {
    std::string node;
    std::string type;
    std::uint64_t calls = 0;        ///< hook calls: a source's produce calls, else the items that reached the operator's hooks
    std::uint64_t routedItems = 0;  ///< items a plugin's route passed on without a call (isochron/ext/routes.h)
    std::uint64_t itemsIn = 0, itemsOut = 0;
    std::uint64_t samplesIn = 0, samplesOut = 0;
    std::uint64_t warningCount = 0;
    std::vector<std::string> warnings;
    std::string failure;  ///< empty unless the node failed
    std::vector<std::pair<std::string, std::uint64_t>> lateItems;  ///< per input port that had any: name, count
    HeldState held;  ///< what the operator held back at the end, and its peak
};

/// A whole run. [value type]
struct RunSummary {
    std::string scheduler;
    RunOutcome outcome;
    std::vector<OutputSummary> outputs;
    std::vector<NodeSummary> nodes;

    /// Report JSON ("format": "isochron-run-report/1"), with "outputs" keyed by node id.
    nlohmann::ordered_json toJson() const;
    /// Human-readable table for the terminal (standard output); its first line says how the run
    /// ended and, when nodes failed, how many ("..., but 2 nodes failed").
    std::string toText() const;
    /// Warnings, notes and node failures, one a line (standard error: kept apart from the data a
    /// sink may write to standard output). `shownAtStart[node]` of a node's first warnings were
    /// already printed when the graph started, and are not repeated.
    std::string problemsText(const std::map<std::string, std::size_t, std::less<>>& shownAtStart = {}) const;
};

/// Collect the figures of a finished run. [engine thread, after run()]
RunSummary summarizeRun(const Engine& engine, const RunOutcome& outcome);

}  // namespace isochron
