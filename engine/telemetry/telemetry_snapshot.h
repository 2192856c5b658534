// One telemetry snapshot: every figure the editor plots and `isochron-run --telemetry` writes,
// taken 20-60 times a second by the engine thread (by the telemetry watcher while a call keeps it). Versioned as "isochron-telemetry/1". Under mpirun
// rank 0's snapshots also hold every other rank's nodes and outputs, each with its rank, and one
// RankTelemetry per rank (a TelemetryRelay gathers them; docs/scale-out.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/time/timebase.h"

namespace isochron {

/// Figures of one node. Counters are totals since the run started. [value type]
struct NodeTelemetry {
    std::uint64_t calls = 0;
    std::uint64_t itemsIn = 0, itemsOut = 0;      ///< data items (progress excluded)
    std::uint64_t samplesIn = 0, samplesOut = 0;
    double costNsPerItem = 0;  ///< running estimate of exclusive processing time per item
    double selectivity = 0;    ///< items out per item in (running estimate; 0 before any input)
    std::uint64_t queuedItems = 0;   ///< waiting in this node's input queues
    std::uint64_t queuedBytes = 0;   ///< sample bytes those items reference
    std::uint64_t warnings = 0;
    TimeNs watermarkNs = kBeginningOfTime;  ///< progress promised on the outputs (the stream's low watermark)
    double skewMs = 0;          ///< between the most and the least advanced connected input (0 with one input)
    std::uint64_t heldItems = 0;  ///< what the operator holds back (buffers, open windows, join state)
    std::uint64_t heldBytes = 0;
    bool failed = false;
    bool finished = false;
    std::string failure;  ///< why the node was disabled (names the plugin file for plugin operators); empty unless failed
    int rank = 0;         ///< the rank that runs the node (0 in one process)
    std::string id;       ///< set only for a node of another rank: readers name this rank's nodes from their own list
};

/// Figures of one output (a node without output ports). [value type]
struct OutputTelemetry {
    int node = 0;  ///< index into the node list
    std::uint64_t items = 0, samples = 0;
    double itemsPerSecond = 0, samplesPerSecond = 0;  ///< since the previous snapshot
    double latencyLastMs = 0;    ///< latency of the most recent item
    double latencyP50Ms = 0, latencyP95Ms = 0, latencyP99Ms = 0;  ///< over the recent window
    double utilityNow = 0;       ///< QoS utility at the most recent latency
    double utilityAverage = 0;   ///< mean utility over every item of the run
};

/// Figures of one rank of a run spread over ranks, from its latest snapshot. [value type]
struct RankTelemetry {
    int rank = 0;
    std::uint64_t sequence = 0;    ///< that rank's latest snapshot (0: none has arrived yet)
    double elapsedSeconds = 0;     ///< since that rank's engine started
    std::string engineState;       ///< "running", "finished", "stopped" ("" before its first snapshot)
    std::uint64_t items = 0, samples = 0;             ///< reached the rank's outputs: its sinks and its channels to other ranks
    double itemsPerSecond = 0, samplesPerSecond = 0;  ///< the same, per second (the rank's throughput)
    std::uint64_t queuedItems = 0, queuedBytes = 0;   ///< waiting in its nodes' input queues
    double latencyP50Ms = 0, latencyP95Ms = 0, latencyP99Ms = 0;  ///< the highest of its outputs' (end to end: from the data's arrival on its first rank)
    std::uint64_t liveBytes = 0;   ///< its memory pool's bytes handed out
};

/// Per input port queue figures (one entry per connected input). [value type]
struct QueueTelemetry {
    int node = 0;
    int port = 0;
    std::uint64_t items = 0;
    std::uint64_t bytes = 0;
    double oldestWaitMs = 0;  ///< how long the front item has waited since it arrived (0 if unknown)
    TimeNs watermarkNs = kBeginningOfTime;  ///< progress promised on this input (its low watermark)
    std::uint64_t lateItems = 0;  ///< data items that arrived older than that progress
};

/// Everything at one instant. [value type; buffers are reused between snapshots]
struct TelemetrySnapshot {
    std::uint64_t sequence = 0;  ///< 1, 2, 3 ... per run
    TimeNs wallNs = 0;           ///< Clock::wall time it was taken
    double elapsedSeconds = 0;   ///< since Engine::run() started
    std::string engineState;     ///< "running", "finished", "stopped"
    std::uint64_t liveBytes = 0;        ///< memory pool: bytes handed out
    std::uint64_t liveAllocations = 0;  ///< memory pool: blocks handed out
    std::uint64_t cachedBytes = 0;      ///< memory pool: kept for reuse
    /// The node whose hook call kept the engine thread past this snapshot's time (index into nodes;
    /// -1: none): the telemetry watcher posted this snapshot with the counts so far (the other
    /// figures are those of the previous snapshot).
    int busyNode = -1;
    double busySeconds = 0;  ///< how long the watcher has seen that call run (a lower bound, to within a period)
    std::vector<NodeTelemetry> nodes;
    std::vector<OutputTelemetry> outputs;
    std::vector<QueueTelemetry> queues;  ///< this rank's inputs only
    std::vector<RankTelemetry> ranks;    ///< one per rank, by rank, under mpirun; empty in one process
};

}  // namespace isochron
