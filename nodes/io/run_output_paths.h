// The files a run would write, checked before anything runs (a run may take an hour), by isochron-run
// (also under --check) and by the editor's Run alike: the report and the telemetry file against each
// other, every file the run reads and every file a node writes; each sink's file against the other
// sinks' and every file the run reads. The run reads the graph file, the subgraph files it includes,
// the binaries and manifests of its plugins, and the files its nodes' path parameters name (sources'
// recordings, array geometries). Paths name the same file when they are one existing file (by
// identity: links, "./x") or lead, through their symlinks, to the same normal form (sameFile,
// nodes/io/output_path.h).
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/graph/validated_graph.h"

namespace isochron {

/// A file a run reads that no node parameter names: the graph file, a subgraph file, a plugin's
/// binary or manifest. [value type]
struct RunInput {
    std::string path;
    std::string what;  ///< how messages name it: "the graph file itself", "the subgraph file ... the graph includes"
};

/// The files a run of `graph` reads besides its nodes' path parameters: the graph file `graphPath`
/// (none when empty: an editor's unsaved graph), the subgraph files expanded into `graph`, and the
/// binary and manifest of each plugin in `plugins` (the run loads them all) and of each plugin an
/// operator of `graph` comes from. [setup thread]
std::vector<RunInput> runInputs(const std::string& graphPath, const ValidatedGraph& graph,
                                const std::vector<std::filesystem::path>& plugins = {});

/// The files a run writes besides its sinks': isochron-run's --report and --telemetry (the editor's
/// --report). [value type]
struct RunOutputFiles {
    std::optional<std::string> report, telemetry;
};

/// A refused sink's file, with the node it belongs to (the first one the message names). [value type]
class NodeOutputPathError : public std::runtime_error {
public:
    NodeOutputPathError(std::string node, const std::string& message);
    const std::string& node() const { return node_; }
    /// The message without the node it begins with, for a list that names the node in a column.
    std::string withoutNode() const;

private:
    std::string node_;
};

/// Throws NodeOutputPathError naming both sides when a sink would write a file of `inputs` (the graph
/// file, ...), a file another sink writes, a file a node reads (archives excepted: several streams
/// record into one archive while others are read from it) or a file SQLite keeps beside an archive
/// ("-wal", "-shm", "-journal"), or when two io.archive_sink nodes record one stream of one archive;
/// and naming the node when a built-in sink cannot write its file at all (a named pipe; for an
/// archive also a folder, a device, a missing folder, another application's database).
/// [setup thread]
void checkNodeOutputPaths(const ValidatedGraph& graph, const std::vector<RunInput>& inputs);

/// Throws std::runtime_error when --report or --telemetry would overwrite a file of `inputs`, each
/// other, a node's file or a file SQLite keeps beside an archive, or the report cannot be written
/// (probed without truncating) or its folder cannot take a byte (a full disk). [setup thread]
void checkRunOutputPaths(const RunOutputFiles& outputs, const ValidatedGraph& graph, const std::vector<RunInput>& inputs);

/// Throws std::runtime_error naming the nodes and options when two sinks write standard output ('-'),
/// or when one does and --report, --telemetry or another sink's file is, by identity, the file
/// standard output writes (/dev/stdout, /dev/fd/1, or the file it is redirected to): one would
/// overwrite or corrupt the other. [setup thread]
void checkStandardOutputWriters(const RunOutputFiles& outputs, const ValidatedGraph& graph);

}  // namespace isochron
