// Telemetry across ranks over MPI (docs/scale-out.md, docs/telemetry-format.md): every rank but 0
// sends each snapshot its engine takes to rank 0; rank 0 merges the latest of each rank into its
// own, so its readers see every node of the graph with its rank, plus each rank's totals (their rates
// over a window of the rank's snapshots: rank_rates.h).
//
// The snapshots travel on a communicator of their own (a duplicate of MPI_COMM_WORLD), so they never
// meet the channels' messages, and nothing waits for them: a rank whose previous snapshot rank 0 has
// not taken yet skips the next one (counted), and rank 0 takes what has arrived each time it
// publishes. Only at the end does it matter that every rank's last snapshot arrives: rank 0 keeps
// publishing, once a period, until each rank has sent the snapshot of its end. Like the channels,
// the relay calls MPI only on the engine thread, which under isochron-run is the thread that called
// MPI_Init (MPI_THREAD_FUNNELED).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "distributed/rank_rates.h"
#include "engine/telemetry/telemetry_relay.h"

namespace isochron::distributed {

/// One rank's part in telemetry across ranks. Every rank creates one (MPI_Comm_dup is collective)
/// after MPI_Init and destroys it before MPI_Finalize. [exchange(): engine thread; stop(): any thread]
class MpiTelemetryRelay final : public TelemetryRelay {
public:
    /// `nodeIds` names this rank's nodes in its engine's order.
    explicit MpiTelemetryRelay(std::vector<std::string> nodeIds);
    ~MpiTelemetryRelay() override;
    MpiTelemetryRelay(const MpiTelemetryRelay&) = delete;
    MpiTelemetryRelay& operator=(const MpiTelemetryRelay&) = delete;

    bool exchange(TelemetrySnapshot& snapshot, bool final) override;
    /// Stop waiting for other ranks' last snapshots (the run is stopping). [any thread]
    void stop() { stopped_.store(true); }
    /// One line for the run's summary: snapshots sent and skipped (ranks but 0) or received (rank 0). [after the run]
    std::string figuresText() const;

private:
    /// Ranks but 0: send `snapshot` unless the previous send is still open; whether the last one was taken once `final`.
    bool send(const TelemetrySnapshot& snapshot, bool final);
    /// Rank 0: take every snapshot that has arrived.
    void receive();
    /// Rank 0: the other ranks' latest nodes, outputs and totals after this rank's; whether every rank has ended.
    bool merge(TelemetrySnapshot& snapshot);

    struct Communicator;
    std::unique_ptr<Communicator> communicator_;
    int rank_ = 0, ranks_ = 1;
    std::vector<std::string> nodeIds_;
    std::vector<std::byte> outgoing_, incoming_;
    bool finalSent_ = false;
    std::uint64_t sent_ = 0, skipped_ = 0, received_ = 0;
    std::vector<TelemetrySnapshot> latest_;  // rank 0: each rank's latest snapshot (sequence 0: none yet)
    RankRates rates_;                        // rank 0: each rank's rates over a window of its snapshots
    std::atomic<bool> stopped_{false};
};

}  // namespace isochron::distributed
