#include "ui/run/mpirun_output.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <signal.h>

namespace isochron::ui {

namespace {

// Open MPI frames each of its reports with a rule of dashes.
bool isRule(const QString& line) {
    static const QRegularExpression rule(QStringLiteral("^-{20,}$"));
    return rule.match(line.trimmed()).hasMatch();
}

constexpr int kCleanStopExitCode = 128 + SIGUSR2;

}  // namespace

std::map<int, QString> killedRanks(const QString& errorOutput) {
    static const QRegularExpression killed(QStringLiteral(R"(process rank (\d+) with PID \d+ on node \S+ exited on signal (\d+))"));
    std::map<int, QString> ranks;
    for (auto match = killed.globalMatch(errorOutput); match.hasNext();) {
        const QRegularExpressionMatch m = match.next();
        ranks[m.captured(1).toInt()] = QCoreApplication::translate("isochron::ui::RunController", "killed (signal %1)").arg(m.captured(2));
    }
    return ranks;
}

QStringList withoutLauncherReports(const QString& errorOutput) {
    static const QRegularExpression forwarding(QStringLiteral(R"(^mpirun: Forwarding signal \d+ to job$)"));
    QStringList kept;
    bool inBox = false;
    for (const QString& line : errorOutput.split('\n')) {
        if (isRule(line)) {
            inBox = !inBox;
            continue;
        }
        if (inBox || line.trimmed().isEmpty() || forwarding.match(line.trimmed()).hasMatch()) continue;
        kept.append(line);
    }
    return kept;
}

bool endedByCleanStop(const QString& errorOutput, int mpirunExitCode) {
    if (mpirunExitCode != 0 && mpirunExitCode != kCleanStopExitCode) return false;
    if (!killedRanks(errorOutput).empty()) return false;
    static const QRegularExpression exitCode(QStringLiteral(R"(^\s*Exit code:\s*(\d+)\s*$)"), QRegularExpression::MultilineOption);
    for (auto match = exitCode.globalMatch(errorOutput); match.hasNext();) {
        if (match.next().captured(1).toInt() != kCleanStopExitCode) return false;
    }
    // A rank's failed node ("isochron-run: error: node ..." when it fails, "error: node ..." in its
    // summary), and a rank that gave up waiting on another and left without its report.
    static const QRegularExpression rankError(
        QStringLiteral(R"(^\[rank \d+\] (isochron-run: )?(error: |stopped by signal \d+ while waiting on another rank))"));
    for (const QString& line : withoutLauncherReports(errorOutput)) {
        if (rankError.match(line).hasMatch()) return false;
    }
    return true;
}

bool isRankStoppedBySigusr2(const QString& line) {
    static const QRegularExpression stopped(QStringLiteral(R"(^\[rank \d+\] isochron-run: stopped by signal )") + QString::number(SIGUSR2) +
                                            QStringLiteral(R"( \(SIGUSR2)"));
    return stopped.match(line).hasMatch();
}

}  // namespace isochron::ui
