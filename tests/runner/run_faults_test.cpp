// isochron-run under faults a user meets: output paths that would destroy an input or cannot be
// written (refused before the run), write errors (a full disk: reported, non-zero exit), the run ended
// by a hang-up or a closed standard output (the report is still written), node errors kept off
// standard output and printed when they happen, a failed sink ending the sources that fed only it, sound file sinks given a symlink, a device or "-", --check warning about runs
// that can never end, and --check stopped by a signal.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <csignal>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>
#include <thread>
#include <tuple>
#include <vector>
#include <nlohmann/json.hpp>
#include <sndfile.h>

#include "engine/schedulers/scheduler.h"
#include "tests/support/test_files.h"

namespace fs = std::filesystem;

using isochron::test::readText;

namespace {

// Per process: several copies of the suite (other checkouts' builds) may run on one machine at once.
fs::path tempPath(const std::string& name) { return fs::temp_directory_path() / ("isochron-run-faults-" + std::to_string(getpid()) + "-" + name); }

// A graph file: a sine generator (`seconds` long, 0 = forever, unpaced) into a WAV sink at `wavPath`.
fs::path writeGraph(const std::string& name, double seconds, const std::string& wavPath) {
    const fs::path path = tempPath(name + ".isograph.json");
    std::ofstream(path) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": )"
                        << seconds << R"(, "block": 400}},
      {"id": "wav", "type": "io.wav_file_sink", "params": {"path": ")" << wavPath << R"("}}],
      "edges": [{"from": "gen.out", "to": "wav.in0"}]})";
    return path;
}

// A graph file: a mono sound file at `inPath` into WAV sinks at each of `outPaths` (a, b, ...).
fs::path writeCopyGraph(const std::string& name, const std::string& inPath, const std::vector<std::string>& outPaths) {
    const fs::path path = tempPath(name + ".isograph.json");
    std::ofstream graph(path);
    graph << R"({"format": "isochron-graph/1", "nodes": [{"id": "src", "type": "io.audio_file_source", "params": {"path": ")" << inPath
          << R"(", "channels": 1}})";
    for (std::size_t i = 0; i < outPaths.size(); ++i) {
        graph << R"(, {"id": ")" << char('a' + i) << R"(", "type": "io.wav_file_sink", "params": {"path": ")" << outPaths[i] << R"("}})";
    }
    graph << R"(], "edges": [)";
    for (std::size_t i = 0; i < outPaths.size(); ++i) graph << (i ? ", " : "") << R"({"from": "src.out0", "to": ")" << char('a' + i) << R"(.in0"})";
    graph << "]}";
    return path;
}

// A mono 8 kHz WAV of `frames` frames of a ramp.
void writeWav(const fs::path& path, int frames) {
    SF_INFO info{};
    info.samplerate = 8000;
    info.channels = 1;
    info.format = SF_FORMAT_WAV | SF_FORMAT_PCM_16;
    SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
    REQUIRE(file);
    std::vector<float> samples(static_cast<std::size_t>(frames));
    for (int i = 0; i < frames; ++i) samples[static_cast<std::size_t>(i)] = static_cast<float>(i % 100) / 200.0f;
    sf_writef_float(file, samples.data(), frames);
    sf_close(file);
}

// The partial files of sound file sinks writing `target` ("<name>.<pid>.partial" beside it), sorted.
std::vector<fs::path> partialsOf(const fs::path& target) {
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(target.parent_path())) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with(target.filename().string() + ".") && name.ends_with(".partial")) found.push_back(entry.path());
    }
    std::sort(found.begin(), found.end());
    return found;
}

// Waits until the run `pid` has written more than a WAV header into its partial file of `target`
// (the child's alarm ends a run that stalled instead).
fs::path waitForPartialGrowing(const fs::path& target, pid_t pid) {
    const fs::path partial = target.string() + "." + std::to_string(pid) + ".partial";
    std::error_code ignored;
    while (!fs::exists(partial, ignored) || fs::file_size(partial, ignored) <= 4096) {
        int raw = 0;
        if (waitpid(pid, &raw, WNOHANG) == pid) FAIL("the run ended before its partial file " << partial << " grew");
        usleep(1000);
    }
    return partial;
}

// Waits until the run `pid` has written `lines` lines into `path` (the child's alarm ends a run that
// stalled; one that ended, or never wrote `path`, fails the test).
void waitForLines(const fs::path& path, std::int64_t lines, pid_t pid) {
    for (;;) {
        const std::string text = readText(path);
        if (std::count(text.begin(), text.end(), '\n') >= lines) return;
        int raw = 0;
        if (waitpid(pid, &raw, WNOHANG) == pid) FAIL("the run ended before " << path << " held " << lines << " lines");
        usleep(1000);
    }
}

// A child isochron-run: standard output to `stdoutFd` (closed when -1), standard error to the file `stderrPath`.
pid_t startRun(const std::vector<std::string>& arguments, int stdoutFd, const fs::path& stderrPath, const std::function<void()>& inChild = {}) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        if (inChild) inChild();  // what the run inherits: ignored signals, limits
        alarm(120);  // a run that hangs (a sink blocked on a pipe) ends the test instead of stalling it
        const int err = ::open(stderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (stdoutFd < 0) ::close(STDOUT_FILENO);
        if (err < 0 || (stdoutFd >= 0 && dup2(stdoutFd, STDOUT_FILENO) < 0) || dup2(err, STDERR_FILENO) < 0) _exit(127);
        std::vector<char*> argv{const_cast<char*>(ISOCHRON_RUN_BINARY)};
        for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(ISOCHRON_RUN_BINARY, argv.data());
        _exit(127);
    }
    return pid;
}

// Exit status, or 1000 + the signal that killed it.
int waitFor(pid_t pid) {
    int raw = 0;
    REQUIRE(waitpid(pid, &raw, 0) == pid);
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : 1000 + WTERMSIG(raw);
}

struct Finished {
    int status;
    std::string out, err;
};

// Run to the end with standard output and standard error captured separately.
Finished run(const std::vector<std::string>& arguments) {
    const fs::path out = tempPath("stdout"), err = tempPath("stderr");
    const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    REQUIRE(fd >= 0);
    const int status = waitFor(startRun(arguments, fd, err));
    ::close(fd);
    Finished finished{status, readText(out), readText(err)};
    fs::remove(out);
    fs::remove(err);
    return finished;
}

// Frames of a sound file, or -1 when libsndfile cannot read it.
sf_count_t framesOf(const fs::path& path) {
    SF_INFO info{};
    SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
    if (!file) return -1;
    sf_close(file);
    return info.frames;
}

/// Writes `graph`: a paced tuple source (1000 items/s) into an io.csv_sink at `csv` and an
/// io.jsonl_event_sink at `lines`.
void writeTextSinksGraph(const fs::path& graph, const fs::path& csv, const fs::path& lines) {
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "src", "type": "workload.tuple_source", "params": {"rate": 1000, "pace": 1}},
      {"id": "csv", "type": "io.csv_sink", "params": {"path": ")" << csv.string() << R"("}},
      {"id": "log", "type": "io.jsonl_event_sink", "params": {"path": ")" << lines.string() << R"("}}],
      "edges": [{"from": "src.out0", "to": "csv.in0"}, {"from": "src.out0", "to": "log.in"}]})";
}

}  // namespace

TEST_CASE("output paths are checked before the run: the graph file, each other, unwritable folders", "[runner][faults]") {
    const fs::path wav = tempPath("checked.wav");
    fs::remove(wav);
    const fs::path graph = writeGraph("checked", 0.5, wav.string());
    const std::string graphText = readText(graph);
    SECTION("a report over the graph file") {
        Finished r = run({graph.string(), "--report", graph.string()});
        CHECK(r.status == 1);
        CHECK(r.err.find("is the graph file itself") != std::string::npos);
    }
    SECTION("telemetry over the graph file, through another spelling of its path") {
        Finished r = run({graph.string(), "--telemetry", (graph.parent_path() / "." / graph.filename()).string()});
        CHECK(r.status == 1);
        CHECK(r.err.find("is the graph file itself") != std::string::npos);
    }
    SECTION("report and telemetry on one file") {
        const fs::path both = tempPath("both.json");
        Finished r = run({graph.string(), "--report", both.string(), "--telemetry", both.string()});
        CHECK(r.status == 1);
        CHECK(r.err.find("name the same file") != std::string::npos);
        CHECK_FALSE(fs::exists(both));
    }
    SECTION("report and telemetry on one new file, named relative and as ./relative") {
        // weakly_canonical left "x.json" relative and made "./x.json" absolute: the report replaced
        // the telemetry at the end of the run.
        const std::string name = "isochron-run-faults-" + std::to_string(getpid()) + "-relative.json";
        Finished r = run({graph.string(), "--report", name, "--telemetry", "./" + name});
        CHECK(r.status == 1);
        CHECK(r.err.find("name the same file") != std::string::npos);
        CHECK_FALSE(fs::exists(name));
    }
    SECTION("a report in a folder that does not exist") {
        Finished r = run({graph.string(), "--report", tempPath("no-such-folder/report.json").string()});
        CHECK(r.status == 1);
        CHECK(r.err.find("cannot write report") != std::string::npos);
        CHECK(r.err.find("No such file or directory") != std::string::npos);
    }
    // Refused before anything ran: the graph is intact and its sink wrote nothing.
    CHECK(readText(graph) == graphText);
    CHECK_FALSE(fs::exists(wav));
    fs::remove(graph);
}

TEST_CASE("no output may replace a subgraph file or a plugin the run reads, by any name", "[runner][faults]") {
    // Each ran with exit 0 and replaced the file: the graph then no longer loaded, or the plugin was gone.
    const fs::path folder = tempPath("inputs");
    fs::remove_all(folder);
    fs::create_directories(folder);
    const fs::path subgraph = folder / "sub.isograph.json";
    std::ofstream(subgraph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0.5, "block": 400}}],
      "edges": [], "interface": {"outputs": {"out": "gen.out"}}})";
    const std::string subgraphText = readText(subgraph);
    auto writeMain = [&](const std::string& wavPath) {
        const fs::path graph = folder / "main.isograph.json";
        std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [{"id": "s", "subgraph": "sub.isograph.json"},
          {"id": "wav", "type": "io.wav_file_sink", "params": {"path": ")" << wavPath << R"("}}],
          "edges": [{"from": "s.out", "to": "wav.in0"}]})";
        return graph;
    };
    SECTION("a sink over the subgraph file, also under --check") {
        const fs::path graph = writeMain("sub.isograph.json");
        for (const char* mode : {"--quiet", "--check"}) {
            INFO(mode);
            const Finished r = run({graph.string(), mode});
            CHECK(r.status == 1);
            CHECK(r.err.find("node 'wav' writes (parameter 'path') " + subgraph.string() + ", the subgraph file " + subgraph.string() +
                             " the graph includes: it would be overwritten") != std::string::npos);
        }
    }
    SECTION("--report and --telemetry over the subgraph file, through another spelling of its path") {
        const fs::path graph = writeMain((folder / "out.wav").string());
        for (const char* option : {"--report", "--telemetry"}) {
            INFO(option);
            const Finished r = run({graph.string(), option, (folder / "." / "sub.isograph.json").string()});
            CHECK(r.status == 1);
            CHECK(r.err.find(" is the subgraph file " + subgraph.string() + " the graph includes: it would be overwritten") != std::string::npos);
        }
        CHECK_FALSE(fs::exists(folder / "out.wav"));
    }
    SECTION("--report over a loaded plugin or its manifest; a sink over the plugin") {
        // A copy: the build's plugin stays whole even when the check fails.
        const fs::path plugin = folder / "pass_through.so", manifest = folder / "pass_through.manifest.json";
        fs::copy_file(ISOCHRON_PASS_THROUGH_PLUGIN, plugin);
        fs::copy_file(fs::path(ISOCHRON_PASS_THROUGH_PLUGIN).replace_extension(".manifest.json"), manifest);
        const std::string pluginBytes = readText(plugin), manifestText = readText(manifest);
        const fs::path graph = writeMain((folder / "out.wav").string());
        Finished r = run({graph.string(), "--plugin", plugin.string(), "--report", plugin.string()});
        CHECK(r.status == 1);
        CHECK(r.err.find("--report " + plugin.string() + " is the plugin " + plugin.string() + " the run loads: it would be overwritten") != std::string::npos);
        r = run({graph.string(), "--plugin", plugin.string(), "--telemetry", manifest.string()});
        CHECK(r.status == 1);
        CHECK(r.err.find("--telemetry " + manifest.string() + " is the manifest " + manifest.string() +
                         " of the plugin pass_through.so the run loads: it would be overwritten") != std::string::npos);
        r = run({writeMain(plugin.string()).string(), "--plugin", plugin.string(), "--check"});
        CHECK(r.status == 1);
        CHECK(r.err.find("node 'wav' writes (parameter 'path') " + plugin.string() + ", the plugin " + plugin.string() + " the run loads") !=
              std::string::npos);
        CHECK(readText(plugin) == pluginBytes);
        CHECK(readText(manifest) == manifestText);
        CHECK_FALSE(fs::exists(folder / "out.wav"));
    }
    CHECK(readText(subgraph) == subgraphText);
    fs::remove_all(folder);
}

