// An mpirun job the editor starts for a graph with partitions (docs/scale-out.md): the graph as it is
// now, saved to a folder of its own, run by `mpirun -np N isochron-run GRAPH --telemetry FILE`, where
// rank k runs partition k and rank 0 writes every rank's telemetry to FILE.rank0.jsonl, which the
// editor follows. mpirun's standard error is kept for the run's message.
#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <QTimer>

#include <memory>

#include "engine/graph/graph_spec.h"

namespace isochron {
class OperatorRegistry;
}

namespace isochron::ui {

/// What running on MPI ranks needs from this machine. [ui thread]
struct MpiTools {
    QString mpirun;  ///< mpirun or mpiexec on PATH ("" if none)
    QString runner;  ///< isochron-run beside the editor, else on PATH ("" if none)
    /// Why a graph cannot run on ranks from the editor ("" when it can): a build without MPI, no
    /// mpirun, no isochron-run.
    QString missing;
    /// Find them.
    static MpiTools find();
};

/// The number of ranks `spec` needs (its highest partition + 1), 0 when no node names a partition.
int ranksNeeded(const GraphSpec& spec);

/// One mpirun job and its folder (removed with the job). [ui thread]
class MpiJob : public QObject {
    Q_OBJECT
public:
    /// Open MPI's odls_base_sigkill_timeout for the job: mpirun waits this long before passing a
    /// SIGTERM to the ranks and as long again before killing them, so a SIGTERM stop takes about twice this.
    static constexpr int kStopGraceSeconds = 3;
    /// How long Stop's SIGUSR2 may take to end the job before Stop sends SIGTERM (it takes well under 1 s).
    static constexpr int kCleanStopSeconds = 10;

    MpiJob(const MpiTools& tools, int ranks, QObject* parent = nullptr);
    ~MpiJob() override;

    /// Save `spec` (relative paths rebased to keep naming the same files) and start mpirun on it.
    /// Returns why it could not start, or "".
    QString start(const GraphSpec& spec, const OperatorRegistry& registry);
    /// Ask every rank to stop. With Open MPI: SIGUSR2 to mpirun, which passes it to every rank at
    /// once (each ends its run as on Ctrl-C and writes its last snapshot), then SIGTERM if the job
    /// has not ended after kCleanStopSeconds or when Stop is asked again. Other launchers: SIGTERM.
    void stop();
    /// The signals Stop sent to mpirun, for the run's notice ("SIGUSR2", "SIGUSR2, then SIGTERM").
    const QString& stopSignals() const { return stopSignals_; }
    /// The file rank 0 writes every rank's snapshots to.
    QString telemetryPath() const;
    /// The command line, for the log.
    QString commandLine() const;
    /// mpirun's standard error so far (its own messages and the ranks').
    const QString& errorOutput() const { return errorOutput_; }
    bool stopRequested() const { return stopRequested_; }

Q_SIGNALS:
    /// mpirun wrote to standard error (`text` is what it wrote).
    void errorWritten(const QString& text);
    /// mpirun ended: its exit code, or `crashed` when a signal ended it.
    void ended(int exitCode, bool crashed);

private:
    MpiTools tools_;
    int ranks_;
    QTemporaryDir folder_;
    QProcess process_;
    QString errorOutput_;
    bool stopRequested_ = false;
    bool openMpi_ = false;  // mpirun is Open MPI's, which forwards SIGUSR2 to the ranks
    QTimer stopFallback_;   // SIGTERM when the SIGUSR2 stop has not ended the job
    QString stopSignals_;
    /// Send SIGTERM to mpirun (what it passes on after odls_base_sigkill_timeout).
    void terminate();
};

}  // namespace isochron::ui
