// ScaleOut with MPI: under mpirun, rank k runs partition k and the channels between partitions are
// MPI channels (distributed/mpi_channels.h).
#include "app/run/scale_out.h"

#include <mpi.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <optional>
#include <utility>

#include "distributed/mpi_channels.h"
#include "distributed/mpi_rank_ends.h"
#include "distributed/mpi_refusals.h"
#include "distributed/mpi_telemetry_relay.h"
#include "distributed/partition_plan.h"
#include "engine/runtime/engine.h"
#include "engine/time/wall_clock.h"

namespace isochron::run {

namespace {

// How long a stopped rank waits for the other ranks' ends, and then for their reports: well within
// mpirun's 1 s between its SIGTERM and its SIGKILL.
constexpr TimeNs kAfterStopNs = 300'000'000;
// How long a rank that ran to its end waits for the other ranks' reports before it leaves.
constexpr TimeNs kAfterReportsNs = 5'000'000'000;

// The agreements on whether every rank can run, made by every rank in this order: before the ranks
// open their channels (in localGraph()) and once their parts are ready (readyToGoOn()).
constexpr int kAgreements = 2;

/// One agreement of the ranks (distributed/mpi_refusals.h) with this rank's `refusal` ("" when it
/// is ready), printed when this rank (`rank`) is the one to, the ranks comparing their refusals as
/// `sharedWords` (the refusal in the words every rank would use); whether every rank is ready.
bool agree(const std::string& refusal, const std::string& sharedWords, int rank) {
    const std::vector<std::string> refusals = distributed::gatherRefusals(sharedWords);
    if (distributed::printsRefusal(refusals, rank)) std::cerr << refusal << std::flush;
    return std::all_of(refusals.begin(), refusals.end(), [](const std::string& r) { return r.empty(); });
}

/// Whether rank 0 reads telemetry and at what rate: rank 0's `wanted` and `hz`, as every rank learns
/// them (a collective call: every rank makes it once, before its run).
std::pair<bool, double> agreeOnTelemetry(bool wanted, double hz) {
    double rankZero[2] = {wanted ? 1.0 : 0.0, hz};
    MPI_Bcast(rankZero, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return {rankZero[0] != 0, rankZero[1]};
}

/// "1", "1 and 2", "1, 2 and 5", "3 to 9": the numbers `values` (ascending), runs of three or more as a range.
std::string numberList(const std::vector<int>& values) {
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < values.size();) {
        std::size_t j = i;
        while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
        if (j - i >= 2) {
            parts.push_back(std::to_string(values[i]) + " to " + std::to_string(values[j]));
        } else {
            for (std::size_t k = i; k <= j; ++k) parts.push_back(std::to_string(values[k]));
        }
        i = j + 1;
    }
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return text;
}

/// The note rank 0 prints when some of `ranks` ranks run no node (`partitions`: each node's, of a graph
/// whose file puts nodes into partitions when `partitioned`): which ranks, why, what to do; "" when
/// every rank runs nodes.
std::string idleRanksNote(const std::vector<int>& partitions, int ranks, bool partitioned) {
    std::vector<bool> used(static_cast<std::size_t>(ranks), false);
    for (int partition : partitions) used[static_cast<std::size_t>(partition)] = true;
    std::vector<int> idle, usedList;
    for (int rank = 0; rank < ranks; ++rank) (used[static_cast<std::size_t>(rank)] ? usedList : idle).push_back(rank);
    if (idle.empty()) return {};
    std::string note = (idle.size() == 1 ? "rank " : "ranks ") + numberList(idle) + " of the " + std::to_string(ranks) +
                       (idle.size() == 1 ? " started runs no node and only waits" : " started run no node and only wait") + " for the others to end: ";
    if (!partitioned) {
        return note + "the graph puts every node into partition 0 (it has no partitions), so rank 0 runs it whole. Give nodes a 'partition' field (the editor colours "
                      "them) to spread it over ranks, or run it without mpirun (docs/scale-out.md)";
    }
    note += "the graph puts nodes into " + std::string(usedList.size() == 1 ? "partition " : "partitions ") + numberList(usedList) + " only. ";
    const int needed = usedList.back() + 1;
    std::vector<int> gaps;  // ranks that stay idle under mpirun -np needed too
    for (int rank : idle) {
        if (rank < needed) gaps.push_back(rank);
    }
    if (needed < ranks) note += "Start mpirun -np " + std::to_string(needed);
    if (!gaps.empty()) {
        note += std::string(needed < ranks ? ", and put" : "Put") + " nodes into " + (gaps.size() == 1 ? "partition " : "partitions ") + numberList(gaps) +
                " (a node's 'partition' field)";
    }
    return note + " (docs/scale-out.md)";
}

}  // namespace

struct ScaleOut::State {
    bool joined = false;  // MPI_Init was called
    int rank = 0;
    int ranks = 1;
    std::unique_ptr<distributed::MpiChannels> channels;
    std::unique_ptr<distributed::MpiRankEnds> ends;
    std::string end;  // this rank's, as told
    std::optional<distributed::LocalPart> part;
    std::shared_ptr<distributed::MpiTelemetryRelay> relay;
    std::vector<std::pair<std::string, std::string>> rankPaths;  // each file name rankPath() gave, with rank 0's
    int agreementsMade = 0;        // of kAgreements
    bool refusedTogether = false;  // every rank learnt in an agreement that a rank refused to run
};

ScaleOut::ScaleOut(int& argc, char**& argv) : state_(std::make_unique<State>()) {
    // Only a launched process joins: MPI_Init alone would start a singleton runtime for nothing.
    if (std::getenv("OMPI_COMM_WORLD_SIZE") == nullptr && std::getenv("PMI_SIZE") == nullptr) return;
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    state_->joined = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &state_->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &state_->ranks);
}

