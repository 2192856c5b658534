// Runs the edited graph: validates it, builds the engine on its own thread, pulls telemetry
// snapshots at 30 Hz through the engine's wait-free channel, applies live parameter edits, and
// restarts under another scheduler (replaying the same input from the start) on request. Nodes the
// engine disabled (an operator threw) show as failed, and their faults go to the problems panel.
// The ui thread never waits for the engine: starting, stopping and results travel as queued calls.
// A graph with partitions can also run on MPI ranks (mpirun, another process per rank), and a run
// started in a terminal can be followed: both feed the same telemetry from rank 0's telemetry file
// (run_controller_ranks.cpp).
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "engine/graph/graph_spec.h"
#include "ui/localization/localization_feed.h"
#include "ui/model/graph_document.h"
#include "ui/run/mpi_job.h"
#include "ui/run/live_recording.h"
#include "ui/run/probe_tap.h"
#include "ui/run/telemetry_store.h"

namespace isochron {
class PluginHost;
struct ValidatedGraph;
}

namespace isochron::ui {

struct EngineJob;
class TelemetryFileFollower;

/// Run / stop / restart of one document's graph, and what the run measures. [ui thread]
class RunController : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(isochron::ui::GraphDocument* document READ document WRITE setDocument NOTIFY documentChanged)
    /// "idle", "starting", "running", "stopping", "finished", "stopped" or "failed".
    Q_PROPERTY(QString state READ state NOTIFY stateChanged)
    Q_PROPERTY(bool running READ running NOTIFY stateChanged)
    /// The scheduler of the current (or last) run, as "name:key=value,...".
    Q_PROPERTY(QString schedulerText READ schedulerText NOTIFY stateChanged)
    /// Why the last run could not start or failed, or how it ended.
    Q_PROPERTY(QString message READ message NOTIFY stateChanged)
    Q_PROPERTY(double elapsed READ elapsed NOTIFY statsChanged)
    /// Samples per second the sources send (the rate the graph reads its input).
    Q_PROPERTY(double throughput READ throughput NOTIFY statsChanged)
    /// Items per second the sources send: the input rate of sources of events or tuples, which send no samples.
    Q_PROPERTY(double inputItemsPerSecond READ inputItemsPerSecond NOTIFY statsChanged)
    /// The sources have sent items and no samples in this run (events, tuples): the input rate reads in items/s.
    Q_PROPERTY(bool inputItemsOnly READ inputItemsOnly NOTIFY statsChanged)
    /// CPU time of the engine thread per wall time, in percent.
    Q_PROPERTY(double engineCpu READ engineCpu NOTIFY statsChanged)
    Q_PROPERTY(double memoryMiB READ memoryMiB NOTIFY statsChanged)
    Q_PROPERTY(quint64 droppedSnapshots READ droppedSnapshots NOTIFY statsChanged)
    /// "NODE for N s" while one operator call keeps the engine past a snapshot's time (the latest
    /// snapshot's `busy`); "" otherwise.
    Q_PROPERTY(QString busy READ busy NOTIFY statsChanged)
    /// The graph changed in a way a running engine cannot take live (restart to apply).
    Q_PROPERTY(bool restartNeeded READ restartNeeded NOTIFY restartNeededChanged)
    /// Show item rates on wires while running (rate-limited to 4 updates per second).
    Q_PROPERTY(bool liveValues READ liveValues WRITE setLiveValues NOTIFY liveValuesChanged)
    Q_PROPERTY(isochron::ui::TelemetryStore* telemetry READ telemetry CONSTANT)
    /// A comparison is running: index of the current scheduler and how many there are.
    Q_PROPERTY(int sequenceIndex READ sequenceIndex NOTIFY sequenceChanged)
    Q_PROPERTY(int sequenceLength READ sequenceLength NOTIFY sequenceChanged)
    /// The schedulers of the comparison running or run last (as given, e.g. "rtc:burst=4").
    Q_PROPERTY(QStringList sequence READ sequence NOTIFY sequenceChanged)
    /// Probed wires: [{key, wire, kind, kindLabel, view, label}] (see probe_kinds.h).
    Q_PROPERTY(QVariantList probes READ probes NOTIFY probesChanged)
    /// What the nodes warned about as the run started, "node: message" each (a recording playing
    /// in place of a missing microphone array, ...); cleared when the next run starts.
    Q_PROPERTY(QStringList notices READ notices NOTIFY noticesChanged)
    /// The notices warn (the banner's amber); false when they report what a Stop asked for did: an
    /// mpirun job every rank of which ended its run at the Stop's SIGUSR2.
    Q_PROPERTY(bool noticesWarn READ noticesWarn NOTIFY noticesChanged)
    /// The bearings, positions and event audio of a graph that localizes sounds (tapped while it runs).
    Q_PROPERTY(isochron::ui::LocalizationFeed* localization READ localization CONSTANT)
    /// The telemetry file the current (or last) run was followed from: an mpirun job's rank 0 file, or
    /// one opened with followTelemetry; "" for a run in the editor's own engine.
    Q_PROPERTY(QString followedFile READ followedFile NOTIFY stateChanged)
    /// How many MPI ranks the graph needs: its highest partition + 1 (0 when no node has one).
    /// Whole seconds since a followed file (one no job of the editor writes) last gained a line, once
    /// that is kStaleSeconds or more; 0 while lines keep coming or when the editor's own job writes it.
    Q_PROPERTY(int staleSeconds READ staleSeconds NOTIFY staleChanged)
    Q_PROPERTY(int ranksNeeded READ ranksNeeded NOTIFY ranksChanged)
    /// Why the graph cannot run on MPI ranks from the editor, saying how to make it possible
    /// (no partitions, a build without MPI, no mpirun); "" when it can.
    Q_PROPERTY(QString ranksRefusal READ ranksRefusal NOTIFY ranksChanged)
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    /// Whether a controller left a run's start behind (a node's create or activate that did not return
    /// after a stop, e.g. a plugin hung in activate): its thread may be inside a plugin, so the process
    /// must end without unloading the plugins (std::_Exit). [any thread]
    static bool anyStartLeftBehind();