TEST_CASE("output paths are checked against the files nodes read and write, before the run", "[runner][faults]") {
    // Each of these ran and overwrote the file with exit 0.
    const fs::path in = tempPath("copy-in.wav"), out = tempPath("copy-out.wav");
    fs::remove(out);
    writeWav(in, 800);
    SECTION("a report over the input a source reads") {
        const fs::path graph = writeCopyGraph("report-over-input", in.string(), {out.string()});
        Finished r = run({graph.string(), "--report", in.string()});
        CHECK(r.status == 1);
        CHECK(r.err.find("--report " + in.string() + " is the file node 'src' reads (parameter 'path'): it would be overwritten") != std::string::npos);
        CHECK_FALSE(fs::exists(out));
        fs::remove(graph);
    }
    SECTION("telemetry over a sink's output, through another spelling of its path") {
        const fs::path graph = writeCopyGraph("telemetry-over-output", in.string(), {out.string()});
        Finished r = run({graph.string(), "--telemetry", (out.parent_path() / "." / out.filename()).string()});
        CHECK(r.status == 1);
        CHECK(r.err.find("is the file node 'a' writes (parameter 'path')") != std::string::npos);
        CHECK_FALSE(fs::exists(out));
        fs::remove(graph);
    }
    SECTION("a sink over the graph file, also under --check") {
        const fs::path graph = tempPath("sink-over-graph.isograph.json");
        fs::rename(writeCopyGraph("sink-over-graph-draft", in.string(), {graph.string()}), graph);
        const std::string graphText = readText(graph);
        for (const char* mode : {"--quiet", "--check"}) {
            INFO(mode);
            Finished r = run({graph.string(), mode});
            CHECK(r.status == 1);
            CHECK(r.err.find("node 'a' writes (parameter 'path') " + graph.string() + ", the graph file itself: it would be overwritten") !=
                  std::string::npos);
            CHECK(readText(graph) == graphText);
        }
        fs::remove(graph);
    }
    SECTION("two sinks on one file, also under --check") {
        // The run failed at the end ("cannot rename ... .partial") and one output was lost.
        const fs::path graph = writeCopyGraph("two-sinks", in.string(), {out.string(), out.string()});
        for (const char* mode : {"--quiet", "--check"}) {
            INFO(mode);
            Finished r = run({graph.string(), mode});
            CHECK(r.status == 1);
            CHECK(r.err.find("node 'a' writes (parameter 'path') " + out.string() + " and node 'b' writes (parameter 'path') " + out.string() +
                             ": one file, each would clobber the other") != std::string::npos);
            CHECK_FALSE(fs::exists(out));
        }
        fs::remove(graph);
    }
    SECTION("a sink over the file a source reads, also through a symlink and under --check") {
        // The sink's file replaced the input at the end of the run, exit 0 (an archive became a WAV).
        const fs::path link = tempPath("copy-in-link.wav");
        fs::remove(link);
        fs::create_symlink(in, link);
        for (const fs::path& over : {in, link}) {
            const fs::path graph = writeCopyGraph("sink-over-input", in.string(), {over.string()});
            for (const char* mode : {"--quiet", "--check"}) {
                INFO(over << " " << mode);
                Finished r = run({graph.string(), mode});
                CHECK(r.status == 1);
                CHECK(r.err.find("node 'a' writes (parameter 'path') " + over.string() + ", the file node 'src' reads (parameter 'path') " +
                                 in.string() + ": the input would be overwritten") != std::string::npos);
            }
            fs::remove(graph);
        }
        fs::remove(link);
    }
    SECTION("two sinks on one file that does not exist yet, one through a dangling symlink to it") {
        // --check said valid; the run lost one output ("cannot rename ... .partial", exit 2).
        const fs::path link = tempPath("copy-out-link.wav");
        fs::remove(link);
        fs::create_symlink(out, link);
        const fs::path graph = writeCopyGraph("two-sinks-link", in.string(), {out.string(), link.string()});
        for (const char* mode : {"--quiet", "--check"}) {
            INFO(mode);
            Finished r = run({graph.string(), mode});
            CHECK(r.status == 1);
            CHECK(r.err.find("node 'a' writes (parameter 'path') " + out.string() + " and node 'b' writes (parameter 'path') " + link.string() +
                             ": one file, each would clobber the other") != std::string::npos);
            CHECK_FALSE(fs::exists(out));
        }
        fs::remove(graph);
        fs::remove(link);
    }
    CHECK(framesOf(in) == 800);  // the input is intact whatever was refused
    fs::remove(in);
    fs::remove(out);
}

TEST_CASE("--check warns about a run that can never end, naming the node and the file it fills", "[runner][faults]") {
    const fs::path forever = writeGraph("forever", 0, tempPath("forever.wav").string());
    Finished endless = run({forever.string(), "--check"});
    CHECK(endless.status == 0);  // still a valid graph: running until Ctrl-C may be what the user wants
    CHECK(endless.out.find("valid (2 nodes)") != std::string::npos);
    CHECK(endless.err.find("isochron-run: warning: node 'gen': produces without end (duration is 0): the run ends only when stopped (Ctrl-C), "
                           "and until then 'wav' (" + tempPath("forever.wav").string() + ") grows without bound") != std::string::npos);
    const fs::path finite = writeGraph("finite", 0.5, tempPath("finite.wav").string());
    Finished ends = run({finite.string(), "--check"});
    CHECK(ends.status == 0);
    CHECK(ends.err.empty());
    CHECK_FALSE(fs::exists(tempPath("forever.wav")));  // --check runs nothing
    fs::remove(forever);
    fs::remove(finite);
}

TEST_CASE("a duration that never ends in practice is warned about, at --check and as the run starts, as duration 0 is", "[runner][faults]") {
    // duration 1e308 ran for ever with no word (the generator counts it as endless); so would a
    // real-time signal of more than a century.
    const fs::path graph = writeGraph("huge-duration", 1e308, "/dev/null");
    const Finished check = run({graph.string(), "--check"});
    CHECK(check.status == 0);
    CHECK(check.err.find("isochron-run: warning: node 'gen': produces without end (duration 1e+308 s at 8000 Hz is more samples than a stream "
                         "counts (9e18), so it never ends): the run ends only when stopped (Ctrl-C)") != std::string::npos);
    const Finished century = run({graph.string(), "--check", "--set", "gen.duration=4e9", "--set", "gen.pace=1"});
    CHECK(century.err.find("node 'gen': produces without end (duration 4e+09 s at pace 1 takes more than a century)") != std::string::npos);
    // Unpaced the same duration is 3.2e13 samples, which end; paced, 95 years end too (as far as a warning goes).
    CHECK(run({graph.string(), "--check", "--set", "gen.duration=4e9"}).err.empty());
    CHECK(run({graph.string(), "--check", "--set", "gen.duration=3e9", "--set", "gen.pace=1"}).err.empty());
    // The run says it before it starts, as for duration 0: wait for the warning, then stop it.
    const fs::path err = tempPath("huge-duration-stderr");
    const int out = ::open("/dev/null", O_WRONLY);
    REQUIRE(out >= 0);
    const pid_t pid = startRun({graph.string()}, out, err);
    ::close(out);
    while (readText(err).find("node 'gen': produces without end (duration 1e+308 s") == std::string::npos) {
        int raw = 0;
        if (waitpid(pid, &raw, WNOHANG) == pid) FAIL("the run ended without the warning: " << readText(err));
        usleep(1000);
    }
    REQUIRE(kill(pid, SIGINT) == 0);
    CHECK(waitFor(pid) == 128 + SIGINT);
    fs::remove(err);
    fs::remove(graph);
}

// Whether the process `pid` runs isochron-run (the child forked from this suite has exec'd it) with a
// handler in place for `signal` (its SigCgt mask in /proc/PID/status).
bool catchesSignal(pid_t pid, int signal) {
    std::error_code error;
    if (fs::read_symlink("/proc/" + std::to_string(pid) + "/exe", error) != fs::canonical(ISOCHRON_RUN_BINARY)) return false;
    std::istringstream status(readText("/proc/" + std::to_string(pid) + "/status"));
    for (std::string line; std::getline(status, line);) {
        if (line.starts_with("SigCgt:")) return (std::stoull(line.substr(7), nullptr, 16) >> (signal - 1) & 1) != 0;
    }
    return false;
}

TEST_CASE("--check stopped by Ctrl-C or SIGTERM while it validates says so and leaves with the run's status", "[runner][faults]") {
    // --check died by the signal with no word (a shell saw "Interrupted"), where a run says it was
    // stopped while the graph was being validated. A chain of 50 000 nodes takes seconds to check.
    constexpr int kNodes = 50'000;
    const fs::path graph = tempPath("check-stopped.isograph.json");
    {
        std::ofstream file(graph);
        file << R"({"format": "isochron-graph/1", "nodes": [{"id": "gen", "type": "generators.signal_generator"})";
        for (int i = 0; i < kNodes; ++i) file << R"(, {"id": "p)" << i << R"(", "type": "segments.pass_through"})";
        file << R"(, {"id": "out", "type": "io.null_sink"}], "edges": [{"from": "gen.out", "to": "p0.in"})";
        for (int i = 1; i < kNodes; ++i) file << R"(, {"from": "p)" << i - 1 << R"(.out", "to": "p)" << i << R"(.in"})";
        file << R"(, {"from": "p)" << kNodes - 1 << R"(.out", "to": "out.in"}]})";
    }
    for (const int signal : {SIGINT, SIGTERM}) {
        INFO("signal " << signal);
        const fs::path out = tempPath("check-stopped-stdout"), err = tempPath("check-stopped-stderr");
        const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        REQUIRE(fd >= 0);
        const pid_t pid = startRun({graph.string(), "--check"}, fd, err);
        ::close(fd);
        // Once its handlers are in place (they come before the graph is read), the check is validating.
        int raw = 0;
        pid_t ended = 0;
        while (!catchesSignal(pid, signal) && (ended = waitpid(pid, &raw, WNOHANG)) == 0) usleep(1000);
        if (ended == pid) FAIL("--check ended with no handler for the signal in place: " << readText(out) << readText(err));
        REQUIRE(kill(pid, signal) == 0);
        CHECK(waitFor(pid) == 128 + signal);
        const std::string errors = readText(err);
        INFO(errors);
        CHECK(errors.find("isochron-run: --check stopped by signal " + std::to_string(signal)) != std::string::npos);
        CHECK(errors.find("while the graph was being validated: it was not checked to its end") != std::string::npos);
        CHECK(readText(out).find("valid") == std::string::npos);
        fs::remove(out);
        fs::remove(err);
    }
    fs::remove(graph);
}

