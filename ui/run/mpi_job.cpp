#include "ui/run/mpi_job.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QThread>

#include <algorithm>

#include <signal.h>

#include "engine/graph/graph_file.h"
#include "ui/model/subgraph_grouping.h"

namespace isochron::ui {

MpiTools MpiTools::find() {
    MpiTools tools;
    tools.mpirun = QStandardPaths::findExecutable("mpirun");
    if (tools.mpirun.isEmpty()) tools.mpirun = QStandardPaths::findExecutable("mpiexec");
    const QString beside = QDir(QCoreApplication::applicationDirPath()).filePath("isochron-run");
    tools.runner = QFileInfo(beside).isExecutable() ? beside : QStandardPaths::findExecutable("isochron-run");
#if ISOCHRON_HAVE_MPI
    if (tools.mpirun.isEmpty()) {
        tools.missing = QObject::tr("mpirun was not found on PATH: install Open MPI (openmpi-bin) to run graphs with partitions on ranks.");
    } else if (tools.runner.isEmpty()) {
        tools.missing = QObject::tr("isochron-run was not found beside the editor or on PATH: build it (cmake --build --preset release).");
    }
#else
    tools.missing = QObject::tr("This build has no MPI: install libopenmpi-dev and openmpi-bin, then configure and build again (docs/scale-out.md).");
#endif
    return tools;
}

int ranksNeeded(const GraphSpec& spec) {
    int highest = -1;
    for (const NodeSpec& node : spec.nodes) {
        if (node.partition) highest = std::max(highest, *node.partition);
    }
    return highest + 1;
}

MpiJob::MpiJob(const MpiTools& tools, int ranks, QObject* parent) : QObject(parent), tools_(tools), ranks_(ranks) {
    process_.setStandardOutputFile(QProcess::nullDevice());  // the ranks' summaries; the telemetry says more
    connect(&process_, &QProcess::readyReadStandardError, this, [this] {
        const QString text = QString::fromLocal8Bit(process_.readAllStandardError());
        errorOutput_ += text;
        Q_EMIT errorWritten(text);
    });
    connect(&process_, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
        Q_EMIT ended(exitCode, status == QProcess::CrashExit);
    });
    stopFallback_.setSingleShot(true);
    stopFallback_.setInterval(kCleanStopSeconds * 1000);
    connect(&stopFallback_, &QTimer::timeout, this, &MpiJob::terminate);
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart) return;
        errorOutput_ += process_.errorString();
        Q_EMIT ended(-1, true);
    });
}

MpiJob::~MpiJob() {
    if (process_.state() == QProcess::NotRunning) return;
    // The editor closes during a run: ask the ranks to stop; mpirun kills what does not.
    process_.terminate();
    if (!process_.waitForFinished(5000)) process_.kill();
    process_.waitForFinished(1000);
}

QString MpiJob::telemetryPath() const { return folder_.filePath("telemetry.rank0.jsonl"); }

QString MpiJob::commandLine() const { return process_.program() + " " + process_.arguments().join(' '); }

QString MpiJob::start(const GraphSpec& spec, const OperatorRegistry& registry) {
    if (!folder_.isValid()) return tr("Cannot make a folder for the run: %1").arg(folder_.errorString());
    const std::filesystem::path folder = folder_.path().toStdString();
    GraphSpec copy = spec;
    rebasePaths(copy, registry, spec.baseDirectory, folder);
    copy.baseDirectory.clear();
    const QString graphPath = folder_.filePath("graph.isograph.json");
    try {
        saveGraphFile(copy, graphPath.toStdString());
    } catch (const std::exception& e) {
        return tr("Cannot save the graph for mpirun: %1").arg(QString::fromStdString(e.what()));
    }
    QStringList arguments{"-np", QString::number(ranks_)};
    // Open MPI refuses more ranks than cores unless told; other launchers do not know the option.
    const QString launcher = QFileInfo(QFileInfo(tools_.mpirun).canonicalFilePath()).fileName();
    const bool openMpi = launcher == "orterun" || launcher == "prterun" || launcher.endsWith(".openmpi");
    openMpi_ = openMpi;
    if (openMpi && ranks_ > QThread::idealThreadCount()) arguments << "--oversubscribe";
    // On a SIGTERM (Stop's fallback, the editor closing) Open MPI 4 waits odls_base_sigkill_timeout, sends the ranks
    // SIGTERM, waits that long again and kills what is left. Its 1 s default is too short on a loaded
    // machine for a rank to end its run, close its sinks and write its report.
    if (openMpi) arguments << "--mca" << "odls_base_sigkill_timeout" << QString::number(kStopGraceSeconds);
    // rank 0 writes telemetry.rank0.jsonl (each rank FILE.rankK.jsonl)
    arguments << tools_.runner << graphPath << "--telemetry" << folder_.filePath("telemetry.jsonl");
    process_.setWorkingDirectory(folder_.path());
    process_.start(tools_.mpirun, arguments);
    return {};
}

void MpiJob::stop() {
    if (process_.state() == QProcess::NotRunning) return;
    if (stopRequested_ || !openMpi_) {
        stopRequested_ = true;
        terminate();
        return;
    }
    // SIGTERM reaches the ranks only after odls_base_sigkill_timeout and is followed by a kill of the
    // ranks still running; SIGUSR2 reaches them at once, and nothing kills them.
    stopRequested_ = true;
    stopSignals_ = "SIGUSR2";
    ::kill(static_cast<pid_t>(process_.processId()), SIGUSR2);
    stopFallback_.start();
}

void MpiJob::terminate() {
    if (process_.state() == QProcess::NotRunning) return;
    stopSignals_ = stopSignals_.isEmpty() ? QString("SIGTERM") : stopSignals_ + ", then SIGTERM";
    process_.terminate();
}

}  // namespace isochron::ui
