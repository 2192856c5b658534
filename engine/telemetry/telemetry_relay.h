// Telemetry of a run spread over ranks (docs/scale-out.md): a relay sees every snapshot the engine
// takes, before its readers do, and may add to it what other ranks measured. The MPI relay
// (distributed/telemetry_relay.h) sends each rank's snapshots to rank 0 and merges them there, so
// that rank 0's readers (`--telemetry`, an editor) see every node of the graph, each with its rank.
// The engine stays free of MPI: it only knows this interface.
#pragma once

#include "engine/telemetry/telemetry_snapshot.h"

namespace isochron {

/// Takes part in telemetry across ranks. [engine thread: the collector calls it while publishing]
class TelemetryRelay {
public:
    virtual ~TelemetryRelay() = default;
    /// Pass on `snapshot` (this rank's, just taken) and add to it what the other ranks reported
    /// (their nodes, outputs and RankTelemetry; this rank's nodes get their rank). `final` at the
    /// end of the run. Returns whether the snapshot is complete: false while, at the end, another
    /// rank is still running; the collector then publishes again a period later. Must not wait
    /// for another rank.
    virtual bool exchange(TelemetrySnapshot& snapshot, bool final) = 0;
};

/// The totals of rank `rank` from a snapshot that rank took (its state, sequence and memory are the
/// snapshot's; queues, outputs and latency are summed over its nodes that have that rank). [any thread]
RankTelemetry rankTotals(const TelemetrySnapshot& snapshot, int rank);

}  // namespace isochron
