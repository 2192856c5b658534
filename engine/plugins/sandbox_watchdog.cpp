#include "engine/plugins/sandbox_watchdog.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace isochron {
namespace {

/// `seconds` as a short number of seconds ("2", "0.25").
std::string secondsText(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", seconds);
    return text;
}

double inSeconds(std::chrono::milliseconds duration) { return static_cast<double>(duration.count()) / 1000; }

std::string secondsText(std::chrono::milliseconds duration) { return secondsText(inSeconds(duration)); }

/// Half the headroom, as the longest watchdog that leaves the source time to catch up; at least the floor.
std::chrono::milliseconds safeWatchdog(const LiveSourceHeadroom& source) {
    const auto half = std::chrono::milliseconds(static_cast<std::int64_t>(std::floor(source.seconds * 1000 / 2)));
    return std::max(half, kSandboxWatchdogFloor);
}

std::string describe(const LiveSourceHeadroom& source) {
    return "node '" + source.node + "' " + source.parameter + " " + secondsText(source.seconds) + " s";
}

}  // namespace

std::vector<LiveSourceHeadroom> liveSourceHeadrooms(const ValidatedGraph& graph) {
    std::vector<LiveSourceHeadroom> sources;
    for (const ValidatedNode& node : graph.nodes) {
        const ParamSet& params = node.params;
        const bool paced = params.has("pace") && params.getReal("pace") > 0;
        if (paced && params.has("max_lag")) {
            sources.push_back({node.id, "max_lag", params.getReal("max_lag")});
        } else if (node.descriptor && node.descriptor->category == "capture" && params.has("buffer")) {
            sources.push_back({node.id, "buffer", params.getReal("buffer")});
        }
    }
    std::stable_sort(sources.begin(), sources.end(), [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
    return sources;
}

SandboxWatchdogChoice chooseSandboxWatchdog(const ValidatedGraph& graph, std::optional<std::chrono::milliseconds> given) {
    SandboxWatchdogChoice choice;
    const std::vector<LiveSourceHeadroom> sources = liveSourceHeadrooms(graph);
    if (!sources.empty()) choice.tightest = sources.front();
    const std::chrono::milliseconds safe = choice.tightest ? safeWatchdog(*choice.tightest) : kUnpacedSandboxWatchdog;
    choice.watchdog = given.value_or(safe);
    choice.setupWatchdog = given.value_or(kUnpacedSandboxWatchdog);
    const std::string seconds = secondsText(choice.watchdog) + " s";
    if (given) {
        choice.note = "a call into a sandboxed plugin may take " + seconds + " (--watchdog)";
    } else if (choice.tightest) {
        choice.note = "a call into a sandboxed plugin may take " + seconds + " (the watchdog, from the live source " + describe(*choice.tightest) +
                      ": a hang is cut at half of it, before the source drops data; activate and deactivate, while no source streams, " +
                      secondsText(choice.setupWatchdog) + " s; --watchdog SECONDS to change both)";
    } else {
        choice.note = "a call into a sandboxed plugin may take " + seconds + " (the watchdog; the graph has no live source; --watchdog SECONDS to change it)";
    }
    if (!choice.tightest) return choice;
    const LiveSourceHeadroom& source = *choice.tightest;
    if (inSeconds(choice.watchdog) <= source.seconds / 2) return choice;
    // Every branch waits for a hung call: the live source falls that far behind and drops the rest.
    choice.warning = "a hung sandboxed plugin would make '" + source.node + "' drop data: the watchdog (" + seconds +
                     ") holds the whole graph that long, more than half of " + describe(source) + "; ";
    if (given) {
        choice.warning += "give --watchdog " + secondsText(safe) + " or less, or raise '" + source.node + "' " + source.parameter;
    } else {
        choice.warning += "raise '" + source.node + "' " + source.parameter + " to " + secondsText(2 * inSeconds(choice.watchdog)) +
                          " s or more (a watchdog is " + secondsText(kSandboxWatchdogFloor) + " s at least)";
    }
    return choice;
}

}  // namespace isochron
