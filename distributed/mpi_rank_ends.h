// How each rank's run ended, told to every other rank over MPI (docs/scale-out.md, "How each rank
// ended"). Without it, what survived a run could not tell a rank that failed, a rank that was killed
// and a rank that was stopped apart, and a failing rank's MPI_Abort often came before the other
// ranks had written their reports.
//
// Every rank tells the others its end once ("finished", "stopped: signal 12 (SIGUSR2)", "stopped:
// rank 2 failed", "failed: node 'x': ..."), waits for theirs, writes its report and then tells them
// that its report is written. A rank that failed waits, for a bounded time, until every other rank's
// report is written before it ends them all through MPI_Abort; the others hear of its failure at
// their channels' next call (MpiChannels::stopping()) and stop. A rank that never tells its end (it
// was killed, or crashed) is "lost: rank k ended without a word".
//
// The words travel on a communicator of their own (a duplicate of MPI_COMM_WORLD). Every MPI call is
// made on the thread that called MPI_Init (MPI_THREAD_FUNNELED).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/time/timebase.h"

namespace isochron::distributed {

/// The ends of every rank's run, as this rank learns them. Create after MPI_Init on every rank
/// (MPI_Comm_dup is collective) and destroy before MPI_Finalize. [the MPI thread]
class MpiRankEnds {
public:
    MpiRankEnds();
    ~MpiRankEnds();
    MpiRankEnds(const MpiRankEnds&) = delete;
    MpiRankEnds& operator=(const MpiRankEnds&) = delete;

    /// Tell every other rank how this rank's run ended (once; later calls change nothing). An end
    /// starting with "failed: " makes the others stop. [no blocking]
    void tell(const std::string& end);
    /// Take in what has arrived; the lowest rank that told of its failure, or -1. [no blocking]
    int failedRank();
    /// Wait until every other rank has told its end, at most until `deadlineNs` (wall clock), and
    /// when `hurry` says so at most `hurryNs` from then on. Whether every rank told its end.
    bool awaitEnds(TimeNs deadlineNs, const std::function<bool()>& hurry, TimeNs hurryNs);
    /// Tell every other rank that this rank's report is written. [no blocking]
    void tellReportWritten();
    /// Wait until every other rank still to be heard from has written its report (ranks that
    /// ended without a word are not waited for), at most until `deadlineNs`; whether they all did.
    bool awaitReports(TimeNs deadlineNs);
    /// Each rank's end, by rank: this rank's as told, the others' as they told it, "lost: rank k
    /// ended without a word" for a rank that did not.
    std::vector<std::string> ends() const;
    /// Whether every other rank told its end and none failed (then MPI_Finalize cannot wait for ever).
    bool allEndedWell() const;

private:
    struct Requests;
    std::unique_ptr<Requests> requests_;
    int rank_ = 0, ranks_ = 1;
    std::string ownEnd_;
    std::vector<std::string> told_;          // by rank: the end it told ("" while none)
    std::vector<bool> reportWritten_;        // by rank: it said its report is written
    bool reportToldWritten_ = false;
};

}  // namespace isochron::distributed
