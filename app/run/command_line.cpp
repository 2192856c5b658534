#include "app/run/command_line.h"

#include <map>
#include <stdexcept>
#include <string_view>

namespace isochron::run {

std::string usageText() {
    return R"(Usage: isochron-run GRAPH.isograph.json [options]

Runs a graph headless to the end of its sources (or until Ctrl-C) and prints, per output,
items, samples, throughput and latency.

Options:
  --scheduler NAME[:k=v,...]  scheduler to use (default: the graph file's), e.g. df, fifo,
                              fifo-slice:slice_us=28, rtc:burst=4 (see --list-schedulers)
  --set NODE.PARAM=VALUE      override a node parameter (repeatable); the text after '=' is the
                              value as it is, read by the parameter's type (a number, true/false,
                              a path relative to the working folder), without quotes: a value in
                              quotes that reached isochron-run ("x" or 'x') is refused
  --plugin FILE.so            load this plugin (repeatable); plugins are also loaded from the
                              folders of ISOCHRON_PLUGIN_PATH, ~/.local/share/isochron/plugins and
                              the installation's share/isochron/plugins (see --list-plugins)
  --sandbox[=NAME,...]        run every plugin's nodes (or those of the plugins named) each in a
                              process of its own: a crash, hang or abort() then disables that node
                              only, and the rest of the graph runs to the end (a NAME that is no
                              loaded plugin's file name without .so is refused)
  --watchdog SECONDS          sandboxed: the longest one call into a plugin may take before its
                              process is killed (refused without --sandbox). The whole graph waits
                              for a hung call, so by default it is half the least headroom of the
                              graph's live sources (a paced source's max_lag, a capture's buffer;
                              0.25 s at least), and 10 s without live sources (activate and
                              deactivate, while no source streams: 10 s); a longer one is
                              warned about at start (the live source would drop data)
  --report FILE.json          write the run report as JSON (a regular file or device; a named pipe
                              and '-' are refused: the report is a file, not standard output)
  --telemetry FILE.jsonl      write live telemetry snapshots (isochron-telemetry/1), one per line
                              (a regular file or device; a named pipe and '-' are refused)
  --telemetry-rate HZ         snapshots per second, 1-1000 (default 30; refused without --telemetry)
  --partitions whole|threads  without mpirun, how a graph with partitions runs: whole on one engine
                              thread (default), or each partition that holds nodes on a thread of its
                              own in this process, with its own engine and scheduler, edges between
                              partitions becoming in-process channels (docs/scale-out.md)
  --channel-credits N         messages (segments, events, progress) one channel between ranks, or
                              between partitions on threads, may have in flight before its sender
                              waits (default 8, 1-4096; docs/scale-out.md)
  --check                     validate the graph, say what starting its nodes would (a sound file
                              holding only a header, a missing capture device), warn about runs
                              that can never end, and exit
  --quiet                     print nothing but errors, and warnings that data just written needs
                              your action to stay whole (a recording whole only with its -wal file)
                              (when a sink writes to standard output, '-', the runner's own lines
                              go to standard error, so it holds the sink's data only)
  --list-operators [WORD]     list every operator type with its ports and parameters (with WORD:
                              those whose name, summary or documentation mentions it, e.g. lowpass)
  --operator-reference FILE   write the built-in operators' reference as Markdown (docs/operators.md;
                              - = standard output)
  --list-schedulers           list schedulers and their parameters
  --list-devices              list audio input and output devices (capture.audio_input's, io.audio_output's device)
  --list-plugins              list the plugins found, their operators and item types, and where
                              they were looked for
  --version                   print the version
  -h, --help                  this text

An option that takes one value (all but --set, --plugin and --sandbox) may be given once.

Under mpirun -np N, rank k runs the nodes of partition k (the nodes' "partition" field) and edges
between partitions become MPI channels; each rank prints its own summary and writes --report and
--telemetry files with ".rankK" before the extension (docs/scale-out.md). With --partitions threads
(no mpirun) each partition that holds nodes runs on a thread instead (partitions 0, 2 and 1000 make
three threads), and the summary and report list every node once.

Exit status: 0 success, 1 bad usage, invalid graph, a --plugin refused, or the report or telemetry
could not be written, 2 a node failed while running (the message, printed when it fails, names it and
its plugin file if it has one; sources that fed only failed nodes are stopped, the rest of the graph
runs to its end; under mpirun also a rank stopped by another rank's failure), 128 + the signal when
stopped by one (130 Ctrl-C, also on every rank when mpirun was interrupted and no rank died, 143 SIGTERM,
129 SIGHUP, 140 SIGUSR2, which mpirun forwards to every rank as it is: the clean stop of a run on ranks; --check
stopped by a signal says so and exits the same way, 141 standard
output closed, its reader gone or closed with >&-, while a sink writes its data there; when no sink writes
standard output, its loss only drops the runner's own lines and the run goes on). The report is written
in all these cases once the nodes have started (exit 0, 2, 128 + the signal, and 1 when the telemetry could
not be written); an exit 1 before that (bad usage, an invalid graph, a refused plugin or output path, a node
that cannot start, e.g. its file cannot be opened) writes none; under mpirun the ranks agree on such a
refusal before any runs: it is printed once, no rank writes a report, and every rank exits 1. A node whose call does not return after a stop request (a write to a pipe nobody
reads, a hung in-process plugin, also in its create or activate hook) is left behind after 3 s, or at once on a second signal: the report
then holds the figures of that moment and an "abandoned" field naming the call that did not return
(the node and its operator type, and a plugin's file and hook). No report is written
when the process itself dies: an in-process plugin that crashes (segfault, abort) ends it with the
signal's status (139, 134, ...), or SIGKILL; --sandbox turns such a crash or hang into a failure of its
node only (exit 2, report written), and a sandboxed call still running 0.5 s after a stop request too
(its process is killed; the node, plugin and hook are named in the report's "failures").
)";
}

namespace {

/// `assignment` ("node.param=value") unless its value is wrapped in quotes ("..." or '...'), which
/// only reach isochron-run when the shell kept them: --set takes the text after '=' as it is, so a
/// quoted path would name a file with quotes in its name, and a quoted number is no number.
std::string refuseQuotedValue(std::string assignment) {
    const std::size_t equals = assignment.find('=');
    if (equals == std::string::npos) return assignment;
    const std::string_view value = std::string_view(assignment).substr(equals + 1);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
        throw std::invalid_argument("--set " + assignment + ": the value is in quotes, which --set would keep as part of it (it takes the text "
                                    "after '=' as it is): give it without them, quoting the whole argument for the shell if it holds "
                                    "spaces, e.g. --set 'out.path=my file.wav'");
    }
    return assignment;
}

}  // namespace

RunOptions parseCommandLine(int argc, char** argv) {
    RunOptions options;
    // Options that take one value, with the value given: a second one is refused rather than
    // silently replacing the first (a report written where the user did not look).
    std::map<std::string, std::string, std::less<>> singleValues;
    auto needValue = [&](int& i, std::string_view flag) -> std::string {
        if (i + 1 >= argc) throw std::invalid_argument(std::string(flag) + " needs a value");
        return argv[++i];
    };
    auto needSingleValue = [&](int& i, std::string_view flag) -> std::string {
        std::string value = needValue(i, flag);
        const auto [given, first] = singleValues.try_emplace(std::string(flag), value);
        if (!first) throw std::invalid_argument(std::string(flag) + " given twice (" + given->second + " and " + value + "): give it once");
        return value;
    };
    // The report and telemetry are files the runner writes and closes itself; "-" is no file.
    auto needOutputFile = [&](int& i, std::string_view flag) -> std::string {
        std::string value = needSingleValue(i, flag);
        if (value.empty()) throw std::invalid_argument(std::string(flag) + " was given an empty file name (''): give the file to write");
        if (value == "-") {
            throw std::invalid_argument(std::string(flag) + " -: it is written to a file, not to standard output (which holds the summary or a " +
                                        "sink's data); give a file name (./- for a file named '-')");
        }
        return value;
    };
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg == "--scheduler") options.scheduler = needSingleValue(i, arg);
        else if (arg == "--set") options.overrides.push_back(refuseQuotedValue(needValue(i, arg)));
        else if (arg == "--plugin") options.plugins.push_back(needValue(i, arg));
        else if (arg == "--sandbox") options.sandboxAll = true;
        else if (arg.starts_with("--sandbox=")) {
            std::string_view names = arg.substr(std::string_view("--sandbox=").size());
            while (!names.empty()) {
                const std::size_t comma = names.find(',');
                if (comma != 0) options.sandboxed.emplace_back(names.substr(0, comma));
                names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 1);
            }
            if (options.sandboxed.empty()) throw std::invalid_argument("--sandbox= needs plugin names, e.g. --sandbox=biquad,tones");
        }
        else if (arg == "--watchdog") {
            std::string value = needSingleValue(i, arg);
            try {
                options.watchdogSeconds = std::stod(value);
            } catch (const std::exception&) {
                throw std::invalid_argument("--watchdog needs a number of seconds, got '" + value + "'");
            }
            if (!(*options.watchdogSeconds >= 0.01 && *options.watchdogSeconds <= 86400)) {
                throw std::invalid_argument("--watchdog must be between 0.01 and 86400 s");
            }
        }
        else if (arg == "--report") options.reportPath = needOutputFile(i, arg);
        else if (arg == "--telemetry") options.telemetryPath = needOutputFile(i, arg);
        else if (arg == "--telemetry-rate") {
            std::string value = needSingleValue(i, arg);
            try {
                options.telemetryRate = std::stod(value);
            } catch (const std::exception&) {
                throw std::invalid_argument("--telemetry-rate needs a number of Hz, got '" + value + "'");
            }
            if (!(options.telemetryRate >= 1 && options.telemetryRate <= 1000)) {
                throw std::invalid_argument("--telemetry-rate must be between 1 and 1000 Hz");
            }
        }
        else if (arg == "--channel-credits") {
            std::string value = needSingleValue(i, arg);
            std::size_t used = 0;
            try {
                options.channelCredits = std::stoi(value, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != value.size() || options.channelCredits < 1 || options.channelCredits > 4096) {
                throw std::invalid_argument("--channel-credits needs a whole number from 1 to 4096, got '" + value + "'");
            }
        }
        else if (arg == "--partitions") {
            const std::string value = needSingleValue(i, arg);
            if (value != "whole" && value != "threads") throw std::invalid_argument("--partitions needs 'whole' or 'threads', got '" + value + "'");
            options.partitionsOnThreads = value == "threads";
        }
        else if (arg == "--check") options.checkOnly = true;
        else if (arg == "--quiet" || arg == "-q") options.quiet = true;
        else if (arg == "--list-operators") options.listOperators = true;
        else if (arg == "--operator-reference") options.operatorReferencePath = needSingleValue(i, arg);
        else if (arg == "--list-schedulers") options.listSchedulers = true;
        else if (arg == "--list-devices") options.listDevices = true;
        else if (arg == "--list-plugins") options.listPlugins = true;
        else if (arg == "--version") options.version = true;
        else if (arg == "--help" || arg == "-h") options.help = true;
        else if (!arg.empty() && arg[0] == '-') throw std::invalid_argument("unknown option " + std::string(arg));
        else if (options.graphPath.empty()) options.graphPath = arg;
        else throw std::invalid_argument("more than one graph given: " + options.graphPath + " and " + std::string(arg));
    }
    bool listing = options.listOperators || options.operatorReferencePath || options.listSchedulers || options.listDevices || options.listPlugins || options.help ||
                   options.version;
    if (options.graphPath.empty() && !listing) throw std::invalid_argument("no graph file given (try --help)");
    if (singleValues.contains("--watchdog") && !options.sandboxAll && options.sandboxed.empty()) {
        throw std::invalid_argument("--watchdog times the calls into sandboxed plugins only, and none is: give --sandbox (or --sandbox=NAME) "
                                    "too, or leave --watchdog out (an in-process plugin's hang is left behind 3 s after a stop)");
    }
    if (singleValues.contains("--telemetry-rate") && !options.telemetryPath) {
        throw std::invalid_argument("--telemetry-rate sets how often the snapshots of --telemetry are taken, and no --telemetry file is given: "
                                    "give --telemetry FILE.jsonl too, or leave --telemetry-rate out");
    }
    return options;
}

}  // namespace isochron::run
