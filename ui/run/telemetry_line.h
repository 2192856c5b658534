// Reading back one line of a telemetry file (`isochron-run --telemetry`, format "isochron-telemetry/1",
// docs/telemetry-format.md) into the snapshot the engine wrote it from, so the editor can follow a run
// in another process (rank 0 of an mpirun job). No Qt here: the fuzz build (tests/fuzz) compiles it alone.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/telemetry/telemetry_snapshot.h"

namespace isochron::ui {

/// One line read back: the snapshot, and the id of each of its nodes (nodeIds[i] names snapshot.nodes[i];
/// NodeTelemetry::id stays empty). Nodes are in the line's order. [value type]
struct TelemetryLine {
    TelemetrySnapshot snapshot;
    std::vector<std::string> nodeIds;
};

/// A line that is not an `isochron-telemetry/1` snapshot; what() names the field and what is wrong with it.
class TelemetryLineError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Parse one line (without its newline). Accepts exactly what telemetryToJson writes: every field of the
/// format, `rank` fields only beside a `ranks` list, outputs and queues naming nodes of the line, finite
/// numbers, whole numbers where the format counts. Throws TelemetryLineError otherwise. [any thread]
TelemetryLine parseTelemetryLine(std::string_view text);

}  // namespace isochron::ui
