// isochron-run: run a graph headless and report what it did.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/run/command_line.h"
#include "app/run/operator_reference.h"
#include "app/run/partition_threads.h"
#include "app/run/rank_line_output.h"
#include "app/run/telemetry_file_lock.h"
#include "app/run/scale_out.h"
#include "engine/files/file_kind.h"
#include "engine/files/standard_streams.h"
#include "engine/graph/endless_run.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/start_checks.h"
#include "engine/graph/validated_graph.h"
#include "engine/plugins/plugin_crash_note.h"
#include "engine/plugins/plugin_discovery.h"
#include "engine/plugins/plugin_error.h"
#include "engine/plugins/plugin_host.h"
#include "engine/plugins/sandbox_watchdog.h"
#include "engine/runtime/data_at_risk_warning.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/node_call_scope.h"
#include "engine/runtime/start_interruption.h"
#include "engine/runtime/run_summary.h"
#include "engine/telemetry/telemetry_json.h"
#include "engine/time/wall_clock.h"
#include "nodes/capture/capture_devices.h"
#include "nodes/io/output_path.h"
#include "nodes/io/partial_file.h"
#include "nodes/io/run_output_paths.h"
#include "nodes/register_builtin_nodes.h"

using namespace isochron;

namespace {

// The first signal that asked the run to stop (SIGINT, SIGTERM, SIGHUP, SIGUSR2, or SIGPIPE when a
// sink's standard output was closed), 0 while none did, and how many signals other than SIGPIPE came.
std::atomic<int> stopSignal{0};
std::atomic<int> stopSignalCount{0};
static_assert(std::atomic<int>::is_always_lock_free);
// While the graph is read and the nodes start (a large graph validating, a preloaded sound file
// decoding, an event file loading), the first signal makes validation and the engine's construction
// give up at their next stop poll (engine/graph/stop_poll.h) and the nodes' loads at once
// (engine/runtime/start_interruption.h). Whether the start is still reading and validating the
// graph (no node has started yet): a second signal then leaves at once, and a stop message names
// the phase it interrupted. Once the nodes start, a start call that does not return (a plugin hung
// in activate) is left behind as a run's call is (watchStopWhileStarting).
std::atomic<bool> graphBeingChecked{false};
static_assert(std::atomic<bool>::is_always_lock_free);

void onStopSignal(int signal) {
    interruptStarts();  // a node loading a file gives up: the run stops as it begins
    int none = 0;
    stopSignal.compare_exchange_strong(none, signal);
    if (signal != SIGPIPE) stopSignalCount.fetch_add(1);  // every write to a closed pipe raises it again
    if (graphBeingChecked.load() && stopSignalCount.load() > 1) std::_Exit(128 + stopSignal.load());
}

/// How long a stop request may go unhonoured before the run is abandoned: a node blocked in a call
/// that never returns (a write to a pipe nobody reads, a hung in-process plugin) must not make the
/// run unstoppable. Longer than any built-in node's call takes (universal_box: at most 1 s).
constexpr TimeNs kStopGraceNs = 3'000'000'000;

/// Says on stderr that the stop was not honoured because `stuck` (the calls that did not return, ""
/// when unknown) has not returned, and returns the report's "abandoned" text for it. `whileStarting`:
/// no node has run yet (the report lists none), else the figures are those of this moment.
std::string announceAbandonment(const std::string& stuck, bool whileStarting) {
    std::cerr.tie(nullptr);  // flushing std::cout first would wait on a node stuck writing to it
    std::cerr << "isochron-run: the run did not stop "
              << (stopSignalCount.load() > 1 ? "before a second signal" : "within " + std::to_string(kStopGraceNs / 1'000'000'000) + " s")
              << (stuck.empty() ? ": a node's call has not returned" : ": " + stuck + " has not returned")
              << "; leaving without it (" << (whileStarting ? "the nodes were starting: none ran" : "figures are those at this moment") << ")" << std::endl;
    return stuck.empty() ? "a node's call did not return after the stop request" : stuck + " did not return after the stop request";
}

/// Why a rank under mpirun stopped on `signal`, for its last line. mpirun sends SIGTERM to every rank
/// both when it is interrupted (Ctrl-C, kill) and when a rank died, and a rank cannot tell which:
/// the line says both, claiming no death. SIGUSR2 is the clean stop mpirun passes on as it is.
std::string rankStopReason(int signal) {
    if (signal == SIGUSR2) return " (SIGUSR2, passed to every rank by mpirun)";
    if (signal == SIGTERM) {
        return " (SIGTERM from mpirun: it sends it to every rank when it was interrupted, as by Ctrl-C, or when a rank "
               "died, which its own message then names; kill -USR2 <mpirun> is the clean stop)";
    }
    return "";
}

/// Whether mpirun's SIGTERM (`signal`) came because mpirun was interrupted, not because a rank died:
/// every rank told its end (`rankEnds`, ScaleOut::endRun()). A rank that died never
/// tells ("lost: ...").
bool interruptedMpirun(int signal, const nlohmann::ordered_json& rankEnds) {
    if (signal != SIGTERM || !rankEnds.is_array()) return false;
    return std::none_of(rankEnds.begin(), rankEnds.end(), [](const nlohmann::ordered_json& end) {
        const std::string text = end.get<std::string>();
        return text.starts_with("lost: ");
    });
}

/// How a rank's end begins when it ran to its end with a node that failed (the first failure follows).
constexpr std::string_view kFailedNodeEnd = "finished with a failed node: ";

/// Whether a rank of `rankEnds` (the ranks' ends, null alone) ran with a node that failed.
bool anyRankEndedWithFailedNode(const nlohmann::ordered_json& rankEnds) {
    if (!rankEnds.is_array()) return false;
    return std::any_of(rankEnds.begin(), rankEnds.end(), [](const nlohmann::ordered_json& end) { return end.get<std::string>().starts_with(kFailedNodeEnd); });
}

/// The name of a stop signal, for the report's "end".
const char* stopSignalName(int signal) {
    switch (signal) {
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        case SIGHUP: return "SIGHUP";
        case SIGPIPE: return "SIGPIPE";
        case SIGUSR2: return "SIGUSR2";
        default: return "a signal";
    }
}

/// How this rank's run ended, as its report says and the other ranks hear it (docs/run-report.md):
/// "finished", "finished with a failed node: " and its first failure (the node was disabled and the
/// rest ran on, as in a graph run whole), "stopped: signal N (NAME)".
std::string rankEnd(const RunOutcome& outcome) {
    if (outcome.completed) return outcome.failures.empty() ? "finished" : std::string(kFailedNodeEnd) + outcome.failures.front();
    if (const int signal = stopSignal.load(); signal != 0) return "stopped: signal " + std::to_string(signal) + " (" + stopSignalName(signal) + ")";
    return "stopped";
}

/// Whether `path` is "-" or names what standard output goes to (/dev/stdout, /dev/fd/1, or the
/// file it is redirected to).
bool namesStandardOutput(const std::string& path) {
    if (path == "-") return true;
    struct stat named {}, output {};
    if (path.empty() || ::stat(path.c_str(), &named) != 0 || ::fstat(STDOUT_FILENO, &output) != 0) return false;
    return named.st_dev == output.st_dev && named.st_ino == output.st_ino;
}

/// Whether some node writes to standard output (a path parameter "-", or one naming standard
/// output's file): then standard output holds that node's data only, and every line the runner
/// prints goes to standard error.
bool writesStandardOutput(const ValidatedGraph& graph) {
    for (const ValidatedNode& node : graph.nodes) {
        for (const ParamSpec& spec : node.descriptor->params) {
            if (spec.kind == ParamKind::Path && namesStandardOutput(node.params.getString(spec.name))) return true;
        }
    }
    return false;
}

/// Whether the process started with standard output closed (`>&-`); main() then holds descriptor 1
/// with keepStandardStreamsOpen until the run replaces it. [main thread]
bool standardOutputWasClosed = false;

/// A closed standard output (`>&-`) would let its writes fail with EBADF while the run goes on: put a
/// pipe without a reader there instead, so it behaves as a standard output whose reader is gone (a
/// sink writing '-' stops the run, exit 141, the report is written; the runner's own lines are dropped).
void replaceClosedStandardOutput() {
    if (!standardOutputWasClosed) return;
    int ends[2];
    if (::pipe(ends) != 0) return;
    ::dup2(ends[1], STDOUT_FILENO);  // both ends are above 2: keepStandardStreamsOpen holds 0-2
    ::close(ends[1]);
    ::close(ends[0]);
}

/// --report and --telemetry may not name a named pipe (FIFO), checked before anything opens them:
/// opening one blocks until a reader comes, in a call no stop request interrupts. A report is
/// written once, when the run ends; telemetry to a reader that attaches later is not supported.
void refuseNamedPipes(const run::RunOptions& options) {
    for (const auto& [path, flag] : {std::pair{options.reportPath, "--report"}, std::pair{options.telemetryPath, "--telemetry"}}) {
        std::error_code error;
        if (path && std::filesystem::is_fifo(std::filesystem::status(*path, error)) && namesStandardOutput(*path)) {
            throw std::runtime_error(std::string(flag) + " " + *path +
                                     " is standard output, a pipe here: it holds the runner's lines; give a file (and read it when the run ends)");
        }
        if (path && std::filesystem::is_fifo(std::filesystem::status(*path, error))) {
            throw std::runtime_error(std::string(flag) + " " + *path +
                                     " is a named pipe (FIFO): give a regular file (a FIFO would block the run until a reader opens it)");
        }
    }
}

/// Writes the run report as JSON; false (after saying why on stderr) when it could not be written.
/// A regular file (or none yet) is written under a partial file renamed over it when complete, so a
/// failed write (a full disk) leaves the previous report whole; a symlink is written through, a device
/// in place.
bool writeReport(const std::string& path, const nlohmann::ordered_json& json) {
    std::string target = path, writing = path;
    bool renameWhenDone = false;
    try {
        target = followSymlinks(path);
        if (nonRegularFileKind(target).empty()) {
            writing = createPartialFile(target);
            renameWhenDone = true;
        }
    } catch (const std::runtime_error& e) {
        std::cerr << "isochron-run: cannot write report " << path << ": " << e.what() << "\n";
        return false;
    }
    std::ofstream report(writing);
    if (report) report << json.dump(2) << "\n";
    report.close();
    if (!report.fail() && (!renameWhenDone || std::rename(writing.c_str(), target.c_str()) == 0)) return true;
    const std::string reason = std::strerror(errno);
    if (renameWhenDone) std::remove(writing.c_str());
    std::cerr << "isochron-run: cannot write report " << path << ": " << reason << "\n";
    return false;
}

/// Whether `text` contains `word`, ignoring case.
bool mentions(const std::string& text, const std::string& word) {
    return std::search(text.begin(), text.end(), word.begin(), word.end(),
                       [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)); }) != text.end();
}

/// Every operator type, or those whose name, summary or documentation mentions `word`.
void printOperators(const OperatorRegistry& registry, const std::string& word) {
    bool any = false;
    for (const OperatorDescriptor* d : registry.all()) {
        if (!word.empty() && !mentions(d->typeName, word) && !mentions(d->summary, word) && !mentions(d->documentation, word)) continue;
        any = true;
        std::cout << d->typeName << "  [" << d->category << "]  " << d->summary;
        if (d->origin != "built-in") std::cout << "  (plugin " << d->origin << ")";
        std::cout << "\n";
        for (const auto& p : d->inputs) {
            std::cout << "    in  " << p.name << (p.countParam.empty() ? "" : "0.." + p.countParam) << ": " << p.type.toString()
                      << (p.optional ? " (optional)" : "") << "  " << p.doc << "\n";
        }
        for (const auto& p : d->outputs) {
            std::cout << "    out " << p.name << (p.countParam.empty() ? "" : "0.." + p.countParam) << ": "
                      << (p.typeFrom.empty() ? p.type.toString() : "same as " + p.typeFrom) << "  " << p.doc << "\n";
        }
        for (const auto& p : d->params) {
            std::cout << "    param " << p.name << " (" << paramKindName(p.kind) << (p.unit.empty() ? "" : ", " + p.unit)
                      << ", default " << paramValueToText(p.defaultValue) << (p.live ? ", live" : "") << ")  " << p.doc << "\n";
        }
    }
    if (!any) std::cout << "no operator mentions '" << word << "' (try --list-operators alone)\n";
}

void printPlugins(const PluginHost& host, const run::RunOptions& options) {
    std::cout << "plugins were looked for in:\n";
    for (const auto& file : options.plugins) std::cout << "  " << file << "  (--plugin)\n";
    for (const auto& folder : pluginSearchFolders()) {
        // What an entry that is no folder is instead: a file or a FIFO named in ISOCHRON_PLUGIN_PATH
        // was listed as "does not exist".
        std::string kind = nonRegularFileKind(folder);
        std::error_code error;
        if (kind.empty() && std::filesystem::exists(folder, error)) kind = "a file";
        std::string note;
        if (kind.empty()) note = "  (does not exist)";
        else if (kind != "a folder") note = "  (" + kind + ", not a folder: not searched)";
        std::cout << "  " << folder.string() << note << "\n";
    }
    if (host.plugins().empty()) std::cout << "no plugins found\n";
    for (const PluginInfo* plugin : host.plugins()) {
        std::cout << plugin->name << " " << plugin->version << "  " << plugin->file.string()
                  << (plugin->hosting.sandboxed ? "  (sandboxed)" : "") << "\n";
        for (const auto& type : plugin->operatorTypes) std::cout << "    operator " << type << "\n";
        for (const auto& type : plugin->itemTypes) std::cout << "    item type custom<" << type.name << ">  " << type.doc << "\n";
        for (const auto& id : plugin->extensions) std::cout << "    extension " << id << "\n";
    }
}

/// Load the --plugin files (a refusal is fatal) and then every discovered plugin (a refusal is a
/// warning: a broken plugin in a shared folder must not stop graphs that do not use it).
void loadPlugins(PluginHost& host, const run::RunOptions& options) {
    auto hostingOf = [&](const std::filesystem::path& file) {
        PluginHosting hosting;
        const std::string name = file.stem().string();  // a plugin's file is named after it
        hosting.sandboxed = options.sandboxAll || std::find(options.sandboxed.begin(), options.sandboxed.end(), name) != options.sandboxed.end();
        return hosting;  // the watchdog is chosen once the graph is read (announceSandboxWatchdog)
    };
    for (const auto& file : options.plugins) host.load(file, hostingOf(file));
    for (const auto& file : discoverPlugins()) {
        if (host.find(file)) continue;
        try {
            host.load(file, hostingOf(file));
        } catch (const PluginError& e) {
            if (!options.quiet) std::cerr << "isochron-run: warning: " << e.what() << "\n";
        }
    }
}

/// --sandbox=NAME must name a loaded plugin (by its file's name without .so, as hosting matches it): a
/// typo would leave the plugin in-process, where a crash ends the run with no report. Throws naming
/// the plugins that are loaded.
void refuseUnknownSandboxNames(const PluginHost& host, const run::RunOptions& options) {
    std::vector<std::string> loaded;
    for (const PluginInfo* plugin : host.plugins()) loaded.push_back(plugin->file.stem().string());
    for (const std::string& name : options.sandboxed) {
        if (std::find(loaded.begin(), loaded.end(), name) != loaded.end()) continue;
        std::string list;
        for (const std::string& plugin : loaded) list += (list.empty() ? "" : ", ") + plugin;
        throw std::runtime_error("--sandbox=" + name + " names no loaded plugin (" +
                                 (loaded.empty() ? std::string("no plugins are loaded") : "loaded: " + list) +
                                 "; a plugin is named by its file without .so, see --list-plugins)");
    }
}

/// The --watchdog given, if any.
std::optional<std::chrono::milliseconds> givenWatchdog(const run::RunOptions& options) {
    if (!options.watchdogSeconds) return std::nullopt;
    return std::chrono::milliseconds(static_cast<std::int64_t>(*options.watchdogSeconds * 1000));
}

/// Under --sandbox: sets the watchdog the sandboxed nodes get, chosen from `graph` (sandbox_watchdog.h),
/// and says which it is in the start notes (not under --check), with a warning when a hang would make a
/// live source drop data.
void announceSandboxWatchdog(PluginHost& host, const run::RunOptions& options, const ValidatedGraph& graph) {
    if (!options.sandboxAll && options.sandboxed.empty()) return;
    const SandboxWatchdogChoice choice = chooseSandboxWatchdog(graph, givenWatchdog(options));
    host.setSandboxWatchdog(choice.watchdog, choice.setupWatchdog);
    if (options.quiet) return;
    if (!options.checkOnly) std::cerr << "isochron-run: note: " << choice.note << "\n";
    if (!choice.warning.empty()) std::cerr << "isochron-run: warning: " << choice.warning << "\n";
}

void printSchedulers() {
    for (const auto& s : availableSchedulers()) {
        std::cout << s.name << "  " << s.summary << "\n";
        for (const auto& p : s.params) {
            std::cout << "    " << p.name << " (" << paramKindName(p.kind) << (p.unit.empty() ? "" : ", " + p.unit)
                      << ", default " << paramValueToText(p.defaultValue) << ")  " << p.doc << "\n";
        }
    }
}

/// One line per device, inputs (capture.audio_input's `device` and `host_api`) then outputs (io.audio_output's).
void printDevices() {
    const auto print = [](const std::vector<CaptureDevice>& devices, const char* direction) {
        std::cout << direction << " devices ('*' = the default):\n";
        if (devices.empty()) std::cout << "  none (no sound card, or the audio system is not running)\n";
        for (const CaptureDevice& device : devices) {
            std::cout << (device.isDefault ? "* " : "  ") << device.name << "  [" << device.hostApi << "]  "
                      << std::max(device.inputChannels, device.outputChannels) << " channels, " << device.defaultRateHz << " Hz\n";
        }
    };
    print(listCaptureDevices(), "input");
    print(listPlaybackDevices(), "output");
}

/// What each wire carries, where the graph knows (channel labels, mic positions), and the geometries
/// array operators took from their inputs: the lines `--check` adds after "valid".
void printWireChannels(const ValidatedGraph& graph) {
    for (const ValidatedEdge& e : graph.edges) {
        const ValidatedNode& from = graph.nodes[static_cast<std::size_t>(e.fromNode)];
        if (static_cast<std::size_t>(e.fromPort) >= from.outputChannels.size()) continue;  // a rank's channel endpoint
        const ChannelLayout& layout = from.outputChannels[static_cast<std::size_t>(e.fromPort)];
        if (layout.empty()) continue;
        std::cout << "  " << from.id << "." << from.outputs[static_cast<std::size_t>(e.fromPort)].name << " -> "
                  << graph.nodes[static_cast<std::size_t>(e.toNode)].id << "." << graph.nodes[static_cast<std::size_t>(e.toNode)].inputs[static_cast<std::size_t>(e.toPort)].name
                  << ": " << describeLayout(layout) << "\n";
    }
    for (const ValidatedNode& node : graph.nodes) {
        if (node.inputs.empty() || !node.descriptor->findParam("geometry")) continue;
        if (node.params.getString("geometry").starts_with("{")) std::cout << "  node '" << node.id << "': array geometry from the mic positions its inputs carry\n";
    }
}

/// Installs onStopSignal for `signal`, unless the process started with it ignored: nohup ignores
/// SIGHUP and a shell runs a background job with SIGINT ignored, so that closing the terminal or
/// Ctrl-C leaves the run alone; whoever started it chose so.
void catchStopSignal(int signal) {
    struct sigaction current {};
    if (sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) return;
    std::signal(signal, onStopSignal);
}

/// The report of a run a stop ended before its engine was built: no nodes (none ran), `scheduler` as
/// --scheduler gave it.
nlohmann::ordered_json startStoppedReport(const run::RunOptions& options) {
    RunSummary summary;
    summary.scheduler = options.scheduler.value_or("");
    summary.outcome.stopped = true;
    nlohmann::ordered_json json = summary.toJson();
    json["stopped_while_starting"] = true;
    return json;
}

/// While the nodes start, until `nodesStarted`: a stop the start does not honour in time (a node's
/// create or activate that never returns, such as an in-process plugin hung in activate), or a
/// second signal, leaves as a run's unreturned call does: the message, the report with
/// "abandoned" naming the node (plugin) and hook, exit 128 + the signal. [its own thread]
void watchStopWhileStarting(const run::RunOptions& options, const std::atomic<bool>& nodesStarted) {
    TimeNs stopSeenNs = 0;
    while (!nodesStarted.load()) {
        if (stopSignal.load() != 0) {
            if (stopSeenNs == 0) stopSeenNs = wallClockNs();
            if (stopSignalCount.load() > 1 || wallClockNs() - stopSeenNs > kStopGraceNs) {
                const int signal = stopSignal.load();
                const std::string pluginCalls = describeUnreturnedPluginCalls();
                const std::string abandoned = announceAbandonment(!pluginCalls.empty() ? pluginCalls : describeNodeStartsInProgress(), true);
                bool written = true;
                if (options.reportPath) {
                    nlohmann::ordered_json json = startStoppedReport(options);
                    json["abandoned"] = abandoned;
                    written = writeReport(*options.reportPath, json);
                }
                std::_Exit(written ? 128 + signal : 1);
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

/// `host`: the plugins loaded (the run reads their files: no output may replace one).
int runGraphFile(const run::RunOptions& options, const OperatorRegistry& registry, PluginHost& host, run::ScaleOut& scaleOut) {
    std::vector<std::filesystem::path> plugins;
    for (const PluginInfo* plugin : host.plugins()) plugins.push_back(plugin->file);
    // Every way a user or the terminal ends a run stops it the same way: the report is written. So
    // from before the graph is read: validating a large graph and loading the nodes' files take
    // seconds. The run then stops as it begins. SIGUSR2 too: mpirun forwards it to every rank as it
    // is (SIGINT it turns into a kill after a timeout), so it is how a run on ranks is stopped cleanly.
    // --check alike: stopped while it validates, it says so and leaves with the run's status.
    graphBeingChecked.store(true);
    for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGUSR2}) catchStopSignal(signal);
    // Validation and the checks after it take seconds on a 100 000-node graph: a stop signal ends
    // them at their next poll (StartStopped, which runMain reports).
    const StopPoll stopRequested = [] { return stopSignal.load() != 0; };
    const auto stopIfRequested = [&] {
        if (stopRequested()) throw StartStopped("validation stopped: the run is being stopped");
    };
    GraphSpec spec = loadGraphFile(options.graphPath, stopRequested);
    for (const auto& assignment : options.overrides) setParameterFromText(spec, registry, assignment);
    SchedulerSpec scheduler = options.scheduler ? parseSchedulerText(*options.scheduler) : spec.scheduler;
    const ValidatedGraph whole = validateGraph(spec, registry, stopRequested);
    schedulerParams(scheduler);  // reject a bad scheduler before anything starts
    // The files of the whole graph, before it is partitioned: under mpirun each rank runs a part, and
    // two sinks on different ranks writing one file (or one overwriting what another rank reads) lost
    // data with exit 0. Every rank reads the whole graph, so every rank refuses alike.
    const std::vector<RunInput> inputs = runInputs(options.graphPath, whole, plugins);
    const RunOutputFiles outputs{options.reportPath, options.telemetryPath};
    stopIfRequested();
    checkNodeOutputPaths(whole, inputs);
    stopIfRequested();
    std::vector<std::string> scaleOutNotes;
    if (options.partitionsOnThreads && scaleOut.ranks() > 1) {
        throw std::runtime_error("--partitions threads runs every partition in this one process: start it without mpirun (under mpirun, rank k runs partition k)");
    }
    // --partitions threads: every partition on a thread of its own here, instead of one rank each.
    const bool onThreads = options.partitionsOnThreads && distributed::isPartitioned(spec);
    if (options.partitionsOnThreads && !onThreads) scaleOutNotes.push_back("the graph has no partitions: --partitions threads runs it whole on one thread");
    const ValidatedGraph& graph = onThreads ? whole : scaleOut.localGraph(spec, whole, options.channelCredits, scaleOutNotes);
    stopIfRequested();
    if (!options.quiet) {
        for (const auto& note : scaleOutNotes) std::cerr << "isochron-run: note: " << note << "\n";
    }
    // Under mpirun every line starts with "[rank k] " (RankLineOutput, installed by main()).
    const bool onRanks = scaleOut.ranks() > 1;
    checkStandardOutputWriters(outputs, graph);
    // Of the whole graph: under mpirun a hang here holds the ranks this one feeds, and their sources.
    announceSandboxWatchdog(host, options, whole);
    if (options.checkOnly) {
        // Every check a run makes comes before "valid", also under --quiet: the partitions' (a cycle
        // between them, custom items between ranks) was made only while printing the plan after it.
        const std::string partitionPlan = scaleOut.partitionPlan(spec, whole);
        // What the nodes' start would refuse or warn about (a missing capture device, a sound file
        // holding only a header), in the run's words.
        const std::vector<GraphError> startNotes = startWarnings(graph);
        stopIfRequested();  // a check stopped before its end says so, not "valid"
        scaleOut.readyToGoOn();  // under mpirun: no rank says "valid" while another refused
        if (!options.quiet) {
            // Under mpirun the rank's graph also holds its ends of the channels to other ranks: no node of the file.
            const int channelEnds = scaleOut.channelEnds();
            std::cout << options.graphPath << ": valid (" << graph.nodes.size() - static_cast<std::size_t>(channelEnds);
            if (onRanks) {
                std::cout << " of the graph's " << whole.nodes.size() << " nodes on this rank";
                if (channelEnds > 0) std::cout << ", and " << channelEnds << (channelEnds == 1 ? " channel end" : " channel ends") << " to other ranks";
                std::cout << ")\n";
            } else {
                std::cout << " nodes)\n";
            }
            printWireChannels(graph);
            if (scaleOut.rank() == 0) std::cout << partitionPlan;
            for (const GraphError& warning : startNotes) std::cerr << "isochron-run: warning: " << warning.toString() << "\n";
            for (const GraphError& warning : endlessRunWarnings(graph)) std::cerr << "isochron-run: warning: " << warning.toString() << "\n";
        }
        return 0;
    }
    refuseNamedPipes(options);  // before anything opens them
    checkRunOutputPaths(outputs, whole, inputs);
    stopIfRequested();
    // Before the nodes start (an archive sink creates its file): a second run on this telemetry file
    // is refused, not mixed into it.
    run::TelemetryFileLock telemetryLock;
    if (options.telemetryPath) telemetryLock = run::TelemetryFileLock(*options.telemetryPath);
    // When a sink writes to standard output, it holds that sink's data only.
    const bool sinkWritesStandardOutput = writesStandardOutput(graph);
    std::ostream& status = sinkWritesStandardOutput ? std::cerr : std::cout;
    // A run that can never end says so before it starts, not only under --check.
    if (!options.quiet) {
        for (const GraphError& warning : endlessRunWarnings(graph)) std::cerr << "isochron-run: warning: " << warning.toString() << "\n";
    }
    stopIfRequested();
    // A closed standard output (a pipe into `head`, or >&-) raises SIGPIPE on the next write. When a
    // sink writes its data there, that ends the run like Ctrl-C (exit 141). Otherwise standard output
    // holds only the runner's own lines, whose loss must not cost the data the sinks write to files:
    // the write fails (EPIPE), std::cout stops printing, and the run goes on to its end.
    std::signal(SIGPIPE, sinkWritesStandardOutput ? onStopSignal : SIG_IGN);
    std::unique_ptr<run::PartitionThreads> threads;
    std::unique_ptr<Engine> single;
    std::atomic<bool> nodesStarted{false};
    std::thread startWatcher(watchStopWhileStarting, std::cref(options), std::cref(nodesStarted));
    graphBeingChecked.store(false);  // the nodes start now
    try {
        if (onThreads) threads = std::make_unique<run::PartitionThreads>(spec, whole, scheduler, options.channelCredits, stopRequested);
        else single = std::make_unique<Engine>(graph, scheduler, stopRequested);
    } catch (...) {
        nodesStarted.store(true);
        startWatcher.join();
        throw;
    }
    nodesStarted.store(true);
    startWatcher.join();
    // A stop that came while the nodes started: the run stops as it begins (nothing flows), and says so.
    const bool stoppedWhileStarting = stopSignal.load() != 0;
    if (stoppedWhileStarting) {
        if (threads) threads->requestStop();
        else single->requestStop();
    }
    if (stoppedWhileStarting && !options.quiet) {
        std::cerr << "isochron-run: stopped by signal " << stopSignal.load()
                  << " while the nodes were starting (loading their files): the run stops before any data flows\n";
    }
    // Telemetry comes from one engine: on threads the lowest partition's (partition 0's when it holds nodes).
    Engine& engine = threads ? threads->engine(0) : *single;
    // What the nodes chose or warned about while starting (a recording standing in for a missing device)
    // matters now, not in the summary after a long run.
    std::map<std::string, std::size_t, std::less<>> warningsShown;  // not repeated in the summary
    if (!options.quiet) {
        const std::vector<const NodeContext*> started = threads ? threads->nodes() : std::vector<const NodeContext*>(engine.nodes().begin(), engine.nodes().end());
        for (const NodeContext* node : started) {
            for (const auto& notice : node->notices) std::cerr << "isochron-run: node '" << node->id << "': " << notice << "\n";
            for (const auto& warning : node->warnings) std::cerr << "isochron-run: warning: node '" << node->id << "': " << warning << "\n";
            warningsShown[node->id] = node->warnings.size();
        }
    }
    // A node that fails is named at once (a sink on a full disk may fail long before the run ends);
    // the summary lists it again.
    std::mutex failuresMutex;
    std::vector<std::string> failuresSeen;  // for a report written while the engine does not return
    // On threads every partition's engine has it (they may call it at once: one write per line).
    const auto announceFailure = [&](const std::string& failure) {
        std::cerr << ("isochron-run: error: " + failure + "\n") << std::flush;
        const std::lock_guard lock(failuresMutex);
        failuresSeen.push_back(failure);
    };
    if (threads) threads->setFailureListener(announceFailure);
    else engine.setFailureListener(announceFailure);
    std::shared_ptr<SnapshotChannel> telemetry;
    std::ofstream telemetryFile;
    std::string telemetryError;  // the first write error, reported when the run ends
    if (options.telemetryPath) {
        telemetryFile.open(*options.telemetryPath);
        if (!telemetryFile) throw std::runtime_error("cannot write telemetry file " + *options.telemetryPath + ": " + std::strerror(errno));
        telemetry = engine.openTelemetry(options.telemetryRate);
    }
    // Under mpirun: every rank's nodes started and its files opened, or the ranks leave together
    // (a telemetry file this run created is then removed again).
    scaleOut.readyToGoOn();
    telemetryLock.keep();
    scaleOut.prepareChannels(engine);
    scaleOut.relayTelemetry(engine, telemetry != nullptr, options.telemetryRate);
    std::vector<std::string> nodeIds;
    for (const NodeContext* node : engine.nodes()) nodeIds.push_back(node->id);
    auto writeSnapshot = [&](const TelemetrySnapshot* snapshot) {
        if (telemetryError.empty()) {
            telemetryFile << telemetryToJson(*snapshot, nodeIds).dump() << "\n";
            telemetryFile.flush();
            if (!telemetryFile) telemetryError = std::strerror(errno);
        }
        telemetry->release(snapshot);
    };
    // Writes the snapshots waiting, for at most `budgetNs` (0: all of them). The watcher below gives
    // it a budget: a snapshot of thousands of nodes takes longer to write than the engine takes to
    // make the next, and a drain that never ran dry never let the watcher see a stop signal.
    auto drainTelemetry = [&](TimeNs budgetNs) {
        if (!telemetry) return;
        const TimeNs untilNs = budgetNs > 0 ? wallClockNs() + budgetNs : 0;
        while (untilNs == 0 || wallClockNs() < untilNs) {
            const TelemetrySnapshot* snapshot = telemetry->next();
            if (!snapshot) break;
            writeSnapshot(snapshot);
        }
    };
    // After a stop only the newest snapshot waiting is written (at the end, the "stopped" one): the
    // older ones held the exit up for seconds on a graph of 10 000 nodes.
    auto writeNewestTelemetry = [&] {
        if (!telemetry) return;
        if (const TelemetrySnapshot* snapshot = telemetry->newest()) writeSnapshot(snapshot);
    };
    const TimeNs startNs = wallClockNs();
    std::atomic<bool> done{false};
    auto runNodes = [&] { return threads ? threads->nodes() : std::vector<const NodeContext*>(engine.nodes().begin(), engine.nodes().end()); };
    // A stop the engine does not honour in time (or a second signal): write the report of what is known
    // and leave without waiting for the engine's threads, one of which is stuck in a node's call.
    auto abandonRun = [&] {
        const int signal = stopSignal.load();
        // A plugin's call names its file and hook; a built-in node's call its id and type.
        const std::string pluginCalls = describeUnreturnedPluginCalls();
        const std::string abandoned = announceAbandonment(!pluginCalls.empty() ? pluginCalls : describeNodeCallsInProgress(runNodes()), false);
        RunOutcome outcome;
        outcome.stopped = true;
        outcome.wallSeconds = static_cast<double>(wallClockNs() - startNs) / 1e9;
        {
            const std::lock_guard lock(failuresMutex);
            outcome.failures = failuresSeen;
        }
        if (stopSignalCount.load() == 1) writeNewestTelemetry();  // a second signal leaves at once
        const RunSummary summary = summarizeRun(engine, outcome);
        if (!options.quiet) std::cerr << summary.toText() << std::flush;
        bool written = true;
        if (options.reportPath) {
            nlohmann::ordered_json json = summary.toJson();
            json["abandoned"] = abandoned;
            written = writeReport(*options.reportPath, json);
        }
        if (telemetryFile.is_open()) telemetryFile.flush();
        std::_Exit(written ? 128 + signal : 1);
    };
    std::thread watcher([&] {
        TimeNs stopSeenNs = 0;
        while (!done.load()) {
            if (stopSignal.load() != 0) {
                if (threads) threads->requestStop();
                else engine.requestStop();
                scaleOut.stop();
                // A rank waiting inside MPI on a rank that died never returns to the engine: leave
                // within a fraction of a second, as mpirun expects of the ranks it ends. SIGUSR2 is
                // the clean stop (no rank died, mpirun kills none): as long as a run alone gets.
                if (stopSeenNs == 0) stopSeenNs = wallClockNs();
                const TimeNs rankGraceNs = stopSignal.load() == SIGUSR2 ? kStopGraceNs : 300'000'000;
                if (onRanks && wallClockNs() - stopSeenNs > rankGraceNs) {
                    std::cerr << "isochron-run: stopped by signal " << stopSignal.load() << " while waiting on another rank"
                              << rankStopReason(stopSignal.load()) << std::endl;
                    std::_Exit(128 + stopSignal.load());
                }
                if (!onRanks && (stopSignalCount.load() > 1 || wallClockNs() - stopSeenNs > kStopGraceNs)) abandonRun();
            }
            if (stopSignal.load() == 0) drainTelemetry(50'000'000);
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    });
    if (!options.quiet) {
        status << "running " << (spec.name.empty() ? options.graphPath : spec.name) << " with scheduler "
               << scheduler.name;
        if (threads) status << ", " << threads->partitions() << " partitions on threads";
        status << " (Ctrl-C to stop)" << std::endl;
    }
    // Deactivated as the run ends, not when the engine goes: what the nodes say as they close (a
    // recording cut short, kept under another name) belongs in the summary and the report. Watched
    // like the run: a deactivate that does not return after a stop (a plugin hung there) is left behind.
    auto deactivateNodes = [&](RunOutcome& outcome) {
        for (int partition = 0; partition < (threads ? threads->partitions() : 1); ++partition) {
            for (NodeContext* node : (threads ? threads->engine(partition) : engine).nodes()) {
                if (node->op) node->op->deactivate();
                // Under --quiet too: without it the data just written is lost when it is moved or copied.
                if (options.quiet) {
                    for (const auto& warning : node->warnings) {
                        if (isDataAtRiskWarning(warning)) std::cerr << "isochron-run: warning: node '" << node->id << "': " << warning << "\n";
                    }
                }
            }
            const std::size_t failuresBefore = outcome.failures.size();
            (threads ? threads->engine(partition) : engine).addFailuresWhileStopping(outcome);
            // A deactivate that failed is named at once like a failure in any other hook, under --quiet
            // too (it was only in the summary, which --quiet leaves out).
            for (std::size_t f = failuresBefore; f < outcome.failures.size(); ++f) {
                bool seen = false;
                {
                    const std::lock_guard lock(failuresMutex);
                    seen = std::find(failuresSeen.begin(), failuresSeen.end(), outcome.failures[f]) != failuresSeen.end();
                }
                if (!seen) announceFailure(outcome.failures[f]);
            }
        }
    };
    RunOutcome outcome;
    // The watcher must end before a message is printed: a joinable thread destroyed would abort.
    const auto endWatcher = [&] {
        done.store(true);
        watcher.join();
    };
    try {
        outcome = threads ? threads->run() : engine.run();
        deactivateNodes(outcome);
    } catch (...) {
        endWatcher();
        throw;
    }
    endWatcher();
    if (stopSignal.load() != 0) writeNewestTelemetry();
    else drainTelemetry(0);
    RunSummary summary = threads ? threads->summary(outcome) : summarizeRun(engine, outcome);
    if (!options.quiet) {
        // The warnings first (a plugin's at deactivate, a recording cut short): the table is the run's last word.
        std::cerr << summary.problemsText(warningsShown) << std::flush;
        if (onRanks) status << "partition " << scaleOut.rank() << "\n";
        status << summary.toText() << (threads ? threads->channelsText() : scaleOut.channelsText()) << std::flush;
    }
    // Under mpirun the ranks tell each other how their runs ended before any writes its report.
    const std::string end = rankEnd(outcome);
    const nlohmann::ordered_json rankEnds = scaleOut.endRun(end, [] { return stopSignal.load() != 0; });
    bool writeFailed = false;
    if (options.reportPath) {
        nlohmann::ordered_json json = summary.toJson();
        if (scaleOut.ranks() > 1) {
            json["rank"] = scaleOut.rank();
            json["ranks"] = scaleOut.ranks();
            json["end"] = end;
            json["rank_ends"] = rankEnds;
            json["channels"] = scaleOut.channelsJson();
        }
        if (threads) {
            json["partitions"] = threads->partitions();
            json["channels"] = threads->channelsJson();
        }
        if (stoppedWhileStarting) json["stopped_while_starting"] = true;
        writeFailed = !writeReport(*options.reportPath, json);
    }
    scaleOut.reportWritten();
    if (!telemetryError.empty()) {
        std::cerr << "isochron-run: cannot write telemetry file " << *options.telemetryPath << ": " << telemetryError
                  << " (snapshots after the error are lost)\n";
        writeFailed = true;
    }
    if (writeFailed) return 1;
    // A node that failed on any rank gives every rank the status of a run whole with a failed node
    // (mpirun's own status is then 2 whichever rank it looks at); the failing rank named it.
    if (!outcome.failures.empty() || anyRankEndedWithFailedNode(rankEnds)) return 2;
    if (stopSignal.load() != 0 && onRanks && interruptedMpirun(stopSignal.load(), rankEnds)) {
        std::cerr << "isochron-run: stopped: mpirun was interrupted (Ctrl-C, or SIGTERM to mpirun), and every rank stopped with this one; no rank died\n";
        return 128 + SIGINT;  // as Ctrl-C gives a run alone
    }
    if (stopSignal.load() != 0 && onRanks) {
        std::cerr << "isochron-run: stopped by signal " << stopSignal.load() << rankStopReason(stopSignal.load()) << "\n";
    }
    return stopSignal.load() != 0 ? 128 + stopSignal.load() : 0;
}

}  // namespace

namespace {

/// Whether a report may be written to `path` before the run's files were checked against it (the
/// graph not validated yet): nothing is there, a device, or an earlier run's report. Any other file
/// may be one the run reads (the graph file, a recording), which the checks would have refused.
bool reportReplaceableUnchecked(const std::string& path) {
    std::error_code error;
    const std::filesystem::file_status status = std::filesystem::status(path, error);  // through symlinks
    if (!std::filesystem::exists(status)) return true;
    if (!std::filesystem::is_regular_file(status)) return std::filesystem::is_character_file(status) || std::filesystem::is_block_file(status);
    std::ifstream file(path, std::ios::binary);
    std::string start(256, '\0');
    file.read(start.data(), static_cast<std::streamsize>(start.size()));
    start.resize(static_cast<std::size_t>(file.gcount()));
    return start.find("\"isochron-run-report/1\"") != std::string::npos;
}

/// The exit status of a run that a stop signal ended before its engine was built (StartStopped from
/// validation or from the nodes' start): says so, and writes a report with no nodes (none ran), during
/// validation only where reportReplaceableUnchecked allows; under --check it says so only.
int endStartStopped(const run::RunOptions& options) {
    const int signal = stopSignal.load();
    if (options.checkOnly) {  // nothing ran, and --check writes no report
        if (!options.quiet) {
            std::cerr << "isochron-run: --check stopped by signal " << signal << " (" << stopSignalName(signal)
                      << ") while the graph was being validated: it was not checked to its end (run --check again)\n";
        }
        return 128 + signal;
    }
    if (!options.quiet) {
        std::cerr << "isochron-run: stopped by signal " << signal
                  << (graphBeingChecked.load() ? " while the graph was being validated" : " while the nodes were starting")
                  << ": the run stops before any data flows\n";
    }
    if (!options.reportPath) return 128 + signal;
    if (graphBeingChecked.load() && !reportReplaceableUnchecked(*options.reportPath)) {
        std::cerr << "isochron-run: report not written: " << *options.reportPath
                  << " is a file other than a run report, and the run stopped before its files were checked (it may be one the graph reads)\n";
        return 1;
    }
    return writeReport(*options.reportPath, startStoppedReport(options)) ? 128 + signal : 1;
}

int runMain(int argc, char** argv, run::ScaleOut& scaleOut) {
    run::RunOptions options;
    try {
        options = run::parseCommandLine(argc, argv);
    } catch (const std::exception& e) {
        return scaleOut.refuse(std::string("isochron-run: ") + e.what() + "\n");  // every rank alike (one command line)
    }
    if (options.reportPath) options.reportPath = scaleOut.rankPath(*options.reportPath);
    if (options.telemetryPath) options.telemetryPath = scaleOut.rankPath(*options.telemetryPath);
    if (options.help) {
        std::cout << run::usageText();
        return 0;
    }
    if (options.version) {
        std::cout << "isochron-run 0.1.0 (graph format " << kGraphFormat << ", plugin ABI " << ISOCHRON_ABI_VERSION << ")\n";
        return 0;
    }
    OperatorRegistry& registry = builtinRegistry();
    PluginHost plugins(registry);
    installPluginExitCatch();
    try {
        loadPlugins(plugins, options);
        refuseUnknownSandboxNames(plugins, options);
    } catch (const std::exception& e) {
        const std::string refusal = std::string("isochron-run: ") + e.what() + "\n";
        // Under mpirun the ranks agree when they would go on to the graph (a plugin may be refused on one host only).
        if (!options.graphPath.empty() && !options.listOperators) return scaleOut.refuse(refusal);
        std::cerr << refusal;
        return 1;
    }
    if (options.listPlugins) printPlugins(plugins, options);
    if (options.listOperators) printOperators(registry, options.graphPath);
    if (options.operatorReferencePath) {
        if (*options.operatorReferencePath == "-") {
            run::writeOperatorReference(registry, std::cout);
        } else {
            std::ofstream file(*options.operatorReferencePath);
            run::writeOperatorReference(registry, file);
            if (!file.flush()) {
                std::cerr << "isochron-run: cannot write " << *options.operatorReferencePath << "\n";
                return 1;
            }
        }
    }
    if (options.listSchedulers) printSchedulers();
    if (options.listDevices) {
        try {
            printDevices();
        } catch (const std::exception& e) {
            std::cerr << "isochron-run: " << e.what() << "\n";
            return 1;
        }
    }
    if (options.graphPath.empty() || options.listOperators) return 0;  // with --list-operators the word is a filter, not a graph
    if (!options.checkOnly) replaceClosedStandardOutput();
    try {
        return runGraphFile(options, registry, plugins, scaleOut);
    } catch (const run::RunRefusedOnRanks&) {
        return 1;  // said once already, by the rank that refused
    } catch (const StartStopped&) {
        return endStartStopped(options);
    } catch (const GraphException& e) {
        std::string refusal = "isochron-run: " + options.graphPath + " cannot run:\n";
        for (const auto& error : e.errors()) refusal += "  " + error.toString() + "\n";
        return scaleOut.refuse(refusal);
    } catch (const std::exception& e) {
        return scaleOut.refuse(std::string("isochron-run: ") + e.what() + "\n");
    }
}

}  // namespace

int main(int argc, char** argv) {
    standardOutputWasClosed = ::fcntl(STDOUT_FILENO, F_GETFD) == -1;
    isochron::keepStandardStreamsOpen();
    std::unique_ptr<run::ScaleOut> scaleOut;
    try {
        scaleOut = std::make_unique<run::ScaleOut>(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "isochron-run: " << e.what() << "\n";
        return 1;
    }
    if (scaleOut->ranks() > 1) run::printWholeLinesOfRank(scaleOut->rank());
    const int status = runMain(argc, argv, *scaleOut);
    return scaleOut->finish(status);
}