    GraphDocument* document() const { return document_; }
    void setDocument(GraphDocument* document);
    QString state() const { return state_; }
    bool running() const { return state_ == "starting" || state_ == "running" || state_ == "stopping"; }
    QString schedulerText() const { return schedulerText_; }
    QString message() const { return message_; }
    double elapsed() const { return elapsed_; }
    double throughput() const { return throughput_; }
    double inputItemsPerSecond() const { return inputItemsPerSecond_; }
    bool inputItemsOnly() const { return inputItemsOnly_; }
    double engineCpu() const { return engineCpu_; }
    double memoryMiB() const { return memoryMiB_; }
    quint64 droppedSnapshots() const { return dropped_; }
    QString busy() const { return busy_; }
    bool restartNeeded() const { return restartNeeded_; }
    bool liveValues() const { return liveValues_; }
    void setLiveValues(bool on);
    TelemetryStore* telemetry() { return &telemetry_; }
    LocalizationFeed* localization() { return &localization_; }
    int sequenceIndex() const { return sequenceIndex_; }
    int sequenceLength() const { return static_cast<int>(sequence_.size()); }
    QStringList sequence() const { return sequence_; }
    QStringList notices() const { return notices_; }
    bool noticesWarn() const { return noticesWarn_; }
    QString followedFile() const { return followedFile_; }
    int staleSeconds() const { return staleSeconds_; }
    /// A followed file that gained no line for this long is shown as stale (its writer may be gone).
    static constexpr int kStaleSeconds = 5;