// The lines of `text` that name node `id`.
std::vector<std::string> linesNaming(const std::string& text, const std::string& id) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.find("node '" + id + "'") != std::string::npos) lines.push_back(line);
    }
    return lines;
}

TEST_CASE("--check says what the run says about a WAV holding a header only or cut short, and a missing capture device",
          "[runner][faults]") {
    // --check called these graphs valid with no word, although the run warns (the WAVs) or refuses (the device).
    const fs::path whole = tempPath("whole.wav"), headerOnly = tempPath("header-only.wav"), cutShort = tempPath("cut-short.wav");
    writeWav(whole, 1000);
    writeWav(headerOnly, 0);
    const std::string bytes = readText(whole);
    std::ofstream(cutShort, std::ios::binary) << bytes.substr(0, bytes.size() - 1000);  // half the samples its header announces
    for (const fs::path& wav : {headerOnly, cutShort}) {
        INFO(wav);
        const fs::path graph = writeCopyGraph("check-wav", wav.string(), {"/dev/null"});
        const Finished check = run({graph.string(), "--check"});
        const Finished ran = run({graph.string()});
        CHECK(check.status == 0);
        CHECK(ran.status == 0);
        const std::vector<std::string> warned = linesNaming(ran.err, "src");
        REQUIRE(warned.size() == 1);
        CHECK_THAT(warned[0], Catch::StartsWith("isochron-run: warning: node 'src': '" + wav.string() + "'"));
        CHECK(linesNaming(check.err, "src") == warned);
        fs::remove(graph);
    }
    const fs::path capture = tempPath("capture.isograph.json");
    std::ofstream(capture) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "mic", "type": "capture.audio_input", "params": {"device": "no-such-array-here", "duration": 1}},
      {"id": "out", "type": "io.null_sink"}], "edges": [{"from": "mic.out0", "to": "out.in"}]})";
    const Finished check = run({capture.string(), "--check"});
    const Finished ran = run({capture.string()});
    CHECK(ran.status == 1);
    CHECK(check.status == ran.status);
    const std::vector<std::string> refused = linesNaming(ran.err, "mic");
    REQUIRE(refused.size() == 1);
    CHECK_THAT(refused[0], Catch::Contains("node 'mic': cannot start: no input device named 'no-such-array-here'"));
    CHECK(linesNaming(check.err, "mic") == refused);
    CHECK(check.out.find("valid") == std::string::npos);
    for (const fs::path& file : {whole, headerOnly, cutShort, capture}) fs::remove(file);
}

TEST_CASE("a report or telemetry that cannot be written is reported with a non-zero exit", "[runner][faults]") {
    // /dev/full takes the open and fails every write (ENOSPC): the report was cut, exit 0, no word.
    const fs::path graph = writeGraph("full", 0.5, "/dev/null");
    Finished report = run({graph.string(), "--quiet", "--report", "/dev/full"});
    CHECK(report.status == 1);
    CHECK(report.err.find("cannot write report /dev/full: No space left on device") != std::string::npos);
    Finished telemetry = run({graph.string(), "--quiet", "--telemetry", "/dev/full"});
    CHECK(telemetry.status == 1);
    CHECK(telemetry.err.find("cannot write telemetry file /dev/full: No space left on device") != std::string::npos);
    fs::remove(graph);
}

TEST_CASE("a closed standard output does not stop a graph whose sinks write files: the run ends whole, exit 0", "[runner][faults]") {
    // The "running ..." line could not be printed, SIGPIPE stopped the run before the sink wrote
    // anything (exit 141, no WAV), and `| head -1` turned a completed run into exit 141.
    const fs::path wav = tempPath("closed-stdout.wav"), report = tempPath("closed-stdout-report.json"), err = tempPath("closed-stdout-stderr");
    fs::remove(wav);
    // Paced to last 1 s of wall time: a stop at the first line would cut the file short.
    const fs::path graph = tempPath("closed-stdout.isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0.5, "block": 400, "pace": 0.5}},
      {"id": "wav", "type": "io.wav_file_sink", "params": {"path": ")" << wav.string() << R"("}}],
      "edges": [{"from": "gen.out", "to": "wav.in0"}]})";
    auto checkWhole = [&](int status) {
        INFO(readText(err));
        CHECK(status == 0);
        CHECK(framesOf(wav) == 4000);
        const nlohmann::json json = nlohmann::json::parse(readText(report));
        CHECK(json["completed"] == true);
        CHECK(json["stopped"] == false);
        CHECK(json["outputs"]["wav"]["samples"] == 4000);
    };
    // Close-on-exec: the child must not hold the read end open itself.
    int fds[2];
    REQUIRE(pipe2(fds, O_CLOEXEC) == 0);
    SECTION("its reader gone before the run") {
        ::close(fds[0]);
        const pid_t pid = startRun({graph.string(), "--report", report.string()}, fds[1], err);
        ::close(fds[1]);
        checkWhole(waitFor(pid));
    }
    SECTION("closed with >&-") {
        ::close(fds[0]);
        ::close(fds[1]);
        checkWhole(waitFor(startRun({graph.string(), "--report", report.string()}, -1, err)));
    }
    SECTION("its reader gone after the first line (| head -1)") {
        const pid_t pid = startRun({graph.string(), "--report", report.string()}, fds[1], err);
        ::close(fds[1]);
        std::string line;
        char c = 0;
        while (line.find('\n') == std::string::npos && ::read(fds[0], &c, 1) == 1) line += c;
        CHECK(line.find("running") != std::string::npos);
        ::close(fds[0]);
        checkWhole(waitFor(pid));
    }
    for (const fs::path& path : {wav, report, err, graph}) fs::remove(path);
}

// A graph file: an endless unpaced generator's levels into a JSON lines sink writing to standard output.
fs::path writeStdoutGraph(const std::string& name) {
    const fs::path path = tempPath(name + ".isograph.json");
    std::ofstream(path) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0, "block": 64}},
      {"id": "m", "type": "level.rms_meter"},
      {"id": "out", "type": "io.jsonl_event_sink", "params": {"path": "-"}}],
      "edges": [{"from": "gen.out", "to": "m.in"}, {"from": "m.level", "to": "out.in"}]})";
    return path;
}

// Whether a thread of process `pid` waits in a write to a full pipe (its kernel wait channel).
bool blockedInPipeWrite(pid_t pid) {
    for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task")) {
        if (readText(task.path() / "wchan").find("pipe_write") != std::string::npos) return true;
    }
    return false;
}

TEST_CASE("a sink writing to standard output into a pipe nobody reads: the reader gone ends the run with 141", "[runner][faults]") {
    // The sink failed with "Broken pipe" (exit 2), although --help promises 141 for a closed standard output.
    const fs::path graph = writeStdoutGraph("stdout-closed");
    const fs::path report = tempPath("stdout-closed-report.json"), err = tempPath("stdout-closed-stderr");
    fs::remove(report);
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    ::close(fds[0]);
    const pid_t pid = startRun({graph.string(), "--quiet", "--report", report.string()}, fds[1], err);  // the sink writes first
    ::close(fds[1]);
    CHECK(waitFor(pid) == 128 + SIGPIPE);
    INFO(readText(err));
    CHECK(readText(err).find("error") == std::string::npos);
    CHECK(nlohmann::json::parse(readText(report))["stopped"] == true);
    for (const fs::path& path : {report, err, graph}) fs::remove(path);
}

TEST_CASE("a closed standard output (>&-) ends the run like a closed pipe, and the report is written", "[runner][faults]") {
    // The writes failed with "Bad file descriptor" and the run went on to its end.
    const fs::path graph = writeStdoutGraph("stdout-fd-closed");
    const fs::path report = tempPath("stdout-fd-closed-report.json"), err = tempPath("stdout-fd-closed-stderr");
    fs::remove(report);
    CHECK(waitFor(startRun({graph.string(), "--quiet", "--report", report.string()}, -1, err)) == 128 + SIGPIPE);
    const nlohmann::json json = nlohmann::json::parse(readText(report));
    CHECK(json["stopped"] == true);
    CHECK(json["completed"] == false);
    for (const fs::path& path : {report, err, graph}) fs::remove(path);
}

TEST_CASE("a sink blocked writing to a stalled standard output does not make the run unstoppable", "[runner][faults]") {
    // The runner waited for the blocked write forever: SIGTERM, SIGINT and SIGHUP were ignored, and no
    // report was written. Now it leaves after the grace period with the report of what it knows.
    const fs::path graph = writeStdoutGraph("stdout-stalled");
    const fs::path report = tempPath("stdout-stalled-report.json"), err = tempPath("stdout-stalled-stderr");
    fs::remove(report);
    int fds[2];
    REQUIRE(pipe(fds) == 0);  // never read
    const pid_t pid = startRun({graph.string(), "--report", report.string()}, fds[1], err);
    ::close(fds[1]);
    while (!blockedInPipeWrite(pid)) usleep(1000);  // polls a state, ended by the child's alarm at worst
    REQUIRE(kill(pid, SIGTERM) == 0);
    CHECK(waitFor(pid) == 128 + SIGTERM);
    ::close(fds[0]);
    const std::string errors = readText(err);
    INFO(errors);
    // The node and its type are named (the text was "a node's call has not returned").
    CHECK(errors.find("the run did not stop within 3 s: node 'out' (io.jsonl_event_sink) in its process call has not returned") != std::string::npos);
    const nlohmann::json json = nlohmann::json::parse(readText(report));
    CHECK(json["stopped"] == true);
    CHECK(json["abandoned"] == "node 'out' (io.jsonl_event_sink) in its process call did not return after the stop request");
    CHECK(json["outputs"]["out"]["items"].get<std::uint64_t>() > 0);
    for (const fs::path& path : {report, err, graph}) fs::remove(path);
}

