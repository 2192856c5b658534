// Telemetry snapshots as JSON lines ("format": "isochron-telemetry/1"), for files and scripts.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/telemetry/telemetry_snapshot.h"

namespace isochron {

/// One snapshot as a JSON object; nodes and outputs are keyed by node id (`nodeIds[i]` names node i
/// of this rank; another rank's nodes carry their own id). Under mpirun nodes and outputs also have
/// their "rank", and "ranks" lists each rank's totals (docs/telemetry-format.md).
nlohmann::ordered_json telemetryToJson(const TelemetrySnapshot& snapshot, const std::vector<std::string>& nodeIds);

}  // namespace isochron