    /// The file the editor writes each run's report to (its --report option; "" for none). Every
    /// start checks it as isochron-run checks --report: not the graph file, a file the run reads or
    /// a sink's file, and writable.
    void setReportPath(const QString& path);
    /// The plugins loaded in this process (null: none): no sink may replace one of their files,
    /// whether the graph uses it or not, as isochron-run protects every plugin it loaded; the
    /// sandboxed ones get each start's watchdog. Must outlive this controller.
    void setPluginHost(PluginHost* plugins) { plugins_ = plugins; }
    /// The editor's --watchdog: the longest one call into a sandboxed plugin may take. Unset, each
    /// start picks it from the graph as isochron-run does (engine/plugins/sandbox_watchdog.h: half the
    /// least headroom of its live sources, 10 s without); a given one longer than that is warned of
    /// in the notices, naming the source that would drop data.
    void setSandboxWatchdog(std::optional<std::chrono::milliseconds> given) { givenWatchdog_ = given; }

    /// Run the graph with its own scheduler, or with `schedulerText` ("name:key=value,...").
    /// Returns false with `message` when the graph does not validate or the scheduler is unknown.
    Q_INVOKABLE bool start(const QString& schedulerText = {});
    /// Ask the engine to stop; it ends at its next check (within milliseconds). A comparison in
    /// progress goes on with its next scheduler.
    Q_INVOKABLE void stop();
    /// Stop the run and any comparison or restart waiting for it.
    Q_INVOKABLE void stopAll();
    /// Stop, then start again from the same input with `schedulerText` (empty: the graph's).
    Q_INVOKABLE void restartWith(const QString& schedulerText = {});
    /// Run under each scheduler in turn, each for `secondsEach` (or until its input ends), so their
    /// telemetry can be compared. Runs of earlier comparisons are cleared.
    Q_INVOKABLE void compare(const QStringList& schedulers, double secondsEach);
    /// Watch a wire with a probe of `kind` (probe_kinds.h: "scope", "spectrum"). A running graph
    /// gets the probe's tap at once and runs on; otherwise it is attached when the graph starts.
    /// Returns why the wire cannot be probed so, or empty.
    Q_INVOKABLE QString addProbe(const QString& wireKey, const QString& kind);
    /// Remove a probe (a running graph runs on).
    Q_INVOKABLE void removeProbe(const QString& key);
    QVariantList probes() const;
    /// Every probe kind for the wire `wireKey`: [{name, label, fits, why}], `why` saying what the
    /// kind shows when it does not fit this wire's type.
    Q_INVOKABLE QVariantList probeKindsFor(const QString& wireKey) const;
    /// Forget the last graph's runs: stop (the end of that run is not reported), clear telemetry,
    /// probes, localization events and run states; back to "idle". Done when the document is replaced.
    Q_INVOKABLE void forgetRuns();
    /// Recorder nodes ("Record this wire") added while the graph runs, recording it from then on
    /// through wire taps (ui/run/live_recording.h), by node id; the next start runs them as nodes.
    Q_INVOKABLE QStringList liveRecorders() const;
    /// Forget that the live recording of `recorderId` is whole only together with its write-ahead
    /// log (the user read it; the problems panel drops the row). [run_controller_recording.cpp]
    Q_INVOKABLE void dismissDataAtRisk(const QString& recorderId);

