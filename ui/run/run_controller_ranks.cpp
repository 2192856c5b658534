// RunController's runs in other processes: a graph with partitions run on MPI ranks by mpirun, and a
// telemetry file followed as another process writes it. Both read rank 0's telemetry file (every
// rank's nodes and the per-rank totals, docs/telemetry-format.md) into the same TelemetryStore the
// editor's own engine feeds, at the same 30 Hz poll.
#include <QFileInfo>
#include <QUrl>

#include <algorithm>
#include <map>

#include "ui/run/mpi_job.h"
#include "ui/run/mpirun_output.h"
#include "ui/run/run_controller.h"
#include "ui/run/telemetry_file_follower.h"

namespace isochron::ui {

namespace {

// The last lines of mpirun's error output shown in the run's notices and message.
constexpr int kErrorLinesShown = 20;

QStringList lastLines(const QString& text, int count) {
    QStringList lines = text.split('\n', Qt::SkipEmptyParts);
    if (lines.size() > count) lines = lines.mid(lines.size() - count);
    return lines;
}

}  // namespace

MpiTools& RunController::mpiTools() {
    if (!mpiTools_) mpiTools_ = MpiTools::find();
    return *mpiTools_;
}

int RunController::ranksNeeded() const { return document_ ? isochron::ui::ranksNeeded(document_->spec()) : 0; }

QString RunController::ranksRefusal() {
    if (!document_) return tr("No graph.");
    if (ranksNeeded() == 0) {
        return tr("No node has a partition: give nodes partitions (Alt+0 … Alt+9, or the inspector's Partition box) to spread the graph over ranks.");
    }
    return mpiTools().missing;
}

bool RunController::startOnRanks() {
    if (!document_ || running()) return false;
    followedFile_.clear();
    if (const QString refusal = ranksRefusal(); !refusal.isEmpty()) {
        setState("failed", refusal);
        return false;
    }
    const int ranks = ranksNeeded();
    auto job = std::make_unique<MpiJob>(mpiTools(), ranks);
    if (const QString error = job->start(document_->spec(), document_->registry()); !error.isEmpty()) {
        setState("failed", error);
        return false;
    }
    connect(job.get(), &MpiJob::ended, this, &RunController::mpiJobEnded);
    connect(job.get(), &MpiJob::errorWritten, this, [this] { setNotices(lastLines(mpiJob_->errorOutput(), kErrorLinesShown)); });
    const QString telemetryPath = job->telemetryPath();
    mpiJob_ = std::move(job);
    beginFollowing(telemetryPath, tr("mpirun -np %1").arg(ranks));
    return true;
}

bool RunController::followTelemetry(const QString& pathOrUrl) {
    if (running()) {
        setState(state_, tr("Stop the run first."));
        return false;
    }
    const QString path = pathOrUrl.startsWith("file:") ? QUrl(pathOrUrl).toLocalFile() : pathOrUrl;
    beginFollowing(QFileInfo(path).absoluteFilePath(), QFileInfo(path).fileName());
    pollFollowed();  // a file already written to its end ends here
    return true;
}

void RunController::beginFollowing(const QString& path, const QString& label) {
    std::vector<std::string> sourceIds;
    if (document_) {
        for (const NodeSpec& node : document_->spec().nodes) {
            const OperatorDescriptor* descriptor = document_->registry().find(node.type);
            if (descriptor && descriptor->isSource()) sourceIds.push_back(node.id);
        }
        document_->nodes()->setRunStates({});
        document_->edges()->setLiveTexts({});
    }
    schedulerText_ = label;
    followedFile_ = path;
    followedState_.clear();
    sinceFollowedLine_.start();
    setStaleSeconds(0);
    telemetry_.beginRun(label, {}, {}, sourceIds);
    follower_ = std::make_unique<TelemetryFileFollower>(path);
    elapsed_ = throughput_ = inputItemsPerSecond_ = engineCpu_ = memoryMiB_ = 0;
    busy_.clear();
    inputItemsOnly_ = false;
    dropped_ = 0;
    setNotices({});
    setState(mpiJob_ ? "starting" : "running", tr("Following %1").arg(path));
    pollTimer_.start();
}

void RunController::pollFollowed() {
    const std::vector<TelemetrySnapshot> snapshots = follower_->readNew();
    if (!snapshots.empty()) {
        // The graph's own outputs first (the panel shows the first at the start), then the channel
        // ends a run over ranks adds (each rank's sends to the others).
        std::vector<std::string> outputs = follower_->outputIds();
        std::stable_partition(outputs.begin(), outputs.end(), [this](const std::string& id) { return document_ && document_->spec().findNode(id); });
        telemetry_.addNodes(follower_->nodeIds(), outputs);
        for (const TelemetrySnapshot& snapshot : snapshots) {
            telemetry_.add(snapshot);
            elapsed_ = snapshot.elapsedSeconds;
            memoryMiB_ = static_cast<double>(snapshot.liveBytes) / (1024.0 * 1024.0);
            followedState_ = snapshot.engineState;
        }
        takeBusy(snapshots.back());
        takeInputRates();
        if (state_ == "starting") setState("running", message_);
        sinceFollowedLine_.start();
        Q_EMIT statsChanged();
    }
    if (const QString error = follower_->error(); !error.isEmpty()) {
        if (mpiJob_) mpiJob_->stop();
        endFollowing("failed", error);
    } else if (!mpiJob_ && !followedState_.empty() && followedState_ != "running") {
        // Rank 0 stopped without waiting for the others (docs/telemetry-format.md): they stopped too.
        telemetry_.endRanks(tr("stopped"));
        endFollowing(QString::fromStdString(followedState_), tr("%1 of %2 after %3 s").arg(followedState_ == "finished" ? tr("Finished") : tr("Stopped"))
                                                                .arg(followedFile_).arg(elapsed_, 0, 'f', 2));
    } else if (!mpiJob_) {
        // No job of ours writes this file: say when it stops growing (its writer may have died).
        const int quiet = static_cast<int>(sinceFollowedLine_.elapsed() / 1000);
        setStaleSeconds(quiet >= kStaleSeconds ? quiet : 0);
    }
}

void RunController::setStaleSeconds(int seconds) {
    if (seconds == staleSeconds_) return;
    staleSeconds_ = seconds;
    Q_EMIT staleChanged();
}

void RunController::mpiJobEnded(int exitCode, bool crashed) {
    if (!follower_) return;  // ended by a bad telemetry line: reported already
    pollFollowed();          // the last lines
    if (!follower_) return;
    const int ranks = ranksNeeded();
    // mpirun is gone, and so is every rank: a row still "running" has no final state to show.
    const std::map<int, QString> killed = killedRanks(mpiJob_->errorOutput());
    telemetry_.endRanks(mpiJob_->stopRequested() ? tr("stopped") : tr("lost"), killed);
    if (mpiJob_->stopRequested() && killed.empty() && mpiJob_->stopSignals() == "SIGUSR2" && !crashed &&
        endedByCleanStop(mpiJob_->errorOutput(), exitCode)) {
        // What the user asked for, done: Open MPI's report of "non-zero" exits (140 is the ranks' exit
        // on SIGUSR2) and each rank's "stopped by signal 12" say nothing more than the line that
        // replaces them. What else the ranks said (a recording cut short, kept as ...) stays.
        QStringList lines;
        for (const QString& line : withoutLauncherReports(mpiJob_->errorOutput())) {
            if (!isRankStoppedBySigusr2(line)) lines.append(line);
        }
        if (lines.size() > kErrorLinesShown) lines = lines.mid(lines.size() - kErrorLinesShown);
        if (!lines.isEmpty()) {
            lines.prepend(tr("Stopped as asked: Stop sent SIGUSR2 to mpirun, which passed it to every rank; each ended its run (exit 140). The ranks said:"));
        }
        setNotices(lines, false);
        endFollowing("stopped", tr("Stopped on %1 ranks after %2 s: every rank ended its run at the Stop (SIGUSR2)").arg(ranks).arg(elapsed_, 0, 'f', 2));
    } else if (mpiJob_->stopRequested() && killed.empty()) {
        // The ranks' own lines say "stopped by signal 12" (or 15): the editor's Stop sent it, no rank died.
        QStringList lines = notices_;
        lines.prepend(tr("Stop sent %1 to mpirun, which passed it to every rank (no rank died):").arg(mpiJob_->stopSignals()));
        setNotices(lines);
        endFollowing("stopped", tr("Stopped on %1 ranks after %2 s").arg(ranks).arg(elapsed_, 0, 'f', 2));
    } else if (mpiJob_->stopRequested()) {
        endFollowing("stopped", tr("Stopped on %1 ranks after %2 s").arg(ranks).arg(elapsed_, 0, 'f', 2));
    } else if (crashed || exitCode != 0) {
        const QString why = crashed ? tr("mpirun did not start or was killed") : tr("mpirun ended with exit code %1").arg(exitCode);
        endFollowing("failed", why + ":\n" + lastLines(mpiJob_->errorOutput(), kErrorLinesShown).join('\n'));
    } else if (followedState_ == "finished") {
        endFollowing("finished", tr("Finished on %1 ranks in %2 s").arg(ranks).arg(elapsed_, 0, 'f', 2));
    } else {
        endFollowing("failed", tr("mpirun ended but rank 0's telemetry has no last snapshot (%1)").arg(followedFile_));
    }
}

void RunController::endFollowing(QString state, QString message) {
    pollTimer_.stop();
    setStaleSeconds(0);
    follower_.reset();
    if (mpiJob_) mpiJob_.release()->deleteLater();  // may be in its own signal; its folder goes with it
    if (forgetWhenStopped_) {
        forgetWhenStopped_ = false;
        clearRunView();
        return;
    }
    setState(state, message);
}

}  // namespace isochron::ui