ScaleOut::~ScaleOut() = default;

int ScaleOut::rank() const { return state_->rank; }
int ScaleOut::ranks() const { return state_->ranks; }

const ValidatedGraph& ScaleOut::localGraph(const GraphSpec& file, const ValidatedGraph& graph, int channelCredits, std::vector<std::string>& notes) {
    if (state_->ranks == 1) {
        if (distributed::isPartitioned(file)) {
            notes.push_back("the graph puts nodes into partitions; in one process it runs whole (mpirun -np N runs partition k on rank k, docs/scale-out.md)");
        }
        return graph;
    }
    const std::vector<int> partitions = distributed::nodePartitions(file, graph);
    std::vector<GraphError> errors = distributed::checkPartitions(graph, partitions, state_->ranks);
    if (!errors.empty()) throw GraphException(std::move(errors));
    if (state_->rank == 0) {
        if (std::string note = idleRanksNote(partitions, state_->ranks, distributed::isPartitioned(file)); !note.empty()) notes.push_back(std::move(note));
    }
    // Before the first collective call that a rank which refused would not make (MPI_Comm_dup).
    readyToGoOn();
    state_->channels = std::make_unique<distributed::MpiChannels>(channelCredits);
    state_->ends = std::make_unique<distributed::MpiRankEnds>();
    distributed::MpiChannels& channels = *state_->channels;
    state_->part = distributed::localPart(
        graph, partitions, state_->rank, [&](const distributed::ChannelSpec& c) { return channels.sender(c); },
        [&](const distributed::ChannelSpec& c) { return channels.receiver(c); });
    return state_->part->graph;
}

std::string ScaleOut::partitionPlan(const GraphSpec& file, const ValidatedGraph& graph) const {
    if (!distributed::isPartitioned(file)) return {};
    const std::vector<int> partitions = distributed::nodePartitions(file, graph);
    const int needed = *std::max_element(partitions.begin(), partitions.end()) + 1;
    const int ranks = state_->ranks > 1 ? state_->ranks : needed;
    std::vector<GraphError> errors = distributed::checkPartitions(graph, partitions, ranks);
    if (!errors.empty()) throw GraphException(std::move(errors));
    std::ostringstream text;
    text << "partitions: " << needed << " (mpirun -np " << ranks << ")\n";
    std::map<int, std::string> nodesOfRank;  // the ranks that run nodes
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        std::string& nodes = nodesOfRank[partitions[i]];
        nodes += (nodes.empty() ? "" : ", ") + graph.nodes[i].id;
    }
    // Ranks without nodes, one line per run of them (a graph may name partition 1000 and no other above 2).
    const auto idle = [&](int first, int last) {
        if (first > last) return;
        if (first == last) text << "  rank " << first << ": nothing (waits for the others at the end)\n";
        else text << "  ranks " << first << " to " << last << ": nothing (each waits for the others at the end)\n";
    };
    int next = 0;
    for (const auto& [rank, nodes] : nodesOfRank) {
        idle(next, rank - 1);
        text << "  rank " << rank << ": " << nodes << "\n";
        next = rank + 1;
    }
    idle(next, ranks - 1);
    for (const distributed::ChannelSpec& channel : distributed::channelsOf(graph, partitions)) {
        text << "  channel " << channel.index << ": " << channel.from << " -> " << channel.toText() << " (rank " << channel.fromPartition << " -> rank "
             << channel.toPartition << ", " << channel.type.toString() << ")\n";
    }
    return text.str();
}

void ScaleOut::relayTelemetry(Engine& engine, bool wanted, double hz) {
    if (state_->ranks == 1) return;
    const auto [relayed, rankZeroHz] = agreeOnTelemetry(wanted, hz);
    if (!relayed) return;
    std::vector<std::string> nodeIds;
    for (const NodeContext* node : engine.nodes()) nodeIds.push_back(node->id);
    state_->relay = std::make_shared<distributed::MpiTelemetryRelay>(std::move(nodeIds));
    engine.relayTelemetry(state_->relay, rankZeroHz);
}