TEST_CASE("a run left with a node's call unreturned names that node in its report, under every scheduler", "[runner][faults]") {
    // The report said "a node's call did not return after the stop request" for a node computing
    // (only outputs and sources were named, and under depth-first the source feeding the node).
    const fs::path graph = tempPath("slow-call.isograph.json");
    {
        std::ofstream file(graph);
        file << R"({"format": "isochron-graph/1", "nodes": [
          {"id": "src", "type": "workload.tuple_source", "params": {"rate": 100, "count": 0, "pace": 1}},
          {"id": "b1", "type": "workload.universal_box", "params": {"cost_us": 1000000}},
          {"id": "out", "type": "io.null_sink"}],
          "edges": [{"from": "src.out0", "to": "b1.in0"}, {"from": "b1.out", "to": "out.in"}]})";
    }
    const fs::path report = tempPath("slow-call-report.json"), telemetry = tempPath("slow-call.jsonl"), err = tempPath("slow-call-stderr");
    for (const isochron::SchedulerInfo& scheduler : isochron::availableSchedulers()) {
        INFO("scheduler " << scheduler.name);
        fs::remove(report);
        fs::remove(telemetry);
        const pid_t pid = startRun({graph.string(), "--quiet", "--scheduler", scheduler.name, "--report", report.string(), "--telemetry", telemetry.string()}, -1, err);
        // Until a snapshot says b1 is in a call (the child's alarm ends a run that never gets there).
        while (readText(telemetry).find(R"("busy":{"node":"b1")") == std::string::npos) usleep(1000);
        // A second signal: the run leaves at once, b1's second of work unfinished. Two different ones,
        // since a signal sent again before the first was delivered is one signal.
        REQUIRE(kill(pid, SIGTERM) == 0);
        REQUIRE(kill(pid, SIGINT) == 0);
        const int status = waitFor(pid);
        CHECK((status == 128 + SIGTERM || status == 128 + SIGINT));
        const std::string errors = readText(err);
        INFO(errors);
        CHECK(errors.find("the run did not stop before a second signal: node 'b1' (workload.universal_box) in its process call has not returned") != std::string::npos);
        const nlohmann::json json = nlohmann::json::parse(readText(report));
        CHECK(json["abandoned"] == "node 'b1' (workload.universal_box) in its process call did not return after the stop request");
    }
    for (const fs::path& path : {report, telemetry, err, graph}) fs::remove(path);
}

TEST_CASE("--report and --telemetry refuse a named pipe before the run, without opening it", "[runner][faults]") {
    // The check before the run opened and closed the FIFO (its reader got EOF), and the final write
    // then blocked in open() for good.
    const fs::path graph = writeGraph("fifo-report", 0.5, "/dev/null");
    const fs::path fifo = tempPath("report-fifo");
    fs::remove(fifo);
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    for (const char* flag : {"--report", "--telemetry"}) {
        Finished r = run({graph.string(), flag, fifo.string()});
        CHECK(r.status == 1);
        CHECK(r.err.find(std::string(flag) + " " + fifo.string() + " is a named pipe (FIFO)") != std::string::npos);
    }
    // Nothing opened it: a reader that opens it without waiting finds no writer.
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    REQUIRE(reader >= 0);
    char c = 0;
    CHECK(::read(reader, &c, 1) == 0);
    ::close(reader);
    fs::remove(fifo);
    fs::remove(graph);
}

TEST_CASE("when a sink writes to standard output, the runner's own lines go to standard error", "[runner][faults]") {
    // "running ..." and the summary table ended up inside the sink's data (a WAV file, JSON lines).
    const fs::path graph = tempPath("stdout-only-data.isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0.5, "block": 400}},
      {"id": "m", "type": "level.rms_meter"},
      {"id": "out", "type": "io.jsonl_event_sink", "params": {"path": "-"}}],
      "edges": [{"from": "gen.out", "to": "m.in"}, {"from": "m.level", "to": "out.in"}]})";
    Finished r = run({graph.string()});
    CHECK(r.status == 0);
    CHECK(r.err.find("running") != std::string::npos);
    CHECK(r.err.find("completed") != std::string::npos);
    std::istringstream lines(r.out);
    int count = 0;
    for (std::string line; std::getline(lines, line); ++count) {
        INFO(line);
        CHECK(nlohmann::json::accept(line));
    }
    CHECK(count > 0);
    fs::remove(graph);
}

TEST_CASE("a text sink writing /dev/stdout into a pipe writes into the pipe", "[runner][faults]") {
    // Once text sinks grew a partial file beside their target, /dev/stdout into a pipe was taken for a
    // file to replace: "cannot write '/proc/self/fd/pipe:[1234].<pid>.partial'".
    const fs::path graph = tempPath("dev-stdout.isograph.json"), err = tempPath("dev-stdout-stderr");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0.5, "block": 400}},
      {"id": "m", "type": "level.rms_meter"},
      {"id": "out", "type": "io.jsonl_event_sink", "params": {"path": "/dev/stdout"}}],
      "edges": [{"from": "gen.out", "to": "m.in"}, {"from": "m.level", "to": "out.in"}]})";
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    const pid_t pid = startRun({graph.string(), "--quiet"}, fds[1], err);
    ::close(fds[1]);
    std::string piped;
    char buffer[4096];
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) piped.append(buffer, static_cast<std::size_t>(n));
    ::close(fds[0]);
    CHECK(waitFor(pid) == 0);
    INFO(readText(err));
    CHECK(std::count(piped.begin(), piped.end(), '\n') > 0);
    CHECK(piped.find("\"kind\":\"scalar\"") != std::string::npos);
    fs::remove(graph);
    fs::remove(err);
}

TEST_CASE("SIGHUP and SIGUSR2 end the run like Ctrl-C, and the report is written", "[runner][faults]") {
    // SIGUSR2 is the stop mpirun passes to every rank as it is (docs/scale-out.md); alone it stops too.
    const int signal = GENERATE(SIGHUP, SIGUSR2);
    INFO("signal " << signal);
    const fs::path graph = writeGraph("hangup", 0, "/dev/null");  // runs until stopped
    const fs::path report = tempPath("hangup-report.json"), err = tempPath("hangup-stderr");
    fs::remove(report);
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    const pid_t pid = startRun({graph.string(), "--report", report.string()}, fds[1], err);
    ::close(fds[1]);
    // The "running ..." line comes once the signal handlers are in place.
    std::string line;
    char c = 0;
    while (line.find('\n') == std::string::npos && ::read(fds[0], &c, 1) == 1) line += c;
    REQUIRE(line.find("running") != std::string::npos);
    REQUIRE(kill(pid, signal) == 0);
    std::string rest;
    while (::read(fds[0], &c, 1) == 1) rest += c;
    ::close(fds[0]);
    CHECK(waitFor(pid) == 128 + signal);
    CHECK(rest.find("stopped") != std::string::npos);
    REQUIRE(fs::exists(report));
    CHECK(nlohmann::json::parse(readText(report))["stopped"] == true);
    fs::remove(report);
    fs::remove(err);
    fs::remove(graph);
}

TEST_CASE("a run started with SIGHUP ignored (nohup) keeps running when the terminal hangs up", "[runner][faults]") {
    // The runner put its own handler in place of the ignored SIGHUP: closing the terminal stopped a
    // run started with nohup (exit 129, the recording cut short). The run here is 1 s of paced
    // generator; the hang-up comes as soon as it runs and must change nothing.
    const fs::path graph = tempPath("nohup.isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 1, "block": 400, "pace": 1}},
      {"id": "wav", "type": "io.wav_file_sink", "params": {"path": "/dev/null"}}],
      "edges": [{"from": "gen.out", "to": "wav.in0"}]})";
    const fs::path report = tempPath("nohup-report.json"), err = tempPath("nohup-stderr");
    fs::remove(report);
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    const pid_t pid = startRun({graph.string(), "--report", report.string()}, fds[1], err, [] { std::signal(SIGHUP, SIG_IGN); });
    ::close(fds[1]);
    std::string line;
    char c = 0;
    while (line.find('\n') == std::string::npos && ::read(fds[0], &c, 1) == 1) line += c;
    REQUIRE(line.find("running") != std::string::npos);
    REQUIRE(kill(pid, SIGHUP) == 0);
    while (::read(fds[0], &c, 1) == 1) {
    }
    ::close(fds[0]);
    CHECK(waitFor(pid) == 0);
    REQUIRE(fs::exists(report));
    const auto json = nlohmann::json::parse(readText(report));
    CHECK(json["stopped"] == false);
    CHECK(json["completed"] == true);
    for (const fs::path& path : {report, err, graph}) fs::remove(path);
}

TEST_CASE("a report that cannot be written whole leaves the previous report as it was", "[runner][faults]") {
    // On a full disk the report was cut (40 960 bytes of invalid JSON) where the previous one had been.
    // Here a file size limit of 400 bytes (the report takes about 860, the error message about 100)
    // makes the write fail (EFBIG) as a full disk would.
    const fs::path graph = writeGraph("report-limit", 0.5, "/dev/null");
    const fs::path report = tempPath("limited-report.json"), err = tempPath("limited-stderr");
    const std::string previous = "{\"previous\": true}\n";
    { std::ofstream(report) << previous; }
    const pid_t pid = startRun({graph.string(), "--report", report.string(), "--quiet"}, -1, err, [] {
        std::signal(SIGXFSZ, SIG_IGN);  // a write past the limit fails instead of killing the run
        const rlimit limit{400, 400};
        setrlimit(RLIMIT_FSIZE, &limit);
    });
    CHECK(waitFor(pid) == 1);
    const std::string errors = readText(err);
    INFO(errors);
    CHECK(errors.find("cannot write report " + report.string()) != std::string::npos);
    CHECK(readText(report) == previous);
    for (const auto& entry : fs::directory_iterator(report.parent_path())) {
        CHECK(entry.path().filename().string().find("limited-report.json.") == std::string::npos);  // no partial left
    }
    for (const fs::path& path : {report, err, graph}) fs::remove(path);
}

TEST_CASE("a --report on a disk that takes no more bytes is refused before the run", "[runner][faults]") {
    // A full disk was found only when the run ended (an hour's run lost its report). A file size limit
    // of 0 makes every write to a file fail (EFBIG) as a full disk would (ENOSPC); the sink writes a
    // device, and standard output and error are pipes, which the limit does not touch.
    const fs::path graph = writeGraph("report-full", 0.5, "/dev/null");
    const fs::path report = tempPath("full-report.json");
    fs::remove(report);
    int out[2], err[2];
    REQUIRE(pipe(out) == 0);
    REQUIRE(pipe(err) == 0);
    const pid_t pid = startRun({graph.string(), "--report", report.string()}, out[1], "/proc/self/fd/" + std::to_string(err[1]), [] {
        std::signal(SIGXFSZ, SIG_IGN);  // a write past the limit fails instead of killing the run
        const rlimit limit{0, 0};
        setrlimit(RLIMIT_FSIZE, &limit);
    });
    ::close(out[1]);
    ::close(err[1]);
    auto readAll = [](int fd) {
        std::string text;
        char buffer[4096];
        for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
        ::close(fd);
        return text;
    };
    const std::string output = readAll(out[0]);
    const std::string errors = readAll(err[0]);
    CHECK(waitFor(pid) == 1);
    INFO(errors);
    CHECK(errors.find("cannot write report " + report.string() + ": a test write of one byte beside it failed (File too large)") != std::string::npos);
    CHECK(output.find("running") == std::string::npos);  // refused before the run, not after it
    CHECK_FALSE(fs::exists(report));
    for (const auto& entry : fs::directory_iterator(report.parent_path())) {
        CHECK(entry.path().filename().string().find("full-report.json.") == std::string::npos);  // no test file left
    }
    fs::remove(graph);
}

TEST_CASE("node errors go to standard error, not into what a sink writes to standard output", "[runner][faults]") {
    // The sink fails while running: every write to /dev/full fails.
    const fs::path graph = writeGraph("node-error", 0.5, "/dev/full");
    Finished r = run({graph.string()});
    CHECK(r.status == 2);
    CHECK(r.err.find("error: node 'wav'") != std::string::npos);
    CHECK(r.out.find("error:") == std::string::npos);
    fs::remove(graph);
}

