// Reading mpirun's standard error (Open MPI 4's words, as it prints them): its own reports are told
// apart from the ranks' lines, and a Stop's SIGUSR2 that every rank ended on is told apart from a rank
// that was killed, failed or ended otherwise.
#include <catch2/catch.hpp>

#include "ui/run/mpirun_output.h"

using namespace isochron::ui;

namespace {

const QString kReports = QStringLiteral(
    "--------------------------------------------------------------------------\n"
    "Primary job  terminated normally, but 1 process returned\n"
    "a non-zero exit code. Per user-direction, the job has been aborted.\n"
    "--------------------------------------------------------------------------\n"
    "--------------------------------------------------------------------------\n"
    "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
    "the job to be terminated. The first process to do so was:\n"
    "\n"
    "  Process name: [[21744,1],1]\n"
    "  Exit code:    %1\n"
    "--------------------------------------------------------------------------\n");

const QString kRanksStopped = QStringLiteral(
    "mpirun: Forwarding signal 12 to job\n"
    "[rank 2] warning: node 'recording': the recording was cut short (the run stopped or the sink failed), so it did not replace 'out.wav': it is "
    "kept as 'out.wav.14356.partial'\n"
    "[rank 2] isochron-run: stopped by signal 12 (SIGUSR2, passed to every rank by mpirun)\n"
    "[rank 0] isochron-run: stopped by signal 12 (SIGUSR2, passed to every rank by mpirun)\n"
    "[rank 1] isochron-run: stopped by signal 12 (SIGUSR2, passed to every rank by mpirun)\n");

}  // namespace

TEST_CASE("Open MPI's own reports are told apart from the ranks' lines", "[ui][mpi]") {
    const QStringList lines = withoutLauncherReports(kRanksStopped + kReports.arg(140));
    REQUIRE(lines.size() == 4);
    CHECK(lines[0].startsWith("[rank 2] warning: node 'recording'"));
    for (const QString& line : lines) {
        INFO(line.toStdString());
        CHECK(line.startsWith("[rank "));
    }
    CHECK(isRankStoppedBySigusr2(lines[1]));
    CHECK_FALSE(isRankStoppedBySigusr2(lines[0]));
    CHECK_FALSE(isRankStoppedBySigusr2("[rank 0] isochron-run: stopped by signal 15 (mpirun ends every rank when one of them dies or is interrupted; "
                                       "its message names that rank)"));
}

TEST_CASE("a Stop every rank ended on with exit 140 is clean; a killed, failed or otherwise ended rank is not", "[ui][mpi]") {
    CHECK(endedByCleanStop(kRanksStopped + kReports.arg(140), 140));
    CHECK(endedByCleanStop("", 0));  // every rank had finished
    CHECK_FALSE(endedByCleanStop(kRanksStopped + kReports.arg(140), 143));  // mpirun itself ended by SIGTERM
    CHECK_FALSE(endedByCleanStop(kRanksStopped + kReports.arg(2), 140));    // the first rank to end failed
    const QString killed = QStringLiteral(
        "--------------------------------------------------------------------------\n"
        "mpirun noticed that process rank 1 with PID 0 on node host exited on signal 9 (Killed).\n"
        "--------------------------------------------------------------------------\n");
    CHECK_FALSE(endedByCleanStop(kRanksStopped + killed, 140));
    CHECK(killedRanks(killed) == std::map<int, QString>{{1, "killed (signal 9)"}});
    CHECK_FALSE(endedByCleanStop(kRanksStopped + "[rank 1] isochron-run: error: node 'onsets': failed\n" + kReports.arg(140), 140));
    // A node failing on a rank no longer stops the others: the rank names it when it fails and in its summary.
    CHECK_FALSE(endedByCleanStop(kRanksStopped + "[rank 1] error: node 'onsets': failed\n" + kReports.arg(140), 140));
    CHECK(endedByCleanStop(kRanksStopped + "[rank 1] warning: node 'onsets': an error was recovered\n" + kReports.arg(140), 140));
    // A rank whose engine had not returned 3 s after SIGUSR2 leaves with exit 140 but without its report.
    CHECK_FALSE(endedByCleanStop("[rank 1] isochron-run: stopped by signal 12 while waiting on another rank (SIGUSR2, passed to every rank by "
                                 "mpirun)\n[rank 0] isochron-run: stopped by signal 12 (SIGUSR2, passed to every rank by mpirun)\n" +
                                     kReports.arg(140),
                                 140));
}