void ScaleOut::prepareChannels(Engine& engine) {
    if (!state_->channels) return;
    state_->channels->attachEngine(engine);
    distributed::markChannelReceivers(*state_->part, engine);
    // The receivers say false: the engine answers for this rank's own sources, and learns the others'.
    const int ownFollow = engine.anySourceFollowsWallClock() ? 1 : 0;
    std::vector<int> follow(static_cast<std::size_t>(state_->ranks));
    MPI_Allgather(&ownFollow, 1, MPI_INT, follow.data(), 1, MPI_INT, MPI_COMM_WORLD);
    bool elsewhere = false;
    for (int rank = 0; rank < state_->ranks; ++rank) elsewhere = elsewhere || (rank != state_->rank && follow[static_cast<std::size_t>(rank)] != 0);
    engine.setSourcesElsewhereFollowWallClock(elsewhere);
}

void ScaleOut::readyToGoOn() {
    if (state_->ranks == 1) return;
    ++state_->agreementsMade;
    if (agree("", "", state_->rank)) return;
    state_->refusedTogether = true;
    throw RunRefusedOnRanks();
}

int ScaleOut::refuse(const std::string& refusal) {
    if (state_->ranks == 1 || state_->agreementsMade == kAgreements) {
        std::cerr << refusal << std::flush;
        return 1;
    }
    // The ready ranks are in (or on their way to) the next agreement: this rank's refusal makes it
    // fail, and no rank makes another.
    state_->agreementsMade = kAgreements;
    // "--telemetry t.rank1.jsonl: the folder ... does not exist" is rank 0's refusal in rank 1's words.
    std::string sharedWords = refusal;
    for (const auto& [own, rankZero] : state_->rankPaths) {
        for (std::size_t at = sharedWords.find(own); at != std::string::npos; at = sharedWords.find(own, at + rankZero.size())) {
            sharedWords.replace(at, own.size(), rankZero);
        }
    }
    agree(refusal, sharedWords, state_->rank);
    state_->refusedTogether = true;
    return 1;
}

void ScaleOut::stop() {
    if (state_->channels) state_->channels->stop();
    if (state_->relay) state_->relay->stop();
}

nlohmann::ordered_json ScaleOut::endRun(const std::string& end, const std::function<bool()>& stopSignalCame) {
    if (!state_->ends) return nullptr;
    // A sender on another rank may still be sending to a receiver that its failed nodes cut off:
    // that rank runs to its end only once this one took what it sent.
    if (state_->channels) state_->channels->drainCutOffReceivers(stopSignalCame);
    state_->end = end;
    state_->ends->tell(end);
    // A finished rank waits for the others as MPI_Finalize would; one that stopped knows that the
    // others are ending too (or are gone).
    const TimeNs deadlineNs = end.starts_with("finished") ? std::numeric_limits<TimeNs>::max() : wallClockNs() + kAfterStopNs;
    state_->ends->awaitEnds(deadlineNs, stopSignalCame, kAfterStopNs);
    nlohmann::ordered_json ends = nlohmann::ordered_json::array();
    for (const std::string& rankEnd : state_->ends->ends()) ends.push_back(rankEnd);
    return ends;
}

void ScaleOut::reportWritten() {
    if (state_->ends) state_->ends->tellReportWritten();
}

std::string ScaleOut::channelsText() const {
    std::string text = state_->channels ? state_->channels->figuresText() : std::string();
    if (state_->relay) text += state_->relay->figuresText();
    return text;
}

nlohmann::ordered_json ScaleOut::channelsJson() const { return state_->channels ? state_->channels->figuresJson() : nlohmann::ordered_json(); }

int ScaleOut::channelEnds() const { return state_->part ? static_cast<int>(state_->part->endpointDescriptors.size()) : 0; }

std::string ScaleOut::rankPath(const std::string& path) const {
    if (state_->ranks == 1) return path;
    const std::filesystem::path p(path);
    const auto ofRank = [&](int rank) { return (p.parent_path() / (p.stem().string() + ".rank" + std::to_string(rank) + p.extension().string())).string(); };
    state_->rankPaths.emplace_back(ofRank(state_->rank), ofRank(0));
    return state_->rankPaths.back().first;
}

int ScaleOut::finish(int status) {
    if (!state_->joined) return status;
    // After an agreed refusal no rank waits on another (nothing ran): every rank finalizes, and the
    // job ends without Open MPI's MPI_ABORT banner.
    if (!state_->refusedTogether) {
        // No rank leaves before every rank that told its end has written its report: mpirun ends the
        // whole job at once when one rank exits with a status other than 0 (after a rank was killed,
        // a survivor that left first took another down before its report in 1 of 3 suite runs).
        if (state_->ends) state_->ends->awaitReports(wallClockNs() + (status >= 128 ? kAfterStopNs : kAfterReportsNs));
        // Stopped by a signal that a rank did not live through: mpirun is ending every rank, and
        // finalizing would wait for the ranks that are gone.
        if (status >= 128 && !(state_->ends && state_->ends->allEndedWell())) return status;
        // A rank that did not tell its end (it left through an error) may be waited on: end them all.
        if (status != 0 && status < 128 && !(state_->ends && state_->ends->allEndedWell())) MPI_Abort(MPI_COMM_WORLD, status);
    }
    state_->part.reset();
    state_->channels.reset();
    state_->ends.reset();
    state_->relay.reset();
    MPI_Finalize();
    state_->joined = false;
    return status;
}

}  // namespace isochron::run
