// Reading mpirun's standard error for the run's notices: Open MPI's own reports (boxes between rules
// of dashes, "mpirun: Forwarding signal 12 to job") apart from the ranks' lines ("[rank 2] ..."), the
// ranks it says were killed, and whether a Stop ended every rank the clean way (SIGUSR2, exit 140).
#pragma once

#include <QString>
#include <QStringList>

#include <map>

namespace isochron::ui {

/// The ranks the output says were killed ("mpirun noticed that process rank 2 with PID 9 on node n
/// exited on signal 9 (Killed)."), each with the state its row shows ("killed (signal 9)"). [any thread]
std::map<int, QString> killedRanks(const QString& errorOutput);

/// The output's lines without Open MPI's own reports: its boxes between rules of dashes and its
/// "mpirun: Forwarding signal N to job" lines; empty lines dropped. [any thread]
QStringList withoutLauncherReports(const QString& errorOutput);

/// Whether a job that Stop asked to end with SIGUSR2 alone ended as that stop: mpirun exited 0 or
/// 128 + SIGUSR2, every exit code Open MPI reports is 128 + SIGUSR2 (the ranks' exit on that signal),
/// no rank was killed, no rank reported an error and none left without its report (given up
/// waiting on another rank). [any thread]
bool endedByCleanStop(const QString& errorOutput, int mpirunExitCode);

/// A rank's line saying the stop signal reached it ("[rank 0] isochron-run: stopped by signal 12 (SIGUSR2, ...").
bool isRankStoppedBySigusr2(const QString& line);

}  // namespace isochron::ui
