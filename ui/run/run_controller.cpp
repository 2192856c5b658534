#include "ui/run/run_controller.h"

#include <QCoreApplication>

#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "engine/graph/validated_graph.h"
#include "engine/plugins/plugin_crash_note.h"
#include "engine/plugins/plugin_host.h"
#include "engine/plugins/sandbox_watchdog.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/node_call_scope.h"
#include "engine/runtime/run_summary.h"
#include "engine/schedulers/scheduler.h"
#include "nodes/io/run_output_paths.h"
#include "nodes/register_builtin_nodes.h"
#include "ui/model/json_variant.h"
#include "ui/model/parameter_views.h"
#include "ui/run/probe_kinds.h"
#include "ui/run/probe_ring.h"
#include "ui/run/telemetry_file_follower.h"

namespace isochron::ui {

/// One engine run, shared by the ui thread and the engine thread that owns the Engine.
struct EngineJob {
    std::thread thread;
    std::mutex mutex;                 // guards `engine` (set while the engine exists), `closing`, `ended` and `abandoned`
    Engine* engine = nullptr;
    /// The engine ran and its nodes are being deactivated.
    bool closing = false;
    /// The engine thread is done with the controller (it told engineEnded, or never will).
    bool ended = false;
    /// The ui thread gave up on a start that did not honour a stop (leaveUnreturnedStart): the thread,
    /// detached, no longer calls the controller, which may be gone.
    bool abandoned = false;
    std::condition_variable endedOrStarted;  // `ended` or `engine` became set
    std::shared_ptr<SnapshotChannel> channel;
    std::atomic<bool> stopRequested{false};
    clockid_t cpuClock{};
    std::atomic<bool> cpuClockValid{false};
    /// "node.port" of every input port, by node and port index as the telemetry's queues count them.
    std::vector<std::vector<QString>> inputPorts;
    /// The last watermark lag (ms) of every input port and skew (ms) of every node seen while the
    /// streams were in progress, by the same indices; -1 before any. Once a stream ends its watermark
    /// says nothing, so these are what the canvas keeps showing as the run's final values.
    std::vector<std::vector<double>> lastLagMs;
    std::vector<double> lastSkewMs;
    /// The "-wal" of each recorder node's archive (io.archive_sink), by node id: where a recording
    /// whole only together with its log has the rest (see RunController::keepDataAtRiskOfRun).
    std::map<std::string, std::string> recorderLogs;
    TimeNs frontierNs = kBeginningOfTime;  ///< see rememberProgress
    LocalizationChannels localizationTaps;  // the localization taps' rings
    /// Warnings the nodes gave while the engine was built, "node: message" (set before engineStarted).
    QStringList startWarnings;
    /// Wire taps to attach once the engine exists (guarded by `mutex`, taken by the engine thread).
    std::vector<std::pair<Endpoint, std::shared_ptr<WireTap>>> tapsBeforeStart;
};

namespace {

constexpr double kTelemetryHz = 30.0;
/// How long a stop may wait on a node's start (create, activate) before the run leaves it behind:
/// isochron-run's grace (a hung in-process plugin cannot be ended, only left).
constexpr std::chrono::milliseconds kStopGrace{3000};

/// Whether any controller left a start behind: its thread may still run inside a plugin.
std::atomic<bool> startLeftBehind{false};
constexpr std::uint64_t kOverloadedQueue = 4096;  // items waiting at one node's inputs
const QString kRunProblems = QStringLiteral("run");  // the problems panel's source for faulted nodes

QString rateText(double perSecond, const char* unit) {
    const char* prefixes[] = {"", "k", "M", "G"};
    int p = 0;
    while (perSecond >= 1000 && p < 3) {
        perSecond /= 1000;
        ++p;
    }
    return QStringLiteral("%1%2%3/s").arg(perSecond, 0, 'f', perSecond < 10 ? 1 : 0).arg(p || *unit ? QString(" ") + prefixes[p] : QString()).arg(unit);
}

/// A span of stream time: "120 ms" below a second, "2.0 s" above.
QString spanText(double milliseconds) {
    return milliseconds < 999.5 ? QStringLiteral("%1 ms").arg(milliseconds, 0, 'f', 0)
                                : QStringLiteral("%1 s").arg(milliseconds / 1000.0, 0, 'f', 1);
}

/// Whether a watermark says where a stream is (not "nothing yet", not "ended").
bool inStream(TimeNs watermark) { return watermark != kBeginningOfTime && watermark != kEndOfTime; }

/// Record in `job` the watermark lags and skews `snapshot` shows while its streams are in progress.
/// Lags are measured from the frontier: the furthest any source's watermark has been seen in stream
/// (any node's when sources say nothing), kept once a source ends, as a fast run's sources end
/// before their followers catch up.
void rememberProgress(EngineJob& job, const RunRecord& record, const TelemetrySnapshot& snapshot) {
    TimeNs furthest = kBeginningOfTime;
    for (std::size_t source : record.sources) {
        if (source < snapshot.nodes.size() && inStream(snapshot.nodes[source].watermarkNs)) furthest = std::max(furthest, snapshot.nodes[source].watermarkNs);
    }
    if (!inStream(furthest)) {
        for (const NodeTelemetry& t : snapshot.nodes) {
            if (inStream(t.watermarkNs)) furthest = std::max(furthest, t.watermarkNs);
        }
    }
    TimeNs& frontier = job.frontierNs;
    if (inStream(furthest)) frontier = inStream(frontier) ? std::max(frontier, furthest) : furthest;
    for (std::size_t n = 0; n < snapshot.nodes.size() && n < job.lastSkewMs.size(); ++n) {
        if (snapshot.nodes[n].skewMs > 0) job.lastSkewMs[n] = snapshot.nodes[n].skewMs;
    }
    if (!inStream(frontier)) return;
    for (const QueueTelemetry& q : snapshot.queues) {
        const auto node = static_cast<std::size_t>(q.node), port = static_cast<std::size_t>(q.port);
        if (node >= job.lastLagMs.size() || port >= job.lastLagMs[node].size() || !inStream(q.watermarkNs)) continue;
        job.lastLagMs[node][port] = std::max(0.0, static_cast<double>(frontier - q.watermarkNs) / 1e6);  // ahead of the input: caught up
    }
}

QString schedulerSpecText(const SchedulerSpec& spec) {
    QString text = QString::fromStdString(spec.name);
    QStringList params;
    for (const auto& [key, value] : spec.params) {
        params.append(QString::fromStdString(key + "=" + (value.is_string() ? value.get<std::string>() : value.dump())));
    }
    return params.isEmpty() ? text : text + ":" + params.join(',');
}

double wallSeconds() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

}  // namespace

RunController::RunController(QObject* parent) : QObject(parent) {
    // Before the window and the plugins go: main() leaves at once if a start was left behind.
    if (QCoreApplication::instance()) connect(QCoreApplication::instance(), &QCoreApplication::aboutToQuit, this, &RunController::leaveStartUnreturnedAtQuit);
    pollTimer_.setInterval(static_cast<int>(1000.0 / kTelemetryHz));
    connect(&pollTimer_, &QTimer::timeout, this, &RunController::pollTelemetry);
    sequenceTimer_.setSingleShot(true);
    connect(&sequenceTimer_, &QTimer::timeout, this, &RunController::stop);
    dataAtRiskTimer_.setInterval(2000);
    connect(&dataAtRiskTimer_, &QTimer::timeout, this, &RunController::checkDataAtRisk);
}

RunController::~RunController() {
    if (mpiJob_) mpiJob_->disconnect(this);  // it stops its ranks as it goes: no news for a controller being destroyed
    leaveStartUnreturnedAtQuit();
    if (!job_) return;
    {
        std::lock_guard lock(job_->mutex);
        job_->stopRequested = true;
        if (job_->engine) job_->engine->requestStop();
    }
    if (job_->thread.joinable()) job_->thread.join();
}

bool RunController::anyStartLeftBehind() { return startLeftBehind.load(); }

void RunController::leaveStartUnreturnedAtQuit() {
    if (!job_) return;
    {
        std::unique_lock lock(job_->mutex);
        job_->stopRequested = true;
        // A start that never returns (a plugin hung in activate) must not hold the editor's quit.
        if (job_->endedOrStarted.wait_for(lock, kStopGrace, [this] { return job_->engine || job_->ended; })) return;
        job_->abandoned = true;
    }
    startLeftBehind.store(true);
    job_->thread.detach();
    job_.reset();
}

void RunController::setDocument(GraphDocument* document) {
    if (document_ == document) return;
    if (document_) disconnect(document_, nullptr, this, nullptr);
    document_ = document;
    if (document_) {
        connect(document_, &GraphDocument::parameterChanged, this, &RunController::onParameterChanged);
        connect(document_, &GraphDocument::structureChanged, this, &RunController::checkRestartNeeded);
        connect(document_, &GraphDocument::revisionChanged, this, [this] { localization_.setOutputs(findLocalizationOutputs(document_->spec())); });
        connect(document_, &GraphDocument::revisionChanged, this, &RunController::ranksChanged);
        connect(document_, &GraphDocument::replaced, this, &RunController::forgetRuns);
        localization_.setOutputs(findLocalizationOutputs(document_->spec()));
    }
    Q_EMIT documentChanged();
    Q_EMIT ranksChanged();
}

void RunController::setLiveValues(bool on) {
    if (on == liveValues_) return;
    liveValues_ = on;
    if (!on && document_) document_->edges()->setLiveTexts({});
    Q_EMIT liveValuesChanged();
}

void RunController::setState(const QString& state, const QString& message) {
    state_ = state;
    message_ = message;
    Q_EMIT stateChanged();
}

void RunController::setReportPath(const QString& path) {
    if (path.isEmpty()) reportPath_.reset();
    else reportPath_ = path.toStdString();
}

bool RunController::start(const QString& schedulerText) {
    if (!document_ || running()) return false;
    std::set<std::string> tapNodes;
    LocalizationTapIds taps;
    const GraphSpec spec = specWithTaps(tapNodes, taps);
    SchedulerSpec scheduler;
    ValidatedGraph graph;
    QString watchdogWarning;
    try {
        scheduler = schedulerText.isEmpty() ? spec.scheduler : parseSchedulerText(schedulerText.toStdString());
        schedulerParams(scheduler);
        graph = validateGraph(spec, document_->registry());
        // isochron-run's checks, before anything runs: a sink whose path was the graph file replaced
        // it with a WAV (status "finished", nothing unsaved to warn about on quit).
        std::vector<std::filesystem::path> pluginFiles;
        if (plugins_) {
            for (const PluginInfo* plugin : plugins_->plugins()) pluginFiles.push_back(plugin->file);
        }
        const std::vector<RunInput> inputs = runInputs(document_->filePath().toStdString(), graph, pluginFiles);
        checkNodeOutputPaths(graph, inputs);
        checkRunOutputPaths(RunOutputFiles{reportPath_, std::nullopt}, graph, inputs);
        watchdogWarning = applySandboxWatchdog(graph);
    } catch (const GraphException& e) {
        // The validator's problems: the problems panel lists them already.
        QStringList lines;
        for (const GraphError& error : e.errors()) lines.append(QString::fromStdString(error.toString()));
        // The first problem on the first line: the status bar shows that line alone.
        setState("failed", tr("The graph cannot run: %1").arg(lines.join('\n')));
        return false;
    } catch (const NodeOutputPathError& e) {
        failToStart({GraphError{e.node(), "", "", e.withoutNode()}}, QString::fromStdString(e.what()));  // isochron-run's very words
        return false;
    } catch (const std::exception& e) {
        failToStart({GraphError{"", "", "", e.what()}});
        return false;
    }
    std::vector<std::string> nodeIds, outputIds, sourceIds;
    for (const ValidatedNode& node : graph.nodes) {
        nodeIds.push_back(node.id);
        if (node.outputs.empty() && !tapNodes.count(node.id)) outputIds.push_back(node.id);
        if (node.descriptor->isSource()) sourceIds.push_back(node.id);
    }
    schedulerText_ = schedulerSpecText(scheduler);
    followedFile_.clear();
    telemetry_.beginRun(schedulerText_, nodeIds, outputIds, sourceIds, {tapNodes.begin(), tapNodes.end()});
    runningSpec_ = document_->spec();
    document_->problems()->setProblems(kRunProblems, {});
    document_->edges()->setLiveTexts({});  // the last run's final values
    restartNeeded_ = false;
    Q_EMIT restartNeededChanged();

    auto job = std::make_shared<EngineJob>();
    for (const Probe& probe : probes_) {
        const auto tap = probeTaps_.find({probe.output.node, probe.output.name});
        if (tap != probeTaps_.end()) job->tapsBeforeStart.emplace_back(probe.output, tap->second);
    }
    for (const ValidatedNode& node : graph.nodes) {
        std::vector<QString> ports;
        for (const ResolvedPort& port : node.inputs) ports.push_back(QString::fromStdString(node.id + "." + port.name));
        job->lastLagMs.emplace_back(ports.size(), -1.0);
        job->inputPorts.push_back(std::move(ports));
    }
    job->lastSkewMs.assign(graph.nodes.size(), -1.0);
    for (const ValidatedNode& node : graph.nodes) {
        if (node.descriptor->typeName == "io.archive_sink") job->recorderLogs[node.id] = node.params.getString("path") + "-wal";  // resolved by the validator
    }
    if (!watchdogWarning.isEmpty()) job->startWarnings.append(watchdogWarning);
    job_ = job;
    lastCpuSeconds_ = 0;
    lastCpuWall_ = 0;
    elapsed_ = throughput_ = inputItemsPerSecond_ = engineCpu_ = memoryMiB_ = 0;
    busy_.clear();
    inputItemsOnly_ = false;
    dropped_ = 0;
    localization_.beginRun();
    setNotices({});
    setState("starting");
    job->thread = std::thread([this, job, graph = std::move(graph), scheduler, taps] {
        QVariantMap summary;
        std::vector<GraphError> failure;
        try {
            Engine engine(graph, scheduler);
            {
                std::lock_guard lock(job->mutex);
                job->engine = &engine;
                job->channel = engine.openTelemetry(kTelemetryHz);
                job->localizationTaps = openLocalizationTaps(engine, taps);
                for (const NodeContext* node : engine.nodes()) {
                    for (const std::string& notice : node->notices) job->startWarnings.append(QString::fromStdString(node->id + ": " + notice));
                    for (const std::string& warning : node->warnings) job->startWarnings.append(QString::fromStdString(node->id + ": " + warning));
                }
                for (auto& [output, tap] : job->tapsBeforeStart) {
                    try {
                        engine.setTap(output.node, output.name, std::move(tap));
                    } catch (const std::invalid_argument&) {
                        // The probed wire is gone from the graph: its probe waits for data in vain.
                    }
                }
                job->tapsBeforeStart.clear();
                if (job->stopRequested) engine.requestStop();
                if (pthread_getcpuclockid(pthread_self(), &job->cpuClock) == 0) job->cpuClockValid = true;
                job->endedOrStarted.notify_all();
                if (!job->abandoned) QMetaObject::invokeMethod(this, [this, job] { engineStarted(job); }, Qt::QueuedConnection);
            }
            RunOutcome outcome = engine.run();
            {
                std::lock_guard lock(job->mutex);
                job->engine = nullptr;  // no tap or parameter reaches a node while it is deactivated
                job->closing = true;
            }
            // Deactivated now, not when the engine goes, as isochron-run does: a plugin that fails
            // while stopping (a recording it cannot close) is a failure of this run, and what the
            // nodes say as they close belongs in its summary.
            for (NodeContext* node : engine.nodes()) {
                if (node->op) node->op->deactivate();
            }
            engine.addFailuresWhileStopping(outcome);
            job->cpuClockValid = false;
            summary = jsonToVariant(nlohmann::json::parse(summarizeRun(engine, outcome).toJson().dump())).toMap();
            timespec cpu{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
            summary["engine_cpu_s"] = static_cast<double>(cpu.tv_sec) + static_cast<double>(cpu.tv_nsec) * 1e-9;
        } catch (const GraphException& e) {
            failure = e.errors();
        } catch (const std::exception& e) {
            failure = {GraphError{"", "", "", e.what()}};
        }
        job->cpuClockValid = false;
        const std::lock_guard lock(job->mutex);
        job->ended = true;
        job->endedOrStarted.notify_all();
        if (!job->abandoned) QMetaObject::invokeMethod(this, [this, job, summary, failure] { engineEnded(job, summary, failure); }, Qt::QueuedConnection);
    });
    return true;
}

QString RunController::applySandboxWatchdog(const ValidatedGraph& graph) {
    if (!plugins_) return {};
    const std::vector<const PluginInfo*> loaded = plugins_->plugins();
    if (std::none_of(loaded.begin(), loaded.end(), [](const PluginInfo* plugin) { return plugin->hosting.sandboxed; })) return {};
    const SandboxWatchdogChoice choice = chooseSandboxWatchdog(graph, givenWatchdog_);
    plugins_->setSandboxWatchdog(choice.watchdog, choice.setupWatchdog);  // for the nodes this start creates
    qInfo("isochron: note: %s", choice.note.c_str());
    return QString::fromStdString(choice.warning);
}

void RunController::failToStart(std::vector<GraphError> problems, const QString& message) {
    QStringList lines;
    for (const GraphError& problem : problems) lines.append(QString::fromStdString(problem.toString()));
    if (document_) document_->problems()->setProblems(kRunProblems, std::move(problems));
    setState("failed", message.isEmpty() ? lines.join('\n') : message);
}

void RunController::engineStarted(std::shared_ptr<EngineJob> job) {
    if (job != job_) return;
    QStringList warnings;
    {
        std::lock_guard lock(job->mutex);
        warnings = job->startWarnings;
    }
    setNotices(warnings);
    if (state_ == "starting") setState("running");
    localization_.attach(job->localizationTaps);
    lastCpuWall_ = wallSeconds();
    sinceRunStates_.start();
    pollTimer_.start();
    if (sequenceIndex_ >= 0 && sequenceSeconds_ > 0) sequenceTimer_.start(static_cast<int>(sequenceSeconds_ * 1000));
}

void RunController::stop() {
    if (mpiJob_ && running()) {
        mpiJob_->stop();
        setState("stopping");
        return;
    }
    if (follower_) {
        endFollowing("stopped", tr("Stopped following %1").arg(followedFile_));
        return;
    }
    if (!job_ || !running()) return;
    {
        std::lock_guard lock(job_->mutex);
        job_->stopRequested = true;
        if (job_->engine) job_->engine->requestStop();
    }
    setState("stopping");
    // The engine takes the stop once its nodes have started; a start, or a deactivate after the run,
    // that does not return in time is left behind, as isochron-run leaves it.
    QTimer::singleShot(kStopGrace, this, [this, job = job_] { leaveUnreturnedStart(job); });
}

void RunController::leaveUnreturnedStart(const std::shared_ptr<EngineJob>& job) {
    if (job != job_) return;  // it ended (or was left) already
    bool closing = false;
    {
        std::lock_guard lock(job->mutex);
        if (job->ended) return;
        if (job->engine) {
            // Running: the engine stops it now; should a deactivate after it not return, look again.
            QTimer::singleShot(kStopGrace, this, [this, job] { leaveUnreturnedStart(job); });
            return;
        }
        closing = job->closing;
        job->abandoned = true;
    }
    startLeftBehind.store(true);
    job->thread.detach();
    job_.reset();
    pollTimer_.stop();
    sequenceTimer_.stop();
    restartQueued_ = false;  // a restart would start the plugin that hangs again, beside the one left
    comparisonQueued_ = false;
    if (sequenceIndex_ >= 0) {
        sequenceIndex_ = -1;
        Q_EMIT sequenceChanged();
    }
    const std::string pluginCalls = describeUnreturnedPluginCalls();
    const std::string stuck = !pluginCalls.empty() ? pluginCalls : closing ? std::string() : describeNodeStartsInProgress();
    const std::string problem = (stuck.empty() ? std::string(closing ? "a node's deactivate" : "a node's start") : stuck) +
                                " did not return after the stop request: the run was left behind without it (it keeps a thread busy "
                                "until the editor quits; a plugin that hangs there needs fixing, or --sandbox to host it apart)";
    if (document_) document_->problems()->setProblems(kRunProblems, {GraphError{"", "", "", problem}});
    const QString when = closing ? tr("Stopped while closing its nodes: %1") : tr("Stopped while starting: %1");
    setState("stopped", when.arg(QString::fromStdString(problem)));
}

void RunController::stopAll() {
    restartQueued_ = false;
    comparisonQueued_ = false;
    if (sequenceIndex_ >= 0) {
        sequenceIndex_ = -1;
        Q_EMIT sequenceChanged();
    }
    stop();
}

void RunController::restartWith(const QString& schedulerText) {
    if (running()) {
        queuedRestart_ = schedulerText;
        restartQueued_ = true;
        stop();
        return;
    }
    start(schedulerText);
}

void RunController::engineEnded(std::shared_ptr<EngineJob> job, const QVariantMap& summary, const std::vector<GraphError>& failure) {
    if (job->thread.joinable()) job->thread.join();
    if (job != job_) return;
    pollTelemetry();  // the final snapshot
    localization_.drain(false);
    localization_.detach();
    pollTimer_.stop();
    sequenceTimer_.stop();
    job_.reset();
    endLiveRecordings();
    if (forgetWhenStopped_) {  // another graph replaced the one that ran: its end is not news
        forgetWhenStopped_ = false;
        clearRunView();
        return;
    }
    if (!failure.empty()) {
        failToStart(failure);
    } else {
        telemetry_.finishRun(summary);
        showFailuresWhileStopping(summary);
        keepDataAtRiskOfRun(job->recorderLogs, summary);
        const QStringList failures = summary.value("failures").toStringList();
        if (!failures.isEmpty()) setState("failed", failures.join('\n'));
        else if (summary.value("completed").toBool()) setState("finished", tr("Finished in %1 s").arg(summary.value("wall_s").toDouble(), 0, 'f', 2));
        else setState("stopped", tr("Stopped after %1 s").arg(summary.value("wall_s").toDouble(), 0, 'f', 2));
        Q_EMIT runFinished(summary);
    }
    if (restartQueued_) {
        restartQueued_ = false;
        start(queuedRestart_);
    } else if (comparisonQueued_) {
        beginComparison();
    } else if (sequenceIndex_ >= 0) {
        advanceSequence();
    }
}

void RunController::showFailuresWhileStopping(const QVariantMap& summary) {
    if (!document_) return;
    std::vector<GraphError> problems = document_->problems()->problemsOf(kRunProblems);
    QHash<QString, NodeRunState> states = document_->nodes()->runStates();
    const QVariantMap nodes = summary.value("nodes").toMap();
    for (auto node = nodes.cbegin(); node != nodes.cend(); ++node) {
        const QString failure = node.value().toMap().value("failure").toString();
        if (failure.isEmpty()) continue;
        const std::string id = node.key().toStdString();
        const bool listed = std::any_of(problems.begin(), problems.end(), [&](const GraphError& problem) { return problem.node == id; });
        if (listed) continue;  // failed while running: its last snapshot listed it
        problems.push_back(GraphError{id, "", "", failure.toStdString()});
        if (states.contains(node.key())) states[node.key()] = NodeRunState{"failed", failure, {}};
    }
    if (problems.size() == document_->problems()->problemsOf(kRunProblems).size()) return;
    document_->problems()->setProblems(kRunProblems, std::move(problems));
    document_->nodes()->setRunStates(std::move(states));
}

void RunController::pollTelemetry() {
    if (follower_) {
        pollFollowed();
        return;
    }
    if (!job_) return;
    reportLiveRecordingProblems();
    localization_.drain(true);
    std::shared_ptr<SnapshotChannel> channel;
    {
        std::lock_guard lock(job_->mutex);
        channel = job_->channel;
    }
    if (!channel) return;
    const TelemetrySnapshot* latest = nullptr;
    while (const TelemetrySnapshot* snapshot = channel->next()) {
        telemetry_.add(*snapshot);
        if (const RunRecord* record = telemetry_.run(-1)) rememberProgress(*job_, *record, *snapshot);
        elapsed_ = snapshot->elapsedSeconds;
        memoryMiB_ = static_cast<double>(snapshot->liveBytes) / (1024.0 * 1024.0);
        if (latest) channel->release(latest);
        latest = snapshot;
    }
    if (!latest) return;
    takeBusy(*latest);
    if (sinceRunStates_.elapsed() >= 250 || latest->engineState != "running") {
        publishRunStates(*latest);
        sinceRunStates_.restart();
    }
    channel->release(latest);
    if (job_->cpuClockValid) {
        timespec cpu{};
        if (clock_gettime(job_->cpuClock, &cpu) == 0) {
            const double cpuSeconds = static_cast<double>(cpu.tv_sec) + static_cast<double>(cpu.tv_nsec) * 1e-9;
            const double now = wallSeconds();
            if (lastCpuSeconds_ > 0 && now > lastCpuWall_) engineCpu_ = 100.0 * (cpuSeconds - lastCpuSeconds_) / (now - lastCpuWall_);
            lastCpuSeconds_ = cpuSeconds;
            lastCpuWall_ = now;
        }
    }
    dropped_ = channel->dropped();
    takeInputRates();
    Q_EMIT statsChanged();
}

void RunController::takeInputRates() {
    throughput_ = telemetry_.latest("engine/source_samples_per_s");
    inputItemsPerSecond_ = telemetry_.latest("engine/source_items_per_s");
    const RunRecord* record = telemetry_.run(-1);
    inputItemsOnly_ = record && record->lastSourceItems > 0 && record->lastSourceSamples == 0;
}

void RunController::takeBusy(const TelemetrySnapshot& snapshot) {
    const RunRecord* record = telemetry_.run(-1);
    const auto node = static_cast<std::size_t>(snapshot.busyNode);
    busy_ = snapshot.busyNode >= 0 && record && node < record->nodeIds.size()
                ? tr("%1 for %2 s").arg(QString::fromStdString(record->nodeIds[node])).arg(snapshot.busySeconds, 0, 'f', 1)
                : QString();
}

void RunController::publishRunStates(const TelemetrySnapshot& snapshot) {
    if (!document_) return;
    const RunRecord* record = telemetry_.run(-1);
    if (!record) return;
    QHash<QString, NodeRunState> states;
    QHash<QString, QString> rates;
    std::vector<GraphError> faults;
    // The run's last snapshot gives each wire its rate over the whole run (the final value shown
    // after it ends), not over the last second, when a paced source may have gone quiet.
    const bool last = snapshot.engineState != "running";
    for (std::size_t n = 0; n < snapshot.nodes.size() && n < record->nodeIds.size(); ++n) {
        const NodeTelemetry& t = snapshot.nodes[n];
        const QString id = QString::fromStdString(record->nodeIds[n]);
        NodeRunState state;
        state.state = t.failed ? "failed" : t.finished ? "finished" : t.queuedItems > kOverloadedQueue ? "overloaded" : t.warnings ? "warning" : "running";
        state.detail = t.failed ? QString::fromStdString(t.failure)
                                : tr("%1 items in, %2 out, %3 queued, %4 µs per item")
                                      .arg(t.itemsIn).arg(t.itemsOut).arg(t.queuedItems).arg(t.costNsPerItem / 1000.0, 0, 'f', 2);
        if (n < job_->lastSkewMs.size() && job_->lastSkewMs[n] > 0) state.skew = tr("skew %1").arg(spanText(job_->lastSkewMs[n]));
        states.insert(id, state);
        if (t.failed) faults.push_back(GraphError{record->nodeIds[n], "", "", t.failure});
        // While running, the rates the status bar's input sums for the sources (windowed_rate.h).
        const double whole = snapshot.elapsedSeconds;
        const double samples = !last ? (n < record->samplesSent.size() ? record->samplesSent[n].perSecond() : 0)
                               : whole > 0 ? static_cast<double>(t.samplesOut) / whole : 0;
        const double items = !last ? (n < record->itemsSent.size() ? record->itemsSent[n].perSecond() : 0)
                             : whole > 0 ? static_cast<double>(t.itemsOut) / whole : 0;
        rates.insert(id, samples > 0 ? rateText(samples, "S") : rateText(items, ""));
    }
    document_->nodes()->setRunStates(states);
    if (faults.size() != document_->problems()->problemsOf(kRunProblems).size()) document_->problems()->setProblems(kRunProblems, std::move(faults));
    if (!liveValues_) return;
    // What each input port has seen of its stream: "wm −120 ms" behind the frontier, "3 late" (the
    // last lag measured while the stream was in progress: after it ends, the run's final value).
    QHash<QString, QString> streams;
    for (const QueueTelemetry& q : snapshot.queues) {
        const auto node = static_cast<std::size_t>(q.node), port = static_cast<std::size_t>(q.port);
        if (node >= job_->inputPorts.size() || port >= job_->inputPorts[node].size()) continue;
        QStringList parts;
        const double lagMs = job_->lastLagMs[node][port];
        if (lagMs >= 0) {
            parts.append(lagMs < 0.5 ? tr("wm 0 ms") : tr("wm −%1").arg(spanText(lagMs)));
        }
        if (q.lateItems > 0) parts.append(tr("%1 late").arg(q.lateItems));
        if (!parts.isEmpty()) streams.insert(job_->inputPorts[node][port], parts.join(" · "));
    }
    const GraphResolution& resolution = document_->resolution();
    QHash<QString, QString> texts;
    for (const EdgeSpec& edge : runningSpec_.edges) {
        const Endpoint into = resolution.flatInput({edge.toNode, edge.toPort});
        QStringList parts;
        const QString rate = rates.value(QString::fromStdString(resolution.flatOutput({edge.fromNode, edge.fromPort}).node));
        if (!rate.isEmpty()) parts.append(rate);
        const QString stream = streams.value(QString::fromStdString(into.node + "." + into.name));
        if (!stream.isEmpty()) parts.append(stream);
        texts.insert(EdgeListModel::keyOf(edge), parts.join(" · "));
    }
    document_->edges()->setLiveTexts(texts);
}

void RunController::onParameterChanged(const QString& nodeId, const QString& name, const QVariant& value) {
    if (!job_ || !running() || !document_) return;
    // An exposed parameter of a subgraph node is its inner node's parameter in the running graph.
    const Endpoint target = document_->resolution().flatParameter({nodeId.toStdString(), name.toStdString()});
    const NodeSpec* node = document_->resolution().expanded().flat.findNode(target.node);
    const OperatorDescriptor* d = node ? document_->registry().find(node->type) : nullptr;
    const ParamSpec* spec = d ? d->findParam(target.name) : nullptr;
    if (!spec || !spec->live) return;
    std::string why;
    const auto parsed = value.isValid() ? parameterFromVariant(*spec, value, why) : std::optional<ParamValue>(spec->defaultValue);
    if (!parsed) return;
    std::lock_guard lock(job_->mutex);
    if (!job_->engine) return;
    try {
        job_->engine->postParameter(target.node, target.name, *parsed);
        NodeSpec* running = runningSpec_.findNode(nodeId.toStdString());
        if (running) running->params[name.toStdString()] = paramValueToJson(*parsed);
    } catch (const std::exception&) {
        // A node the engine does not have (added since the run started): checkRestartNeeded reports it.
    }
}

void RunController::checkRestartNeeded() {
    if (!document_) return;
    if (!running()) {
        if (job_ == nullptr && state_ != "idle") {  // the last run's final values no longer describe the graph
            document_->nodes()->setRunStates({});
            document_->edges()->setLiveTexts({});
            document_->problems()->setProblems(kRunProblems, {});
        }
        return;
    }
    syncLiveRecordings();
    // A recorder that records live needs no restart: the next start runs it as a node.
    const GraphSpec now = withoutLiveRecorders(document_->spec());
    bool differs = now.edges != runningSpec_.edges || now.nodes.size() != runningSpec_.nodes.size() ||
                   now.scheduler.name != runningSpec_.scheduler.name || now.scheduler.params != runningSpec_.scheduler.params;
    for (std::size_t i = 0; !differs && i < now.nodes.size(); ++i) {
        const NodeSpec& a = now.nodes[i];
        const NodeSpec& b = runningSpec_.nodes[i];
        differs = a.id != b.id || a.type != b.type || a.params != b.params || a.extra.value("qos", nlohmann::json()) != b.extra.value("qos", nlohmann::json());
    }
    if (differs != restartNeeded_) {
        restartNeeded_ = differs;
        Q_EMIT restartNeededChanged();
    }
}

QVariantList RunController::probes() const {
    QVariantList list;
    for (const Probe& p : probes_) {
        const ProbeKind* kind = findProbeKind(p.kind);
        list.append(QVariantMap{{"key", p.key}, {"wire", EdgeListModel::keyOf(p.wire)}, {"kind", p.kind}, {"kindLabel", kind->label},
                                {"view", kind->view}, {"label", QString::fromStdString(p.wire.from())}});
    }
    return list;
}

QString RunController::probeRefusal(const QString& wireKey, const QString& kindName, Endpoint* endpoint) const {
    if (!document_) return tr("no graph");
    const ProbeKind* kind = findProbeKind(kindName);
    if (!kind) return tr("there is no probe kind '%1'").arg(kindName);
    const int index = document_->edges()->indexOf(wireKey);
    if (index < 0) return tr("there is no such wire");
    const EdgeSpec& wire = document_->spec().edges[static_cast<std::size_t>(index)];
    const GraphResolution& resolution = document_->resolution();
    const int port = resolution.portIndex(wire.fromNode, wire.fromPort, true);
    const std::string type = port < 0 ? "" : resolution.node(wire.fromNode)->outputs[static_cast<std::size_t>(port)].type;
    if (std::find(kind->types.begin(), kind->types.end(), type) == kind->types.end()) {
        return tr("a %1 shows %2 (this one carries %3)").arg(kind->label.toLower(), kind->shows, type.empty() ? tr("nothing known") : QString::fromStdString(type));
    }
    if (endpoint) *endpoint = resolution.flatOutput({wire.fromNode, wire.fromPort});
    return {};
}

QVariantList RunController::probeKindsFor(const QString& wireKey) const {
    QVariantList list;
    for (const ProbeKind& kind : probeKinds()) {
        const QString why = probeRefusal(wireKey, kind.name);
        list.append(QVariantMap{{"name", kind.name}, {"label", kind.label}, {"fits", why.isEmpty()}, {"why", why}});
    }
    return list;
}

void RunController::setEngineTap(const Endpoint& output, std::shared_ptr<WireTap> tap) {
    if (!job_) return;
    std::lock_guard lock(job_->mutex);
    if (!job_->engine) {
        job_->tapsBeforeStart.emplace_back(output, std::move(tap));
        return;
    }
    try {
        job_->engine->setTap(output.node, output.name, std::move(tap));
    } catch (const std::invalid_argument&) {
        // A wire added since the run started has no port in the engine: its probe shows at the next start.
    }
}

QString RunController::addProbe(const QString& wireKey, const QString& kind) {
    Endpoint output;
    if (QString why = probeRefusal(wireKey, kind, &output); !why.isEmpty()) return why;
    const EdgeSpec wire = document_->spec().edges[static_cast<std::size_t>(document_->edges()->indexOf(wireKey))];
    probes_.push_back({QStringLiteral("probe-%1").arg(nextProbe_++), wire, kind, output});
    auto& tap = probeTaps_[{output.node, output.name}];
    if (!tap) {
        tap = std::make_shared<ProbeTap>(std::make_shared<ProbeRing>());
        refreshTap(output);
    }
    ProbeRegistry::instance().add(probes_.back().key.toStdString(), tap->ring());
    Q_EMIT probesChanged();
    return {};
}

void RunController::removeProbe(const QString& key) {
    auto it = std::find_if(probes_.begin(), probes_.end(), [&](const Probe& p) { return p.key == key; });
    if (it == probes_.end()) return;
    const Endpoint output = it->output;
    ProbeRegistry::instance().remove(it->key.toStdString());
    probes_.erase(it);
    const bool shared = std::any_of(probes_.begin(), probes_.end(), [&](const Probe& p) { return p.output == output; });
    if (!shared) {
        probeTaps_.erase({output.node, output.name});
        refreshTap(output);
    }
    Q_EMIT probesChanged();
}

void RunController::forgetRuns() {
    while (!probes_.empty()) removeProbe(probes_.back().key);
    if (running()) {
        forgetWhenStopped_ = true;
        stopAll();
        return;
    }
    clearRunView();
}

void RunController::setNotices(QStringList lines, bool warn) {
    if (lines == notices_ && warn == noticesWarn_) return;
    notices_ = std::move(lines);
    noticesWarn_ = warn;
    Q_EMIT noticesChanged();
}

void RunController::clearRunView() {
    telemetry_.clear();
    followedFile_.clear();
    setNotices({});
    localization_.beginRun();
    elapsed_ = throughput_ = inputItemsPerSecond_ = engineCpu_ = memoryMiB_ = 0;
    busy_.clear();
    inputItemsOnly_ = false;
    schedulerText_.clear();
    if (restartNeeded_) {
        restartNeeded_ = false;
        Q_EMIT restartNeededChanged();
    }
    if (document_) {
        document_->nodes()->setRunStates({});
        document_->problems()->setProblems(kRunProblems, {});
        document_->edges()->setLiveTexts({});
    }
    setState("idle");
    Q_EMIT statsChanged();
}

GraphSpec RunController::specWithTaps(std::set<std::string>& tapNodes, LocalizationTapIds& taps) const {
    GraphSpec spec = document_->spec();
    std::set<std::string> taken;
    for (const NodeSpec& node : spec.nodes) taken.insert(node.id);
    taps = addLocalizationTaps(spec, findLocalizationOutputs(spec), taken);
    for (const std::string& id : taps.all()) {
        if (!id.empty()) tapNodes.insert(id);
    }
    return spec;
}

void RunController::compare(const QStringList& schedulers, double secondsEach) {
    if (schedulers.isEmpty()) return;
    sequence_ = schedulers;
    sequenceSeconds_ = secondsEach;
    restartQueued_ = false;
    if (running()) {
        // The run that is ending is not part of the comparison: begin when it has ended.
        comparisonQueued_ = true;
        stop();
        return;
    }
    beginComparison();
}

void RunController::beginComparison() {
    comparisonQueued_ = false;
    telemetry_.clear();
    sequenceIndex_ = 0;
    Q_EMIT sequenceChanged();
    if (!start(sequence_.front())) advanceSequence();
}

void RunController::advanceSequence() {
    ++sequenceIndex_;
    if (sequenceIndex_ >= sequence_.size()) {
        sequenceIndex_ = -1;
        Q_EMIT sequenceChanged();
        Q_EMIT comparisonFinished();
        return;
    }
    Q_EMIT sequenceChanged();
    if (!start(sequence_[sequenceIndex_])) advanceSequence();
}

}  // namespace isochron::ui
