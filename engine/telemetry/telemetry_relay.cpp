#include "engine/telemetry/telemetry_relay.h"

#include <algorithm>

namespace isochron {

RankTelemetry rankTotals(const TelemetrySnapshot& s, int rank) {
    RankTelemetry r;
    r.rank = rank;
    r.sequence = s.sequence;
    r.elapsedSeconds = s.elapsedSeconds;
    r.engineState = s.engineState;
    r.liveBytes = s.liveBytes;
    for (const NodeTelemetry& node : s.nodes) {
        if (node.rank != rank) continue;
        r.queuedItems += node.queuedItems;
        r.queuedBytes += node.queuedBytes;
    }
    for (const OutputTelemetry& o : s.outputs) {
        if (o.node < 0 || static_cast<std::size_t>(o.node) >= s.nodes.size() || s.nodes[static_cast<std::size_t>(o.node)].rank != rank) continue;
        r.items += o.items;
        r.samples += o.samples;
        r.itemsPerSecond += o.itemsPerSecond;
        r.samplesPerSecond += o.samplesPerSecond;
        r.latencyP50Ms = std::max(r.latencyP50Ms, o.latencyP50Ms);
        r.latencyP95Ms = std::max(r.latencyP95Ms, o.latencyP95Ms);
        r.latencyP99Ms = std::max(r.latencyP99Ms, o.latencyP99Ms);
    }
    return r;
}

}  // namespace isochron