TEST_CASE("a sink that fails ends a run that fed only it, at once, with the node and the write error named", "[runner][faults]") {
    // An endless generator into /dev/full: the generator kept producing into the failed sink until
    // the run was killed, and the error showed only then. The test's alarm in the child is the hang guard.
    const fs::path graph = writeGraph("endless-into-full", 0, "/dev/full");
    const fs::path report = tempPath("endless-into-full-report.json");
    for (const char* scheduler : {"df", "fifo", "rtc", "superbox-mc", "qos-bucket"}) {
        INFO(scheduler);
        Finished r = run({graph.string(), "--scheduler", scheduler, "--report", report.string()});
        INFO(r.err);
        CHECK(r.status == 2);
        CHECK(r.err.find("isochron-run: error: node 'wav': cannot write '/dev/full'") != std::string::npos);
        CHECK(r.err.find("No space left on device") != std::string::npos);
        CHECK(r.err.find("warning: node 'gen': stopped early") != std::string::npos);
        const auto json = nlohmann::json::parse(readText(report));
        REQUIRE(json["failures"].size() == 1);
        CHECK(json["failures"][0].get<std::string>().starts_with("node 'wav': cannot write '/dev/full'"));
        CHECK(json["nodes"]["gen"]["warnings"][0].get<std::string>().starts_with("stopped early"));
    }
    fs::remove(report);
    fs::remove(graph);
}

TEST_CASE("a sink's failure is printed when it happens, while the rest of the graph runs on", "[runner][faults]") {
    // Two endless branches: one into /dev/full, one into a null sink. The run cannot end by itself,
    // so the error line is read from standard error while it runs, and only then is it stopped.
    const fs::path graph = tempPath("two-branches.isograph.json"), healthy = tempPath("two-branches-healthy.wav");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "doomed", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0, "block": 400}},
      {"id": "disk", "type": "io.wav_file_sink", "params": {"path": "/dev/full"}},
      {"id": "steady", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0, "block": 400}},
      {"id": "sink", "type": "io.wav_file_sink", "params": {"path": ")" << healthy.string() << R"("}}],
      "edges": [{"from": "doomed.out", "to": "disk.in0"}, {"from": "steady.out", "to": "sink.in0"}]})";
    const fs::path errors = tempPath("two-branches-stderr"), report = tempPath("two-branches-report.json");
    fs::remove(errors);
    REQUIRE(mkfifo(errors.c_str(), 0600) == 0);
    const int out = ::open("/dev/null", O_WRONLY);
    REQUIRE(out >= 0);
    const pid_t pid = startRun({graph.string(), "--report", report.string()}, out, errors);
    const fs::path healthyPartial = healthy.string() + "." + std::to_string(pid) + ".partial";
    ::close(out);
    const int err = ::open(errors.c_str(), O_RDONLY);  // waits for the child to open its end
    REQUIRE(err >= 0);
    std::string text;
    char c = 0;
    while (text.find("error: node 'disk'") == std::string::npos && ::read(err, &c, 1) == 1) text += c;
    REQUIRE(text.find("error: node 'disk'") != std::string::npos);
    // The healthy branch goes on after the failure: its file grows past its size when the error was
    // read (polled; the child's alarm ends a run that stalled instead).
    std::error_code ignored;
    const auto sizeNow = [&] { return fs::exists(healthyPartial, ignored) ? fs::file_size(healthyPartial, ignored) : std::uintmax_t{0}; };
    const std::uintmax_t atError = sizeNow();
    while (sizeNow() <= atError) usleep(1000);
    REQUIRE(kill(pid, SIGINT) == 0);
    while (::read(err, &c, 1) == 1) text += c;
    ::close(err);
    INFO(text);
    CHECK(waitFor(pid) == 2);  // a node failed: that outranks the stop
    const auto json = nlohmann::json::parse(readText(report));
    CHECK(json["stopped"] == true);
    REQUIRE(json["failures"].size() == 1);
    CHECK(json["failures"][0].get<std::string>().starts_with("node 'disk': cannot write '/dev/full'"));
    CHECK(json["nodes"]["doomed"]["warnings"][0].get<std::string>().starts_with("stopped early"));
    CHECK_FALSE(json["nodes"]["steady"].contains("warnings"));
    CHECK(json["outputs"]["sink"]["items"].get<std::uint64_t>() > 0);
    fs::remove(report);
    fs::remove(errors);
    fs::remove(graph);
    fs::remove(healthy);
}

TEST_CASE("a sink that fails leaves the other outputs of its source whole", "[runner][faults]") {
    const fs::path in = tempPath("fan-in.wav"), alone = tempPath("fan-alone.wav"), beside = tempPath("fan-beside.wav");
    writeWav(in, 24000);
    const fs::path reference = writeCopyGraph("fan-reference", in.string(), {alone.string()});
    const fs::path withFailure = writeCopyGraph("fan-with-failure", in.string(), {beside.string(), "/dev/full"});
    Finished good = run({reference.string(), "--quiet"});
    REQUIRE(good.status == 0);
    Finished failing = run({withFailure.string(), "--quiet"});
    INFO(failing.err);
    CHECK(failing.status == 2);
    CHECK(failing.err.find("error: node 'b': cannot write '/dev/full'") != std::string::npos);
    CHECK(framesOf(beside) == 24000);
    CHECK(readText(beside) == readText(alone));
    for (const fs::path& path : {in, alone, beside, reference, withFailure}) fs::remove(path);
}

