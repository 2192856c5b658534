// How each rank's run ended, told to every other rank over MPI (docs/scale-out.md, "How each rank
// ended"). Without it, what survived a run could not tell a rank that finished, a rank that was
// killed and a rank that was stopped apart, and a rank that left first could end the job before the
// other ranks had written their reports.
//
// Every rank tells the others its end once ("finished", "finished with a failed node: node 'x': ...",
// "stopped: signal 12 (SIGUSR2)"), waits for theirs, writes its report and then tells them that its
// report is written. A node that fails on a rank ends no other rank (it is disabled, as in a graph
// run whole). A rank that never tells its end (it was killed, or crashed) is "lost: rank k ended
// without a word".
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

    /// Tell every other rank how this rank's run ended (once; later calls change nothing). [no blocking]
    void tell(const std::string& end);
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
    /// Whether every other rank told its end (then MPI_Finalize cannot wait for ever).
    bool allEndedWell() const;

private:
    /// Take in the ends and report words that have arrived. [no blocking]
    void takeArrivals();

    struct Requests;
    std::unique_ptr<Requests> requests_;
    int rank_ = 0, ranks_ = 1;
    std::string ownEnd_;
    std::vector<std::string> told_;          // by rank: the end it told ("" while none)
    std::vector<bool> reportWritten_;        // by rank: it said its report is written
    bool reportToldWritten_ = false;
};

}  // namespace isochron::distributed
