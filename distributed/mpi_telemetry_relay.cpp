#include "distributed/mpi_telemetry_relay.h"

#include <mpi.h>

#include "distributed/telemetry_wire.h"

namespace isochron::distributed {

struct MpiTelemetryRelay::Communicator {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Request send = MPI_REQUEST_NULL;  // the open send of a rank but 0
};

namespace {

constexpr int kSnapshotTag = 1;

}  // namespace

MpiTelemetryRelay::MpiTelemetryRelay(std::vector<std::string> nodeIds)
    : communicator_(std::make_unique<Communicator>()), nodeIds_(std::move(nodeIds)) {
    MPI_Comm_dup(MPI_COMM_WORLD, &communicator_->comm);
    MPI_Comm_rank(communicator_->comm, &rank_);
    MPI_Comm_size(communicator_->comm, &ranks_);
    if (rank_ == 0) latest_.resize(static_cast<std::size_t>(ranks_));
}

MpiTelemetryRelay::~MpiTelemetryRelay() {
    // A send still open here belongs to a stopped run (a finished one waited for it): drop it.
    if (communicator_->send != MPI_REQUEST_NULL) MPI_Request_free(&communicator_->send);
    if (communicator_->comm != MPI_COMM_NULL) MPI_Comm_free(&communicator_->comm);
}

bool MpiTelemetryRelay::exchange(TelemetrySnapshot& snapshot, bool final) {
    for (NodeTelemetry& node : snapshot.nodes) node.rank = rank_;  // the snapshot holds this rank's nodes only
    if (rank_ != 0) {
        const bool taken = send(snapshot, final);
        snapshot.ranks.assign(1, rankTotals(snapshot, rank_));
        return !final || taken || stopped_.load();
    }
    // A run stopped on rank 0 (Ctrl-C reaches every rank) does not wait for the others' last words.
    const bool stoppedHere = snapshot.engineState == "stopped";
    receive();
    const bool ended = merge(snapshot);
    return !final || ended || stoppedHere || stopped_.load();
}

bool MpiTelemetryRelay::send(const TelemetrySnapshot& snapshot, bool final) {
    MPI_Request& request = communicator_->send;
    if (request != MPI_REQUEST_NULL) {
        int done = 0;
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (!done) {
            if (!final) ++skipped_;
            return false;
        }
    }
    if (finalSent_) return true;  // and rank 0 took it
    encodeTelemetry(snapshot, nodeIds_, outgoing_);
    MPI_Isend(outgoing_.data(), static_cast<int>(outgoing_.size()), MPI_BYTE, 0, kSnapshotTag, communicator_->comm, &request);
    ++sent_;
    finalSent_ = final;
    return false;
}

void MpiTelemetryRelay::receive() {
    for (;;) {
        int present = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, kSnapshotTag, communicator_->comm, &present, &status);
        if (!present) return;
        int size = 0;
        MPI_Get_count(&status, MPI_BYTE, &size);
        incoming_.resize(static_cast<std::size_t>(size));
        MPI_Recv(incoming_.data(), size, MPI_BYTE, status.MPI_SOURCE, kSnapshotTag, communicator_->comm, MPI_STATUS_IGNORE);
        decodeTelemetry(incoming_, latest_[static_cast<std::size_t>(status.MPI_SOURCE)]);
        ++received_;
    }
}

std::string MpiTelemetryRelay::figuresText() const {
    if (rank_ == 0) return "telemetry: merged " + std::to_string(received_) + " snapshots of the other ranks\n";
    return "telemetry: sent " + std::to_string(sent_) + " snapshots to rank 0, skipped " + std::to_string(skipped_) +
           " (rank 0 had not yet taken the one before)\n";
}

bool MpiTelemetryRelay::merge(TelemetrySnapshot& snapshot) {
    snapshot.ranks.resize(static_cast<std::size_t>(ranks_));
    snapshot.ranks[0] = rankTotals(snapshot, 0);
    rates_.smooth(snapshot.ranks[0]);
    bool ended = true;
    for (int rank = 1; rank < ranks_; ++rank) {
        const TelemetrySnapshot& other = latest_[static_cast<std::size_t>(rank)];
        RankTelemetry& totals = snapshot.ranks[static_cast<std::size_t>(rank)];
        if (other.sequence == 0) {
            totals = RankTelemetry{};
            totals.rank = rank;
            ended = false;
            continue;
        }
        totals = rankTotals(other, rank);
        rates_.smooth(totals);
        if (other.engineState == "running") ended = false;
        const int offset = static_cast<int>(snapshot.nodes.size());
        snapshot.nodes.insert(snapshot.nodes.end(), other.nodes.begin(), other.nodes.end());
        for (OutputTelemetry output : other.outputs) {
            output.node += offset;
            snapshot.outputs.push_back(output);
        }
    }
    // The run as a whole goes on while any rank does.
    if (!ended && snapshot.engineState == "finished") snapshot.engineState = "running";
    return ended;
}

}  // namespace isochron::distributed