TEST_CASE("a sound file sink writes through a symlink and into a device, and '-' is standard output", "[runner][faults]") {
    SECTION("a symlink stays a symlink; the file it names gets the samples") {
        const fs::path target = tempPath("target.wav"), link = tempPath("link.wav");
        fs::remove(target);
        fs::remove(link);
        std::ofstream(target) << "old";
        fs::create_symlink(target, link);
        const fs::path graph = writeGraph("symlink", 0.5, link.string());
        Finished r = run({graph.string(), "--quiet"});
        INFO(r.err);
        CHECK(r.status == 0);
        CHECK(fs::is_symlink(fs::symlink_status(link)));
        CHECK(framesOf(target) == 4000);
        fs::remove(link);
        fs::remove(target);
        fs::remove(graph);
    }
    SECTION("a dangling symlink stays a symlink; the file it names is created") {
        // The finished file was renamed over the link, and the file it names never appeared.
        const fs::path target = tempPath("dangling-target.wav"), link = tempPath("dangling.wav");
        fs::remove(target);
        fs::remove(link);
        fs::create_symlink(target.filename(), link);  // relative to the link's folder
        const fs::path graph = writeGraph("dangling", 0.5, link.string());
        Finished r = run({graph.string(), "--quiet"});
        INFO(r.err);
        CHECK(r.status == 0);
        CHECK(fs::is_symlink(fs::symlink_status(link)));
        CHECK(framesOf(target) == 4000);
        CHECK(partialsOf(target).empty());
        fs::remove(link);
        fs::remove(target);
        fs::remove(graph);
    }
    SECTION("a symlink into a folder that does not exist is refused at start, and stays") {
        const fs::path link = tempPath("dangling-nowhere.wav");
        fs::remove(link);
        fs::create_symlink(tempPath("no-such-folder/target.wav"), link);
        const fs::path graph = writeGraph("dangling-nowhere", 0.5, link.string());
        // The message named the sink's internal partial file and libsndfile's words; --check said valid.
        for (const char* mode : {"--check", "--quiet"}) {
            Finished r = run({graph.string(), mode});
            INFO(mode << ": " << r.err);
            CHECK(r.status == 1);
            CHECK(r.err.find("node 'wav'") != std::string::npos);
            CHECK(r.err.find("the folder '" + tempPath("no-such-folder").string() + "' does not exist") != std::string::npos);
            CHECK(r.err.find(".partial") == std::string::npos);
        }
        CHECK(fs::is_symlink(fs::symlink_status(link)));
        fs::remove(link);
        fs::remove(graph);
    }
    SECTION("a folder, a file in a missing folder and a loop of symlinks are refused by --check as by the run") {
        const fs::path loop = tempPath("loop-a.wav"), loopBack = tempPath("loop-b.wav"), folder = tempPath("a-folder.wav");
        fs::remove(loop);
        fs::remove(loopBack);
        fs::create_symlink(loopBack, loop);
        fs::create_symlink(loop, loopBack);
        fs::create_directories(folder);
        const std::vector<std::pair<fs::path, std::string>> cases = {
            {folder, "is a folder: give a file in it"},
            {tempPath("missing-folder/out.wav"), "the folder '" + tempPath("missing-folder").string() + "' does not exist"},
            {loop, "a loop of links?"}};
        for (const auto& [path, said] : cases) {
            const fs::path graph = writeGraph("unwritable", 0.5, path.string());
            for (const char* mode : {"--check", "--quiet"}) {
                Finished r = run({graph.string(), mode});
                INFO(path << " " << mode << ": " << r.err);
                CHECK(r.status == 1);
                CHECK(r.err.find("node 'wav'") != std::string::npos);
                CHECK(r.err.find(said) != std::string::npos);
            }
            fs::remove(graph);
        }
        fs::remove(loop);
        fs::remove(loopBack);
        fs::remove(folder);
    }
    SECTION("a named pipe is refused at start, naming node, parameter and path") {
        // Opening the pipe waited for a reader without end, deaf to Ctrl-C and SIGTERM.
        const fs::path fifo = tempPath("sink.fifo");
        fs::remove(fifo);
        REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
        const fs::path graph = writeGraph("fifo", 0.5, fifo.string());
        Finished r = run({graph.string(), "--quiet"});
        CHECK(r.status == 1);
        CHECK(r.err.find("node 'wav'") != std::string::npos);
        CHECK(r.err.find("parameter 'path': '" + fifo.string() + "' is a named pipe (FIFO)") != std::string::npos);
        CHECK(fs::is_fifo(fifo));
        fs::remove(fifo);
        fs::remove(graph);
    }
    SECTION("a device is written in place, never replaced") {
        // Renaming the finished file over /dev/null replaced the device with a regular file (as root).
        const fs::path graph = writeGraph("device", 0.5, "/dev/null");
        Finished r = run({graph.string(), "--quiet"});
        INFO(r.err);
        CHECK(r.status == 0);
        CHECK(fs::is_character_file("/dev/null"));
        CHECK_FALSE(fs::exists("/dev/null.partial"));
        fs::remove(graph);
    }
    SECTION("'-' writes to standard output redirected to a file") {
        const fs::path graph = writeGraph("stdout", 0.5, "-");
        const fs::path out = tempPath("stdout.wav"), err = tempPath("stdout-stderr");
        const int fd = ::open(out.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
        REQUIRE(fd >= 0);
        const int status = waitFor(startRun({graph.string(), "--quiet"}, fd, err));
        ::close(fd);
        INFO(readText(err));
        CHECK(status == 0);
        CHECK(framesOf(out) == 4000);
        CHECK_FALSE(fs::exists(fs::current_path() / "-"));
        fs::remove(out);
        fs::remove(err);
        fs::remove(graph);
    }
    SECTION("'-' and /dev/stdout on a file opened for appending (>>) or written to before are refused; the file keeps its bytes") {
        // Appending sent the header's seek back to the end: a broken WAV with a second header at its
        // end, exit 0. At an offset libsndfile failed with "embedding not supported".
        const fs::path out = tempPath("appended.wav"), err = tempPath("appended-stderr");
        for (const std::string path : {"-", "/dev/stdout"}) {
            for (const bool append : {true, false}) {
                INFO(path << (append ? " appending" : " at an offset"));
                const fs::path graph = writeGraph("appended", 0.5, path);
                std::ofstream(out) << "the log so far\n";
                const int fd = ::open(out.c_str(), O_WRONLY | (append ? O_APPEND : 0));
                REQUIRE(fd >= 0);
                REQUIRE(::lseek(fd, 0, SEEK_END) > 0);
                const int status = waitFor(startRun({graph.string(), "--quiet"}, fd, err));
                ::close(fd);
                const std::string message = readText(err);
                INFO(message);
                CHECK(status == 1);
                CHECK_THAT(message, Catch::Contains("node 'wav'") && Catch::Contains(append ? "opened for appending (>>)" : "must start its file"));
                CHECK(readText(out) == "the log so far\n");
                fs::remove(graph);
            }
        }
        fs::remove(out);
        fs::remove(err);
    }
    SECTION("/dev/stdout redirected to a new file holds the recording alone: the runner's lines go to standard error") {
        const fs::path graph = writeGraph("devstdout", 0.5, "/dev/stdout");
        const fs::path out = tempPath("devstdout.wav"), err = tempPath("devstdout-stderr");
        const int fd = ::open(out.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
        REQUIRE(fd >= 0);
        const int status = waitFor(startRun({graph.string()}, fd, err));
        ::close(fd);
        INFO(readText(err));
        CHECK(status == 0);
        CHECK(framesOf(out) == 4000);
        for (const fs::path& path : {out, err, graph}) fs::remove(path);
    }
    SECTION("'-' on a pipe is refused with the reason") {
        const fs::path graph = writeGraph("stdout-pipe", 0.5, "-");
        const fs::path err = tempPath("stdout-pipe-stderr");
        int fds[2];
        REQUIRE(pipe(fds) == 0);
        const pid_t pid = startRun({graph.string(), "--quiet"}, fds[1], err);
        ::close(fds[1]);
        char c;
        while (::read(fds[0], &c, 1) == 1) {}
        ::close(fds[0]);
        CHECK(waitFor(pid) == 1);
        CHECK(readText(err).find("redirect standard output to a file") != std::string::npos);
        CHECK_FALSE(fs::exists(fs::current_path() / "-"));
        fs::remove(err);
        fs::remove(graph);
    }
}

TEST_CASE("--check refuses a generator block too large to allocate and a pace too slow ever to finish", "[runner][faults]") {
    // block=2^40 passed validation and failed in the run with "std::bad_alloc (in produce)"; pace=1e-9
    // ran for ever, and 1e-300 ran unpaced.
    const fs::path graph = writeGraph("generator-limits", 0.5, "/dev/null");
    Finished block = run({graph.string(), "--check", "--set", "gen.block=1099511627776"});
    CHECK(block.status == 1);
    CHECK(block.err.find("above the maximum 16777216") != std::string::npos);
    CHECK(run({graph.string(), "--check", "--set", "gen.block=16777216"}).status == 0);
    for (const char* pace : {"1e-9", "1e-300"}) {
        Finished slow = run({graph.string(), "--check", "--set", std::string("gen.pace=") + pace});
        INFO(slow.err);
        CHECK(slow.status == 1);
        CHECK(slow.err.find("is below 0.001 times real time") != std::string::npos);
    }
    CHECK(run({graph.string(), "--check", "--set", "gen.pace=0.001"}).status == 0);
    CHECK(run({graph.string(), "--check", "--set", "gen.pace=0"}).status == 0);
    fs::remove(graph);
}

TEST_CASE("a parameter out of range is refused with the range, and a value's control characters are escaped", "[runner][faults]") {
    const fs::path graph = writeGraph("parameter-ranges", 0.5, "/dev/null");
    const auto refusal = [&](const std::string& assignment) {
        Finished r = run({graph.string(), "--check", "--set", assignment});
        INFO(assignment << ": " << r.err);
        CHECK(r.status == 1);
        return r.err;
    };
    // Whole numbers beyond the range were "expected a whole number", without the range.
    CHECK(refusal("gen.block=1e18").find("1e+18 is above the maximum 16777216") != std::string::npos);
    CHECK(refusal("gen.seed=18446744073709551615").find("18446744073709551615 is above the maximum 9223372036854775807") != std::string::npos);
    CHECK(refusal("gen.seed=1e19").find("1e+19 is above the maximum 9223372036854775807") != std::string::npos);
    CHECK(refusal("gen.block=2.5").find("expected a whole number, got 2.5") != std::string::npos);
    // A negative seed was accepted (the documented range starts at 0); the largest one is not refused.
    CHECK(refusal("gen.seed=-1").find("-1 is below the minimum 0") != std::string::npos);
    CHECK(run({graph.string(), "--check", "--set", "gen.seed=9223372036854775807"}).status == 0);
    // The line break of a value read from a file broke the message in two.
    const std::string broken = refusal("gen.rate=8000\n");
    CHECK(broken.find("expected a number, got '8000\\n'") != std::string::npos);
    CHECK(broken.find("8000\n") == std::string::npos);
    CHECK(refusal("gen.waveform=si\tne").find("'si\\tne' is not one of") != std::string::npos);
    fs::remove(graph);
}

TEST_CASE("a sound file sink's refusal of a rate prints the rate compactly", "[runner][faults]") {
    // "the stream's rate 1000000...000.000000 Hz" (three hundred digits).
    const fs::path graph = writeGraph("huge-rate", 0.5, "/dev/null");
    Finished r = run({graph.string(), "--quiet", "--set", "gen.rate=1e300"});
    INFO(r.err);
    // The source feeds the sink directly, so the rate is refused before the run (exit 1).
    CHECK(r.status == 1);
    CHECK(r.err.find("feeds it at 1e+300 Hz (its parameter 'rate'), which a sound file cannot state") != std::string::npos);
    CHECK(r.err.find("0000000000") == std::string::npos);
    fs::remove(graph);
}

TEST_CASE("options that take one value are refused when given twice; --report - is refused; devices may be shared", "[runner][faults]") {
    const fs::path wav = tempPath("options.wav");
    fs::remove(wav);
    const fs::path graph = writeGraph("options", 0.5, wav.string());
    const fs::path a = tempPath("options-a.json"), b = tempPath("options-b.json");
    SECTION("a second value replaced the first without a word") {
        for (const auto& [flag, first, second] :
             {std::tuple<std::string, std::string, std::string>{"--report", a.string(), b.string()}, {"--telemetry", a.string(), b.string()},
              {"--scheduler", "df", "fifo"}, {"--channel-credits", "2", "3"}, {"--partitions", "whole", "threads"}, {"--telemetry-rate", "5", "6"},
              {"--watchdog", "1", "2"}}) {
            Finished r = run({graph.string(), flag, first, flag, second});
            INFO(r.err);
            CHECK(r.status == 1);
            CHECK(r.err.find(flag + " given twice (" + first + " and " + second + "): give it once") != std::string::npos);
        }
        CHECK_FALSE(fs::exists(a));
        CHECK_FALSE(fs::exists(b));
        CHECK_FALSE(fs::exists(wav));
    }
    SECTION("an empty --report or --telemetry is called that") {
        // "cannot write report : No such file or directory" did not say the name was empty.
        for (const std::string flag : {"--report", "--telemetry"}) {
            Finished r = run({graph.string(), flag, ""});
            INFO(r.err);
            CHECK(r.status == 1);
            CHECK(r.err.find(flag + " was given an empty file name (''): give the file to write") != std::string::npos);
        }
        CHECK_FALSE(fs::exists(wav));
    }
    SECTION("--watchdog without --sandbox is refused: it would time nothing") {
        Finished r = run({graph.string(), "--watchdog", "5"});
        INFO(r.err);
        CHECK(r.status == 1);
        CHECK(r.err.find("--watchdog times the calls into sandboxed plugins only") != std::string::npos);
        CHECK_FALSE(fs::exists(wav));
    }
    SECTION("--telemetry-rate without --telemetry is refused: no snapshots would be taken") {
        // It was accepted without a word, the rate setting nothing.
        Finished r = run({graph.string(), "--telemetry-rate", "30"});
        INFO(r.err);
        CHECK(r.status == 1);
        CHECK(r.err.find("--telemetry-rate sets how often the snapshots of --telemetry are taken, and no --telemetry file is given") !=
              std::string::npos);
        CHECK_FALSE(fs::exists(wav));
    }
    SECTION("a --set value in quotes that reached the runner is refused, not kept as part of a file name") {
        // --set 'wav.path=""' wrote a file named "" (with the quotes); a quoted number was refused as no number.
        fs::remove(fs::current_path() / "\"\"");
        for (const std::string& value : {std::string("\"\""), std::string("\"") + wav.string() + "\"", std::string("'x.wav'")}) {
            Finished r = run({graph.string(), "--set", "wav.path=" + value});
            INFO(r.err);
            CHECK(r.status == 1);
            CHECK(r.err.find("--set wav.path=" + value + ": the value is in quotes") != std::string::npos);
        }
        Finished number = run({graph.string(), "--set", "gen.rate=\"8000\""});
        CHECK(number.status == 1);
        CHECK(number.err.find("the value is in quotes") != std::string::npos);
        CHECK_FALSE(fs::exists(fs::current_path() / "\"\""));
        CHECK_FALSE(fs::exists(wav));
    }
    SECTION("'-' is no report file") {
        // It wrote a file named '-' in the working folder.
        for (const char* flag : {"--report", "--telemetry"}) {
            Finished r = run({graph.string(), flag, "-"});
            INFO(r.err);
            CHECK(r.status == 1);
            CHECK(r.err.find(std::string(flag) + " -: it is written to a file, not to standard output") != std::string::npos);
            CHECK_FALSE(fs::exists(fs::current_path() / "-"));
        }
    }
    SECTION("/dev/null for the report, the telemetry and two sinks") {
        // "--report and --telemetry name the same file /dev/null: each would clobber the other".
        const fs::path twoSinks = tempPath("options-two-null-sinks.isograph.json");
        std::ofstream(twoSinks) << R"({"format": "isochron-graph/1", "nodes": [
          {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0.5, "block": 400}},
          {"id": "a", "type": "io.wav_file_sink", "params": {"path": "/dev/null"}},
          {"id": "b", "type": "io.wav_file_sink", "params": {"path": "/dev/null"}}],
          "edges": [{"from": "gen.out", "to": "a.in0"}, {"from": "gen.out", "to": "b.in0"}]})";
        Finished r = run({twoSinks.string(), "--quiet", "--report", "/dev/null", "--telemetry", "/dev/null"});
        INFO(r.err);
        CHECK(r.status == 0);
        CHECK(fs::is_character_file("/dev/null"));
        fs::remove(twoSinks);
    }
    fs::remove(graph);
}