    int ranksNeeded() const;
    QString ranksRefusal();
    /// Run the graph as it is now on ranksNeeded() ranks: `mpirun -np N isochron-run GRAPH --telemetry
    /// FILE`, following rank 0's telemetry (every rank's nodes, per-rank rows). mpirun's error output
    /// goes to `notices` and, if it fails, to `message`. Stop asks every rank to stop. False with
    /// `message` when it cannot start.
    Q_INVOKABLE bool startOnRanks();
    /// Follow a telemetry file another process writes (a path or a file: URL): `isochron-run --telemetry
    /// FILE` in one process, or rank 0's FILE.rank0.jsonl of an mpirun job, as a run of this editor,
    /// until its last snapshot or Stop. False with `message` when a run is going on.
    Q_INVOKABLE bool followTelemetry(const QString& pathOrUrl);

Q_SIGNALS:
    void documentChanged();
    void stateChanged();
    void statsChanged();
    void restartNeededChanged();
    void liveValuesChanged();
    void sequenceChanged();
    /// A run ended; `summary` is the engine's run report (isochron-run-report/1 as a map).
    void runFinished(const QVariantMap& summary);
    void comparisonFinished();
    void probesChanged();
    void noticesChanged();
    /// The graph changed: ranksNeeded and ranksRefusal may have.
    void ranksChanged();
    void staleChanged();

private:
    void setState(const QString& state, const QString& message = {});
    void engineStarted(std::shared_ptr<EngineJob> job);
    /// After a stop's grace: when `job` is still starting (a node's create or activate has not
    /// returned) or closing (a deactivate has not), leave its thread behind, name the call in the
    /// problems panel and end in "stopped"; while its engine still runs, look again after another grace.
    void leaveUnreturnedStart(const std::shared_ptr<EngineJob>& job);
    /// At quit: a run still starting gets the stop's grace, then is left behind (the quit must not
    /// wait for a start that never returns). Blocks for up to that grace.
    void leaveStartUnreturnedAtQuit();
    void engineEnded(std::shared_ptr<EngineJob> job, const QVariantMap& summary, const std::vector<GraphError>& failure);
    /// The run could not start (or the engine threw): "failed", each cause in the problems panel
    /// (named by node where it has one), and `message` (empty: the problems' texts) as the message.
    void failToStart(std::vector<GraphError> problems, const QString& message = {});
    /// Lists in the problems panel, and marks failed on the canvas, the nodes the run's `summary`
    /// says failed that its last snapshot did not: those that failed while stopping (a plugin's deactivate).
    void showFailuresWhileStopping(const QVariantMap& summary);
    void pollTelemetry();
    void publishRunStates(const TelemetrySnapshot& snapshot);
    void onParameterChanged(const QString& nodeId, const QString& name, const QVariant& value);
    void checkRestartNeeded();
    void beginComparison();
    /// Read the input rates (samples/s, items/s) from the newest run's telemetry.
    void takeInputRates();
    /// busy() from the latest snapshot of the current run.
    void takeBusy(const TelemetrySnapshot& snapshot);
    void advanceSequence();
    /// The document's graph plus the localization taps' operators; their node ids go to `tapNodes`.
    GraphSpec specWithTaps(std::set<std::string>& tapNodes, LocalizationTapIds& taps) const;
    /// Why `kind` cannot show wire `wireKey` (empty when it can); `endpoint` gets the flat output.
    QString probeRefusal(const QString& wireKey, const QString& kind, Endpoint* endpoint = nullptr) const;
    /// Attach (or with a null tap detach) a wire tap on the running engine, or when it is built.
    void setEngineTap(const Endpoint& output, std::shared_ptr<WireTap> tap);
    void clearRunView();
    /// Record the wires of recorder nodes the running engine lacks (added since the start) from now
    /// on; end the live recordings of recorders removed or changed since. [run_controller_recording.cpp]
    void syncLiveRecordings();
    /// Why a live recording of `recorderId` cannot be started, or empty once it records.
    QString startLiveRecording(const std::string& recorderId);
    /// End every live recording (each writes what its taps still hold, then commits).
    void endLiveRecordings();
    /// End the live recording of `recorderId`; when its log could not be folded into the file, the
    /// problems panel says so until the log is gone (folded later) or the user dismisses it.
    void endLiveRecording(const std::string& recorderId, LiveRecording& recording);
    /// Drop the data-at-risk rows whose write-ahead log is gone or empty, and show the rest.
    void checkDataAtRisk();
    /// The recorder nodes of the run that ended whose log could not be folded in (their "data at
    /// risk:" warnings in `summary`; `recorderLogs`: each recorder node's "-wal", by id): kept as the
    /// live recordings' are. [run_controller_recording.cpp]
    void keepDataAtRiskOfRun(const std::map<std::string, std::string>& recorderLogs, const QVariantMap& summary);
    /// Attach the taps a port has (a probe's, a live recording's, or both through a TapFanOut), or detach.
    void refreshTap(const Endpoint& output);
    /// Gives the sandboxed plugins (if any) the watchdog for a run of `graph` (setSandboxWatchdog);
    /// returns its warning ("" for none). [before the engine is built]
    QString applySandboxWatchdog(const ValidatedGraph& graph);
    /// The live recordings' failures (a full disk, a stream of another shape) in the problems panel.
    void reportLiveRecordingProblems();
    /// The document's graph without the recorders that record live (and the wires into them).
    GraphSpec withoutLiveRecorders(const GraphSpec& spec) const;
    MpiTools& mpiTools();
    /// Start the run record and the follower of `path` (for an mpirun job or an opened file).
    void beginFollowing(const QString& path, const QString& label);
    /// Read what the followed file gained; ends a followed file's run at its last snapshot or a bad line.
    void pollFollowed();
    /// The followed run ended in `state` with `message` (copies: the follower that may own them goes first).
    void endFollowing(QString state, QString message);
    void setStaleSeconds(int seconds);
    void mpiJobEnded(int exitCode, bool crashed);
    /// The notices shown now, and whether they warn.
    void setNotices(QStringList lines, bool warn = true);

