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
/// another sink writes or a file a node reads (archives excepted: several streams record into one
/// archive while others are read from it). Also under --check.
/// [setup thread]
void checkNodeOutputPaths(const ValidatedGraph& graph, const std::string& graphPath);

/// Throws std::runtime_error when --report or --telemetry would overwrite the graph file, each other
/// or a node's file, or cannot be written (probed without truncating). [setup thread]
void checkRunOutputPaths(const RunOptions& options, const ValidatedGraph& graph);

}  // namespace isochron::run
