// Reading and writing *.isograph.json files (format "isochron-graph/1", docs/graph-format.md).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/graph/graph_error.h"
#include "engine/graph/graph_spec.h"
#include "engine/graph/stop_poll.h"

namespace isochron {

/// The largest graph file read: a 100 000-node graph takes about 10 MiB.
inline constexpr std::size_t kMaxGraphFileBytes = std::size_t{64} << 20;

/// Parse graph JSON text. Structural problems (bad JSON, JSON nested deeper than kMaxJsonNesting,
/// missing fields, duplicate ids, malformed edges) are all collected into the thrown GraphException.
/// Types and parameters are not checked here; that is validateGraph()'s job. Asks `stop` every
/// kStepsPerStopPoll JSON values and nodes and gives up with StartStopped when it says so.
GraphSpec parseGraph(const std::string& jsonText, const StopPoll& stop = {});
/// Read and parse a file; errors name the file. A path that is not a regular file (a device, a pipe)
/// or holds more than kMaxGraphFileBytes is refused before it is read. `stop` as for parseGraph.
GraphSpec loadGraphFile(const std::filesystem::path& path, const StopPoll& stop = {});

/// The graph as JSON text (stable field order, 2-space indent).
std::string serializeGraph(const GraphSpec& graph);
/// Write atomically (temp file + rename) so a failed save loses nothing.
void saveGraphFile(const GraphSpec& graph, const std::filesystem::path& path);

/// Parse "node.port" into its two parts; false if malformed.
bool splitEndpoint(const std::string& text, std::string& node, std::string& port);

}  // namespace isochron