    struct Probe {
        QString key;
        EdgeSpec wire;
        QString kind;
        Endpoint output;  ///< the flat output port the wire leaves (inside subgraph nodes)
    };
    std::vector<Probe> probes_;
    /// One tap per probed output port, shared by the probes on it (an engine port has one tap).
    std::map<std::pair<std::string, std::string>, std::shared_ptr<ProbeTap>> probeTaps_;  // by (node, port)
    /// A recorder node recording the running graph through taps: its node and wires as they were when it began.
    struct LiveRecorder {
        NodeSpec node;
        std::vector<EdgeSpec> wires;
        std::vector<Endpoint> ports;  ///< the engine ports it taps, channel 0 first
        std::unique_ptr<LiveRecording> recording;
    };
    std::map<std::string, LiveRecorder> liveRecorders_;  // by recorder node id
    /// A live recording that ended with its data partly in the archive's write-ahead log only.
    struct DataAtRisk {
        std::string recorder;  ///< node id
        QString log;           ///< the archive's "-wal" file
        std::string warning;   ///< what ArchiveWriter::close() said: the file, the log, what to do
    };
    std::vector<DataAtRisk> dataAtRisk_;
    QTimer dataAtRiskTimer_;  // looks for the logs again while there are any
    std::map<std::pair<std::string, std::string>, std::shared_ptr<RecordTap>> recordTaps_;  // by (node, port)
    bool forgetWhenStopped_ = false;
    QStringList notices_;
    bool noticesWarn_ = true;
    int nextProbe_ = 1;
    std::optional<std::string> reportPath_;  // the editor's --report
    PluginHost* plugins_ = nullptr;
    std::optional<std::chrono::milliseconds> givenWatchdog_;
    QPointer<GraphDocument> document_;
    TelemetryStore telemetry_;
    LocalizationFeed localization_;
    std::shared_ptr<EngineJob> job_;
    GraphSpec runningSpec_;
    QString state_ = "idle";
    QString schedulerText_;
    QString message_;
    QString queuedRestart_;
    bool restartQueued_ = false;
    bool comparisonQueued_ = false;
    QTimer pollTimer_;
    QElapsedTimer sinceRunStates_;
    double elapsed_ = 0, throughput_ = 0, engineCpu_ = 0, memoryMiB_ = 0;
    double inputItemsPerSecond_ = 0;
    bool inputItemsOnly_ = false;
    quint64 dropped_ = 0;
    QString busy_;
    double lastCpuSeconds_ = 0, lastCpuWall_ = 0;
    bool restartNeeded_ = false;
    bool liveValues_ = true;
    QStringList sequence_;
    int sequenceIndex_ = -1;
    double sequenceSeconds_ = 0;
    QTimer sequenceTimer_;
    std::optional<MpiTools> mpiTools_;  // found when first asked
    std::unique_ptr<MpiJob> mpiJob_;
    std::unique_ptr<TelemetryFileFollower> follower_;
    QString followedFile_;
    std::string followedState_;  // the state in the followed file's latest line
    QElapsedTimer sinceFollowedLine_;
    int staleSeconds_ = 0;
};

}  // namespace isochron::ui
