// The watchdog a run gives its sandboxed plugins, chosen from the graph it runs.
//
// Every node waits for a sandboxed call (the call is synchronous), so a hung plugin holds the whole
// graph until the watchdog kills it. An unpaced graph only loses that time; a live source keeps its
// clock meanwhile and drops what falls more than its headroom behind: a paced source (pace > 0) its
// `max_lag`, a capture source its `buffer`. So with live sources the default watchdog is half the
// smallest headroom (a hang is cut with the other half left for the catching up), never below
// kSandboxWatchdogFloor; without them it is kUnpacedSandboxWatchdog. A watchdog the user gives is
// kept, with a warning when it is longer than that half. Both isochron-run and the editor use it.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "engine/graph/validated_graph.h"

namespace isochron {

/// The watchdog of a graph without live sources (and what PluginHosting starts with).
inline constexpr std::chrono::milliseconds kUnpacedSandboxWatchdog{10'000};
/// The shortest default: a sandboxed call that answers normally (a child starting, a large block)
/// must not be taken for a hang on a busy machine.
inline constexpr std::chrono::milliseconds kSandboxWatchdogFloor{250};

/// A source that keeps a wall clock, and how long it can wait for the engine before dropping data. [value type]
struct LiveSourceHeadroom {
    std::string node;       ///< node id
    std::string parameter;  ///< what sets the headroom: "max_lag" (a paced source) or "buffer" (a capture source)
    double seconds = 0;     ///< the parameter's value, s
};

/// The live sources of `graph`, the one with the least headroom first: nodes whose `pace` is above 0
/// and that have a `max_lag` (every paced built-in source does), and capture sources (category
/// "capture") with a `buffer`. [any thread]
std::vector<LiveSourceHeadroom> liveSourceHeadrooms(const ValidatedGraph& graph);

/// What a run's sandboxed calls may take, and what to tell the user about it. [value type]
struct SandboxWatchdogChoice {
    std::chrono::milliseconds watchdog{kUnpacedSandboxWatchdog};
    /// For activate (with the plugin's constructor) and deactivate, which run while no source streams:
    /// the given watchdog, else kUnpacedSandboxWatchdog (a plugin may take seconds to get ready).
    std::chrono::milliseconds setupWatchdog{kUnpacedSandboxWatchdog};
    std::optional<LiveSourceHeadroom> tightest;  ///< the live source with the least headroom, if any
    std::string note;     ///< one line for the run's start notes: the watchdog and why
    std::string warning;  ///< empty, or why a hang would make a live source drop data and what to do
};

/// The watchdog for a run of `graph`: `given` (the user's --watchdog) if any, else the default the
/// file comment describes. [any thread]
SandboxWatchdogChoice chooseSandboxWatchdog(const ValidatedGraph& graph, std::optional<std::chrono::milliseconds> given);

}  // namespace isochron
