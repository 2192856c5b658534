#include "distributed/mpi_rank_ends.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "engine/time/wall_clock.h"

namespace isochron::distributed {

namespace {

constexpr int kEndTag = 1;
constexpr int kReportTag = 2;
// An end longer than this (a node's long failure message) is cut: it names the node before.
constexpr int kMaxEndBytes = 2048;

}  // namespace

/// The open receives (one end and one report notice from each other rank) and sends.
struct MpiRankEnds::Requests {
    MPI_Comm comm = MPI_COMM_NULL;
    std::vector<MPI_Request> endReceives, reportReceives;
    std::vector<std::vector<char>> endBuffers;
    std::vector<MPI_Request> sends;
    std::string endSent;  // the bytes of this rank's end, alive until its sends complete
};

MpiRankEnds::MpiRankEnds() : requests_(std::make_unique<Requests>()) {
    Requests& r = *requests_;
    MPI_Comm_dup(MPI_COMM_WORLD, &r.comm);
    MPI_Comm_rank(r.comm, &rank_);
    MPI_Comm_size(r.comm, &ranks_);
    const auto count = static_cast<std::size_t>(ranks_);
    told_.assign(count, "");
    reportWritten_.assign(count, false);
    r.endReceives.assign(count, MPI_REQUEST_NULL);
    r.reportReceives.assign(count, MPI_REQUEST_NULL);
    r.endBuffers.assign(count, std::vector<char>(kMaxEndBytes));
    for (int other = 0; other < ranks_; ++other) {
        if (other == rank_) continue;
        const auto k = static_cast<std::size_t>(other);
        MPI_Irecv(r.endBuffers[k].data(), kMaxEndBytes, MPI_CHAR, other, kEndTag, r.comm, &r.endReceives[k]);
        MPI_Irecv(nullptr, 0, MPI_CHAR, other, kReportTag, r.comm, &r.reportReceives[k]);
    }
}

MpiRankEnds::~MpiRankEnds() {
    Requests& r = *requests_;
    // Receives from ranks that never told (lost) are still open: cancel them; sends to ranks that
    // are gone never complete: let MPI drop them.
    for (auto* list : {&r.endReceives, &r.reportReceives}) {
        for (MPI_Request& request : *list) {
            if (request == MPI_REQUEST_NULL) continue;
            MPI_Cancel(&request);
            MPI_Request_free(&request);
        }
    }
    for (MPI_Request& request : r.sends) {
        if (request != MPI_REQUEST_NULL) MPI_Request_free(&request);
    }
    if (r.comm != MPI_COMM_NULL) MPI_Comm_free(&r.comm);
}

void MpiRankEnds::tell(const std::string& end) {
    if (!ownEnd_.empty()) return;
    ownEnd_ = end;
    told_[static_cast<std::size_t>(rank_)] = end;
    Requests& r = *requests_;
    r.endSent = end.substr(0, kMaxEndBytes);
    for (int other = 0; other < ranks_; ++other) {
        if (other == rank_) continue;
        r.sends.emplace_back(MPI_REQUEST_NULL);
        MPI_Isend(r.endSent.data(), static_cast<int>(r.endSent.size()), MPI_CHAR, other, kEndTag, r.comm, &r.sends.back());
    }
}

void MpiRankEnds::takeArrivals() {
    Requests& r = *requests_;
    for (int other = 0; other < ranks_; ++other) {
        const auto k = static_cast<std::size_t>(other);
        if (r.endReceives[k] != MPI_REQUEST_NULL) {
            int arrived = 0;
            MPI_Status status;
            MPI_Test(&r.endReceives[k], &arrived, &status);
            if (arrived) {
                int size = 0;
                MPI_Get_count(&status, MPI_CHAR, &size);
                told_[k].assign(r.endBuffers[k].data(), static_cast<std::size_t>(size));
            }
        }
        if (r.reportReceives[k] != MPI_REQUEST_NULL) {
            int arrived = 0;
            MPI_Test(&r.reportReceives[k], &arrived, MPI_STATUS_IGNORE);
            if (arrived) reportWritten_[k] = true;
        }
    }
}

bool MpiRankEnds::awaitEnds(TimeNs deadlineNs, const std::function<bool()>& hurry, TimeNs hurryNs) {
    TimeNs hurryDeadlineNs = 0;
    for (;;) {
        takeArrivals();
        if (std::none_of(told_.begin(), told_.end(), [](const std::string& end) { return end.empty(); })) return true;
        const TimeNs now = wallClockNs();
        if (hurryDeadlineNs == 0 && hurry()) hurryDeadlineNs = now + hurryNs;
        if (now > deadlineNs || (hurryDeadlineNs != 0 && now > hurryDeadlineNs)) return false;
        // The others' words come within milliseconds of their run's end: look again soon, without
        // taking a core from the ranks still running beside this one.
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

void MpiRankEnds::tellReportWritten() {
    if (reportToldWritten_) return;
    reportToldWritten_ = true;
    reportWritten_[static_cast<std::size_t>(rank_)] = true;
    Requests& r = *requests_;
    for (int other = 0; other < ranks_; ++other) {
        if (other == rank_) continue;
        r.sends.emplace_back(MPI_REQUEST_NULL);
        MPI_Isend(nullptr, 0, MPI_CHAR, other, kReportTag, r.comm, &r.sends.back());
    }
}

bool MpiRankEnds::awaitReports(TimeNs deadlineNs) {
    for (;;) {
        takeArrivals();
        bool all = true;
        for (int other = 0; other < ranks_; ++other) {
            const auto k = static_cast<std::size_t>(other);
            if (!told_[k].empty() && !reportWritten_[k]) all = false;
        }
        if (all) return true;
        if (wallClockNs() > deadlineNs) return false;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

std::vector<std::string> MpiRankEnds::ends() const {
    std::vector<std::string> ends = told_;
    for (int other = 0; other < ranks_; ++other) {
        std::string& end = ends[static_cast<std::size_t>(other)];
        if (end.empty()) end = "lost: rank " + std::to_string(other) + " ended without a word";
    }
    return ends;
}

bool MpiRankEnds::allEndedWell() const {
    return std::none_of(told_.begin(), told_.end(), [](const std::string& end) { return end.empty(); });
}

}  // namespace isochron::distributed
