// How isochron-run takes part in a run spread over ranks (docs/scale-out.md): under `mpirun -np N`
// rank k runs partition k of the graph and talks to the others over MPI channels; alone (no mpirun,
// one rank, or a build without MPI) it runs the whole graph as always. scale_out_mpi.cpp and
// scale_out_alone.cpp implement it with and without MPI.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/graph/validated_graph.h"

namespace isochron {
class Engine;
}

namespace isochron::run {

/// The number of ranks an MPI launcher (mpirun, mpiexec) says this process is one of; 1 without one. [any thread]
int launcherRankCount();

/// Thrown on every rank under mpirun when a rank refused to run (ScaleOut::refuse): the refusal is
/// printed already, once, and the process leaves with status 1. [main thread]
class RunRefusedOnRanks : public std::runtime_error {
public:
    RunRefusedOnRanks() : std::runtime_error("a rank refused to run") {}
};

/// This process's part in a run. [main thread unless stated]
class ScaleOut {
public:
    /// Join the ranks when an MPI launcher started this process (MPI_Init). Throws std::runtime_error
    /// in a build without MPI started as one of several ranks (each would run the whole graph).
    ScaleOut(int& argc, char**& argv);
    ~ScaleOut();
    ScaleOut(const ScaleOut&) = delete;
    ScaleOut& operator=(const ScaleOut&) = delete;

    int rank() const;
    int ranks() const;
    /// The graph this process runs. Under several ranks: partition rank()'s nodes of `graph` (validated
    /// from `file`) and an endpoint per channel touching them, each sender with `channelCredits` (1 to 4096)
    /// messages in flight at most; throws GraphException for partitions that cannot run on this many
    /// ranks. Throws RunRefusedOnRanks when another rank refused before (refuse()). Alone: `graph`
    /// itself, and `notes` says that partitions are ignored and how to use them. On rank 0 of several,
    /// `notes` names the ranks given no partition (they only wait for the others), why, and what to do.
    const ValidatedGraph& localGraph(const GraphSpec& file, const ValidatedGraph& graph, int channelCredits, std::vector<std::string>& notes);
    /// What `--check` says of a partitioned graph (validated `graph` from `file`): the ranks it needs,
    /// the nodes each rank runs and the channels between ranks; "" for a graph without partitions
    /// and in a build without MPI. Throws GraphException for partitions that cannot run (a cycle,
    /// custom items between ranks, or more partitions than the ranks started).
    std::string partitionPlan(const GraphSpec& file, const ValidatedGraph& graph) const;
    /// Telemetry across ranks: when rank 0 reads telemetry (`wanted` there, at `hz` there), every rank's
    /// `engine` sends its snapshots to rank 0, whose snapshots then hold every node with its rank
    /// (docs/telemetry-format.md). Every rank calls it after building its engine and before running
    /// it (they agree with rank 0 over MPI). Alone: nothing.
    void relayTelemetry(Engine& engine, bool wanted, double hz);
    /// Before the run (a collective call, after readyToGoOn()): the channels learn this rank's
    /// `engine` (a sender whose receiver is gone stops there the sources that fed only it; a receiver
    /// cut off is stopped without a warning, as no node of the graph), and
    /// whether a source of the whole graph follows the wall clock: every rank asks its engine about
    /// its own sources and tells it the other ranks' answer (Engine::setSourcesElsewhereFollowWallClock),
    /// so io.archive_sink's when_behind auto decides as in the graph run whole on every rank, fed
    /// over a channel or not. Alone: nothing (the engine holds every source).
    void prepareChannels(Engine& engine);
    /// Every rank is ready to go on: under several ranks each rank calls it at the same point, once its
    /// part is ready to run (its nodes started, its files opened) and under --check before it says
    /// "valid"; localGraph() makes the same agreement before the ranks open their channels. Throws
    /// RunRefusedOnRanks when a rank refused (refuse()) instead. Alone: nothing.
    void readyToGoOn();
    /// This rank cannot run (`refusal`: the lines that say why, each ending in a newline). Under
    /// several ranks, before the ranks run, it joins the agreement the others make (localGraph(),
    /// readyToGoOn()), so that every rank leaves with status 1 through MPI_Finalize, and prints
    /// `refusal` unless a lower rank refused in the same words (a refusal every rank shares is
    /// printed once; the ranks' own file names from rankPath() count as the same words). Once the
    /// ranks run, and alone, it prints `refusal`. Returns 1.
    int refuse(const std::string& refusal);
    /// End every wait on another rank now (a stop signal arrived). [any thread]
    void stop();
    /// Tell the other ranks how this rank's run ended (`end`: "finished", "finished with a failed node:
    /// ...", "stopped: ...") and wait for theirs: until every rank has told its end; once
    /// `stopSignalCame` says so, or when this run stopped, 0.3 s more at most (a killed rank never
    /// tells). First it drains the channels whose receivers its failed nodes cut off. Every rank's end
    /// by rank, for the report's "rank_ends" ("lost: rank k ended without a word" for a rank that did
    /// not tell); null alone.
    nlohmann::ordered_json endRun(const std::string& end, const std::function<bool()>& stopSignalCame);
    /// This rank's report is written (or there is none): tell the other ranks. [after endRun()]
    void reportWritten();
    /// One line per channel end of this rank, and one for telemetry across ranks, for the summary ("" alone).
    std::string channelsText() const;
    /// The report's "channels" array (null alone).
    nlohmann::ordered_json channelsJson() const;
    /// How many nodes of localGraph()'s graph are channel ends to other ranks, not nodes of the graph
    /// file (0 alone).
    int channelEnds() const;
    /// `path` for this rank: unchanged alone, "run.rank1.json" for "run.json" on rank 1 of several.
    /// A refusal naming it is printed once for every rank (refuse()) as that of `path` on rank 0.
    std::string rankPath(const std::string& path) const;
    /// Leave the ranks and return `status`, once every rank that told its end has said its report is
    /// written (5 s at most; 0.3 s after a stop by a signal): MPI_Finalize after a run to its end (a
    /// node that failed on some rank included), and
    /// after a stop by a signal (status 128 + the signal) when every rank told its end; after a stop
    /// by a signal that another rank did not live through, nothing (mpirun is ending every rank).
    /// Another status below 128 when a rank did not tell its end (this one left through an error):
    /// MPI_Abort, so that no other rank waits for this one for ever. When the ranks agreed that a
    /// rank refused to run: MPI_Finalize.
    int finish(int status);

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace isochron::run