TEST_CASE("a recording stopped by Ctrl-C never replaces an existing file, and becomes the file where none was", "[runner][faults]") {
    // The cut-short recording was renamed over the complete file that was there.
    const fs::path target = tempPath("stopped.wav");
    const fs::path graph = writeGraph("stopped", 0, target.string());
    for (const bool existed : {true, false}) {
        INFO((existed ? "a file was there" : "no file was there"));
        fs::remove(target);
        if (existed) writeWav(target, 1000);
        const fs::path err = tempPath("stopped-stderr");
        const int out = ::open("/dev/null", O_WRONLY);
        REQUIRE(out >= 0);
        const pid_t pid = startRun({graph.string()}, out, err);  // not --quiet: the warning is the point
        ::close(out);
        const fs::path partial = waitForPartialGrowing(target, pid);
        REQUIRE(kill(pid, SIGINT) == 0);
        CHECK(waitFor(pid) == 130);
        const std::string errors = readText(err);
        INFO(errors);
        CHECK(errors.find("node 'wav'") != std::string::npos);
        CHECK(errors.find("cut short") != std::string::npos);
        if (existed) {
            CHECK(framesOf(target) == 1000);
            CHECK(framesOf(partial) > 0);
            CHECK(errors.find("did not replace '" + target.string() + "': it is kept as '" + partial.string() + "'") != std::string::npos);
            fs::remove(partial);
        } else {
            CHECK(framesOf(target) > 0);
            CHECK_FALSE(fs::exists(partial));
            CHECK(errors.find("kept as '" + target.string() + "'") != std::string::npos);
        }
        CHECK(partialsOf(target).empty());
        fs::remove(err);
    }
    fs::remove(target);
    fs::remove(graph);
}

TEST_CASE("two runs writing one WAV path at once each keep their recording", "[runner][faults]") {
    // Both grew 'path.partial': the second run's start took the first's file, which then failed to
    // rename it ("No such file or directory", exit 2) and lost its recording.
    const fs::path target = tempPath("shared.wav");
    fs::remove(target);
    const fs::path endless = writeGraph("shared-endless", 0, target.string()), brief = writeGraph("shared-brief", 0.5, target.string());
    const fs::path err = tempPath("shared-stderr");
    const int out = ::open("/dev/null", O_WRONLY);
    REQUIRE(out >= 0);
    const pid_t first = startRun({endless.string()}, out, err);
    ::close(out);
    const fs::path firstPartial = waitForPartialGrowing(target, first);
    Finished second = run({brief.string(), "--quiet"});
    INFO(second.err);
    CHECK(second.status == 0);
    CHECK(framesOf(target) == 4000);  // the run that completed replaced the (absent) file
    REQUIRE(kill(first, SIGINT) == 0);
    CHECK(waitFor(first) == 130);
    const std::string errors = readText(err);
    INFO(errors);
    CHECK(errors.find("cannot rename") == std::string::npos);
    CHECK(framesOf(target) == 4000);  // the stopped run did not replace the completed one
    CHECK(framesOf(firstPartial) > 4000);
    CHECK(errors.find("kept as '" + firstPartial.string() + "'") != std::string::npos);
    for (const fs::path& path : {target, firstPartial, endless, brief, err}) fs::remove(path);
}

TEST_CASE("a WAV file name as long as the folder allows is written, and --check agrees", "[runner][faults]") {
    // 'NAME.partial' was too long for names of 248 to 255 bytes: refused at run time after --check said valid.
    const long longest = ::pathconf(fs::temp_directory_path().c_str(), _PC_NAME_MAX);
    REQUIRE(longest > 40);
    const std::string pid = std::to_string(getpid());
    const fs::path target = fs::temp_directory_path() / (pid + std::string(static_cast<std::size_t>(longest) - 4 - pid.size(), 'c') + ".wav");
    fs::remove(target);
    const fs::path graph = writeGraph("long-name", 0.5, target.string());
    for (const char* mode : {"--check", "--quiet"}) {
        Finished r = run({graph.string(), mode});
        INFO(mode << ": " << r.err);
        CHECK(r.status == 0);
    }
    CHECK(framesOf(target) == 4000);
    CHECK(partialsOf(target).empty());
    fs::remove(target);
    fs::remove(graph);
}

TEST_CASE("a signal while a preloaded file decodes ends the decoding, not only the run after it", "[runner][faults]") {
    // The run stopped only once the whole file was decoded: a long preload held Ctrl-C for its length.
    // The pipe's writer sends the header and one chunk of the preload (2^18 frames), signals, sends one
    // chunk more and keeps the pipe open: the decoder sees the request between chunks and gives up.
    // Before, it waited for the six chunks that never come.
    constexpr int kChunk = 1 << 18, kFrames = 8 * kChunk;
    const fs::path wav = tempPath("decoding-source.wav"), fifo = tempPath("decoding.fifo"), report = tempPath("decoding-report.json");
    const fs::path err = tempPath("decoding-stderr");
    writeWav(wav, kFrames);
    const std::string bytes = readText(wav);
    const std::size_t header = bytes.size() - std::size_t{2} * kFrames;  // 16-bit mono frames follow the header
    fs::remove(fifo);
    fs::remove(report);
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    const fs::path graph = writeCopyGraph("decoding", fifo.string(), {"/dev/null"});
    const pid_t pid = startRun({graph.string(), "--report", report.string()}, -1, err);
    const int writer = ::open(fifo.c_str(), O_WRONLY);
    REQUIRE(writer >= 0);
    const auto previous = std::signal(SIGPIPE, SIG_IGN);
    const std::size_t first = header + std::size_t{2} * kChunk;
    CHECK(::write(writer, bytes.data(), first) == static_cast<ssize_t>(first));
    REQUIRE(kill(pid, SIGINT) == 0);
    (void)::write(writer, bytes.data() + first, std::size_t{2} * kChunk);  // the run may be gone already
    // A bound on a hang, not a timing: the run ends in milliseconds, or never while the pipe is open.
    int raw = 0;
    pid_t ended = 0;
    for (int tick = 0; tick < 3000 && ended == 0; ++tick) {
        ended = waitpid(pid, &raw, WNOHANG);
        if (ended == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (ended == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &raw, 0);
    }
    ::close(writer);
    std::signal(SIGPIPE, previous);
    const std::string errors = readText(err);
    INFO(errors);
    REQUIRE(ended == pid);
    CHECK((WIFEXITED(raw) && WEXITSTATUS(raw) == 130));
    CHECK(errors.find("stopped by signal 2 while the nodes were starting") != std::string::npos);
    REQUIRE(fs::exists(report));
    CHECK(nlohmann::json::parse(readText(report))["stopped_while_starting"] == true);
    for (const fs::path& path : {wav, fifo, graph, report, err}) fs::remove(path);
}

TEST_CASE("a signal while the nodes start (a preloaded file decoding) stops the run with the report written", "[runner][faults]") {
    // The signal killed the process by its default action: no report, exit status of the signal.
    // The source preloads from a named pipe: its node is starting for as long as the pipe stays open.
    const fs::path wav = tempPath("starting-source.wav"), fifo = tempPath("starting.fifo"), report = tempPath("starting-report.json");
    writeWav(wav, 8000);
    const std::string bytes = readText(wav);
    fs::remove(fifo);
    fs::remove(report);
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    const fs::path graph = writeCopyGraph("starting", fifo.string(), {"/dev/null"});
    for (const int signal : {SIGINT, SIGTERM}) {
        INFO("signal " << signal);
        const fs::path err = tempPath("starting-stderr");
        const pid_t pid = startRun({graph.string(), "--report", report.string()}, -1, err);
        const int writer = ::open(fifo.c_str(), O_WRONLY);  // returns once the starting source opened it
        REQUIRE(writer >= 0);
        REQUIRE(kill(pid, signal) == 0);
        const auto previous = std::signal(SIGPIPE, SIG_IGN);  // a child the signal killed has closed its end
        // The source may have given up waiting for the bytes already (it closed its end: EPIPE).
        const ssize_t written = ::write(writer, bytes.data(), bytes.size());
        CHECK((written == static_cast<ssize_t>(bytes.size()) || (written < 0 && errno == EPIPE)));
        std::signal(SIGPIPE, previous);
        ::close(writer);
        CHECK(waitFor(pid) == 128 + signal);
        const std::string errors = readText(err);
        INFO(errors);
        CHECK(errors.find("stopped by signal " + std::to_string(signal) + " while the nodes were starting") != std::string::npos);
        REQUIRE(fs::exists(report));
        const auto json = nlohmann::json::parse(readText(report));
        CHECK(json["stopped"] == true);
        CHECK(json["completed"] == false);
        CHECK(json["stopped_while_starting"] == true);
        fs::remove(report);
        fs::remove(err);
    }
    for (const fs::path& path : {wav, fifo, graph}) fs::remove(path);
}

// Whether the process `pid` holds `path` open (a link in /proc/PID/fd leads to it).
bool holdsOpen(pid_t pid, const fs::path& path) {
    std::error_code error;
    for (const auto& entry : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", error)) {
        std::error_code linkError;
        if (fs::read_symlink(entry.path(), linkError) == path) return true;
    }
    return false;
}

TEST_CASE("a signal stops a run whose sound file source waits for a writer on a named pipe, with the report written", "[runner][faults]") {
    // Opening the pipe waited in the kernel for a writer: Ctrl-C and SIGTERM were ignored (a service
    // manager escalates to SIGKILL), and only a second Ctrl-C ended it, without a report.
    const fs::path fifo = tempPath("unwritten.fifo"), report = tempPath("unwritten-report.json"), err = tempPath("unwritten-stderr");
    fs::remove(fifo);
    fs::remove(report);
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    const fs::path graph = writeCopyGraph("unwritten", fifo.string(), {"/dev/null"});
    for (const int signal : {SIGINT, SIGTERM}) {
        INFO("signal " << signal);
        const pid_t pid = startRun({graph.string(), "--report", report.string()}, -1, err);
        // The source has opened its end of the pipe and waits for a writer (the child's alarm ends a
        // run that never gets there).
        while (!holdsOpen(pid, fifo)) {
            int raw = 0;
            if (waitpid(pid, &raw, WNOHANG) == pid) FAIL("the run ended before it opened " << fifo);
            usleep(1000);
        }
        REQUIRE(kill(pid, signal) == 0);
        CHECK(waitFor(pid) == 128 + signal);
        const std::string errors = readText(err);
        INFO(errors);
        CHECK(errors.find("stopped by signal " + std::to_string(signal) + " while the nodes were starting") != std::string::npos);
        REQUIRE(fs::exists(report));
        const auto json = nlohmann::json::parse(readText(report));
        CHECK(json["stopped"] == true);
        CHECK(json["stopped_while_starting"] == true);
        fs::remove(report);
        fs::remove(err);
    }
    for (const fs::path& path : {fifo, graph}) fs::remove(path);
}

TEST_CASE("a run stopped by a signal keeps in the CSV file every row that reached io.csv_sink", "[runner][faults]") {
    // The sink holds a row until progress passes its time (every 65 536 items here): a stop threw the
    // held rows away, leaving the header only. A JSON-lines sink beside it (each line flushed into its
    // file, new, so written under its own name) shows when items are flowing; the report counts what
    // reached the CSV sink.
    const fs::path csv = tempPath("stopped.csv"), lines = tempPath("stopped.jsonl"), report = tempPath("stopped-report.json");
    const fs::path graph = tempPath("stopped-csv.isograph.json"), err = tempPath("stopped-stderr");
    writeTextSinksGraph(graph, csv, lines);
    for (const int signal : {SIGINT, SIGTERM}) {
        INFO("signal " << signal);
        fs::remove(lines);
        fs::remove(csv);
        const pid_t pid = startRun({graph.string(), "--report", report.string()}, -1, err);
        waitForLines(lines, 20, pid);
        REQUIRE(kill(pid, signal) == 0);
        CHECK(waitFor(pid) == 128 + signal);
        const auto json = nlohmann::json::parse(readText(report));
        CHECK(json["stopped"] == true);
        const std::int64_t reached = json["outputs"]["csv"]["items"].get<std::int64_t>();
        CHECK(reached >= 20);
        // Where no file was, each cut-short file takes its name (with a warning).
        const std::string text = readText(csv);
        CHECK(text.starts_with("t_start,t_end,in0\n"));
        CHECK(std::count(text.begin(), text.end(), '\n') == reached + 1);
        const std::string logged = readText(lines);
        CHECK(std::count(logged.begin(), logged.end(), '\n') == json["outputs"]["log"]["items"].get<std::int64_t>());
        CHECK_THAT(json["nodes"]["csv"]["warnings"][0].get<std::string>(), Catch::Contains("cut short") && Catch::Contains("kept as '" + csv.string() + "'"));
        CHECK(partialsOf(csv).empty());
        CHECK(partialsOf(lines).empty());
    }
    for (const fs::path& path : {csv, lines, report, graph, err}) fs::remove(path);
}

TEST_CASE("a run stopped by a signal never replaces the text sinks' existing files: the cut-short files stay beside them", "[runner][faults]") {
    // io.csv_sink and io.jsonl_event_sink opened their path with truncation: Ctrl-C a second into a run
    // left the previous run's complete file replaced by a header and a second of rows.
    const fs::path csv = tempPath("kept.csv"), lines = tempPath("kept.jsonl"), report = tempPath("kept-report.json");
    const fs::path graph = tempPath("kept-csv.isograph.json"), err = tempPath("kept-stderr");
    writeTextSinksGraph(graph, csv, lines);
    std::ofstream(csv) << "the previous run's table\n";
    std::ofstream(lines) << "{\"previous\": true}\n";
    const pid_t pid = startRun({graph.string(), "--report", report.string()}, -1, err);
    const fs::path growingLines = lines.string() + "." + std::to_string(pid) + ".partial";
    waitForLines(growingLines, 20, pid);
    REQUIRE(kill(pid, SIGINT) == 0);
    CHECK(waitFor(pid) == 128 + SIGINT);
    CHECK(readText(csv) == "the previous run's table\n");
    CHECK(readText(lines) == "{\"previous\": true}\n");
    const auto json = nlohmann::json::parse(readText(report));
    const fs::path growingCsv = csv.string() + "." + std::to_string(pid) + ".partial";
    REQUIRE(partialsOf(csv) == std::vector<fs::path>{growingCsv});
    REQUIRE(partialsOf(lines) == std::vector<fs::path>{growingLines});
    const std::string table = readText(growingCsv), logged = readText(growingLines);
    CHECK(std::count(table.begin(), table.end(), '\n') == json["outputs"]["csv"]["items"].get<std::int64_t>() + 1);
    CHECK(std::count(logged.begin(), logged.end(), '\n') == json["outputs"]["log"]["items"].get<std::int64_t>());
    CHECK_THAT(json["nodes"]["csv"]["warnings"][0].get<std::string>(),
               Catch::Contains("did not replace '" + csv.string() + "'") && Catch::Contains("kept as '" + growingCsv.string() + "'"));
    CHECK_THAT(json["nodes"]["log"]["warnings"][0].get<std::string>(),
               Catch::Contains("did not replace '" + lines.string() + "'") && Catch::Contains("kept as '" + growingLines.string() + "'"));
    for (const fs::path& path : {csv, lines, report, graph, err, growingCsv, growingLines}) fs::remove(path);
}

TEST_CASE("standard output a sink writes is refused as the report, the telemetry or a second sink's file, also under --check",
          "[runner][faults]") {
    // `--report /dev/stdout > out.wav` replaced the recording with the report (exit 0); --telemetry
    // there corrupted it; two sinks on '-' mixed their data in one stream. Standard output is a
    // regular file here, as a shell's redirection makes it.
    const fs::path graph = writeGraph("stdout-shared", 0.1, "-");
    const fs::path out = tempPath("stdout-shared.out"), err = tempPath("stdout-shared-stderr");
    for (const std::string flag : {"--report", "--telemetry"}) {
        for (const std::string& name : std::vector<std::string>{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", out.string()}) {
            for (const bool check : {false, true}) {
                INFO(flag << " " << name << (check ? " --check" : ""));
                const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
                REQUIRE(fd >= 0);
                std::vector<std::string> arguments{graph.string(), flag, name};
                if (check) arguments.push_back("--check");
                const int status = waitFor(startRun(arguments, fd, err));
                ::close(fd);
                const std::string errors = readText(err);
                INFO(errors);
                CHECK(status == 1);
                CHECK(errors.find(flag + " " + name + " is standard output, where node 'wav' (parameter 'path') writes its data") != std::string::npos);
            }
        }
    }
    {
        INFO("two sinks on '-'");
        const fs::path two = tempPath("two-stdout.isograph.json");
        std::ofstream(two) << R"({"format": "isochron-graph/1", "nodes": [
          {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0.1}},
          {"id": "wav", "type": "io.wav_file_sink", "params": {"path": "-"}},
          {"id": "log", "type": "io.jsonl_event_sink", "params": {"path": "-"}}],
          "edges": [{"from": "gen.out", "to": "wav.in0"}, {"from": "gen.out", "to": "log.in"}]})";
        for (const bool check : {false, true}) {
            std::vector<std::string> arguments{two.string()};
            if (check) arguments.push_back("--check");
            const Finished r = run(arguments);
            INFO(r.err);
            CHECK(r.status == 1);
            CHECK(r.err.find("node 'wav' (parameter 'path') and node 'log' (parameter 'path') both write to standard output") != std::string::npos);
        }
        fs::remove(two);
    }
    {
        INFO("a device as standard output is shared in place: the run goes on");
        const int fd = ::open("/dev/null", O_WRONLY);
        REQUIRE(fd >= 0);
        CHECK(waitFor(startRun({graph.string(), "--report", "/dev/stdout", "--quiet"}, fd, err)) == 0);
        ::close(fd);
    }
    for (const fs::path& path : {graph, out, err}) fs::remove(path);
}

