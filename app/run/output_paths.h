// The files a run would write, checked before anything runs (a run may take an hour): the report and
// the telemetry file against the graph file, each other and every file a node reads or writes, and
// each sink's file against the graph file, the other sinks' and the files sources read. Paths name the same file when they
// are one existing file (by identity: links, "./x") or lead, through their symlinks, to the same
// normal form (sameFile, nodes/io/output_path.h).
#pragma once

#include "app/run/command_line.h"
#include "engine/graph/validated_graph.h"

namespace isochron::run {

/// Throws std::runtime_error naming both sides when a sink would write the graph file, a file
/// another sink writes, a file a node reads (archives excepted: several streams record into one
/// archive while others are read from it) or a file SQLite keeps beside an archive ("-wal", "-shm",
/// "-journal"), or when two io.archive_sink nodes record one stream of one archive; and naming the node when a built-in sink cannot write its file at all (a named pipe;
/// for an archive also a folder, a device, a missing folder, another application's database).
/// Also under --check.
/// [setup thread]
void checkNodeOutputPaths(const ValidatedGraph& graph, const std::string& graphPath);

/// Throws std::runtime_error when --report or --telemetry would overwrite the graph file, each other,
/// a node's file or a file SQLite keeps beside an archive, or cannot be written (probed without
/// truncating). [setup thread]
void checkRunOutputPaths(const RunOptions& options, const ValidatedGraph& graph);

/// Throws std::runtime_error naming the nodes and options when two sinks write standard output ('-'),
/// or when one does and --report, --telemetry or another sink's file is, by identity, the file
/// standard output writes (/dev/stdout, /dev/fd/1, or the file it is redirected to): one would
/// overwrite or corrupt the other. Also under --check. [setup thread]
void checkStandardOutputWriters(const RunOptions& options, const ValidatedGraph& graph);

}  // namespace isochron::run