TEST_CASE("a second run given a telemetry file another run is writing is refused; the first run's file is untouched", "[runner][faults]") {
    // Both ran, writing into one file at once: one run's snapshots were overwritten and a line was torn.
    const fs::path graph = tempPath("telemetry-twice.isograph.json"), telemetry = tempPath("telemetry-twice.jsonl");
    const fs::path firstErr = tempPath("telemetry-first-stderr"), secondErr = tempPath("telemetry-second-stderr");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "src", "type": "workload.tuple_source", "params": {"rate": 1000, "pace": 1}},
      {"id": "out", "type": "io.null_sink"}],
      "edges": [{"from": "src.out0", "to": "out.in"}]})";
    fs::remove(telemetry);
    const pid_t first = startRun({graph.string(), "--telemetry", telemetry.string(), "--quiet"}, -1, firstErr);
    waitForLines(telemetry, 3, first);
    const int second = waitFor(startRun({graph.string(), "--telemetry", telemetry.string(), "--quiet"}, -1, secondErr));
    const std::string refusal = readText(secondErr);
    INFO(refusal);
    CHECK(second == 1);
    CHECK_THAT(refusal, Catch::Contains("--telemetry " + telemetry.string()) && Catch::Contains("another run is writing"));
    const std::string before = readText(telemetry);
    waitForLines(telemetry, std::count(before.begin(), before.end(), '\n') + 2, first);  // the first run writes on
    REQUIRE(kill(first, SIGINT) == 0);
    CHECK(waitFor(first) == 130);
    std::istringstream lines(readText(telemetry));
    std::int64_t count = 0;
    for (std::string line; std::getline(lines, line); ++count) CHECK_NOTHROW(nlohmann::json::parse(line));
    CHECK(count >= 5);
    for (const fs::path& path : {graph, telemetry, firstErr, secondErr}) fs::remove(path);
}

TEST_CASE("a telemetry file in a missing folder is refused before any node starts: no archive is created", "[runner][faults]") {
    // The archive sink had created its file (tables, no stream) before the telemetry file was opened.
    const fs::path graph = tempPath("telemetry-missing.isograph.json"), archive = tempPath("telemetry-missing.sqlite");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"duration": 0.1}},
      {"id": "rec", "type": "io.archive_sink", "params": {"path": ")" << archive.string() << R"("}}],
      "edges": [{"from": "gen.out", "to": "rec.in0"}]})";
    fs::remove(archive);
    const std::string missing = tempPath("no-such-folder").string() + "/t.jsonl";
    Finished r = run({graph.string(), "--telemetry", missing});
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK_THAT(r.err, Catch::Contains("--telemetry") && Catch::Contains("does not exist"));
    CHECK_FALSE(fs::exists(archive));
    fs::remove(graph);
}

TEST_CASE("a sound file sink that cannot write says why in plain words, naming its file", "[runner][faults]") {
    // It said "writing '<path>.<pid>.partial' failed: System error : No space left on device. (in
    // process)": a file renamed away by then, libsndfile's lead-in and the engine's hook name.
    const fs::path graph = writeGraph("full-device", 0.5, "/dev/full");
    Finished r = run({graph.string()});
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("node 'wav'") && Catch::Contains("'/dev/full'") && Catch::Contains("No space left on device"));
    CHECK_THAT(r.err, !Catch::Contains("System error") && !Catch::Contains("(in process)") && !Catch::Contains(".partial"));
    fs::remove(graph);
}

TEST_CASE("a stop ends a run whose telemetry snapshots come faster than they are written", "[runner][faults]") {
    // 2 000 nodes at 1 000 snapshots a second: writing one took longer than the engine took to make
    // the next, the writer never ran dry, and Ctrl-C, SIGTERM and SIGHUP went unseen while the file
    // grew by gigabytes (only SIGKILL ended the run, without its report).
    const fs::path graph = tempPath("telemetry-flood.isograph.json"), telemetry = tempPath("telemetry-flood.jsonl");
    const fs::path report = tempPath("telemetry-flood-report.json"), err = tempPath("telemetry-flood-stderr");
    {
        std::ofstream out(graph);
        out << R"({"format": "isochron-graph/1", "nodes": [{"id": "gen", "type": "generators.signal_generator", "params": {"duration": 0, "block": 480, "pace": 1}})";
        for (int i = 0; i < 2000; ++i) out << R"(, {"id": "p)" << i << R"(", "type": "segments.pass_through"})";
        out << R"(, {"id": "sink", "type": "io.null_sink"}], "edges": [{"from": "gen.out", "to": "p0.in"})";
        for (int i = 1; i < 2000; ++i) out << R"(, {"from": "p)" << i - 1 << R"(.out", "to": "p)" << i << R"(.in"})";
        out << R"(, {"from": "p1999.out", "to": "sink.in"}]})";
    }
    const pid_t pid = startRun({graph.string(), "--quiet", "--telemetry", telemetry.string(), "--telemetry-rate", "1000", "--report", report.string()}, -1, err);
    waitForLines(telemetry, 20, pid);
    REQUIRE(kill(pid, SIGINT) == 0);
    // The child's alarm (120 s) ends a run that ignores the stop: status 1000 + SIGALRM then.
    CHECK(waitFor(pid) == 130);
    INFO(readText(err));
    CHECK(nlohmann::json::parse(readText(report))["stopped"] == true);
    for (const fs::path& path : {graph, telemetry, report, err}) fs::remove(path);
}
