// isochron-run with plugins: --plugin and discovery, listings with origins, refusals, and faults:
// a plugin operator that throws disables its node only; the rest of the graph finishes, and the
// exit message, the report and the telemetry name the node (and the plugin file).
#include <catch2/catch.hpp>

#include <fstream>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "tests/plugins/plugin_test_support.h"
#include "tests/support/run_command.h"

using namespace isochron::test;
using Catch::Matchers::Contains;

namespace {

using Result = isochron::test::CommandResult;

// isochron-run with `arguments`, no per-user plugins unless `environment` sets them.
Result runRunner(const std::string& arguments, const std::string& environment = "") {
    return isochron::test::runProgram("env XDG_DATA_HOME=/nonexistent-isochron-test " + environment + " " + ISOCHRON_RUN_BINARY, arguments);
}

// A tone split to a healthy sink and to `faultyType` (from the flawed fixture; with `params`) before another sink.
std::filesystem::path writeFaultGraph(const std::filesystem::path& folder, const std::string& faultyType,
                                      const nlohmann::json& params = nlohmann::json::object()) {
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "tone"}, {"type", "generators.signal_generator"}, {"params", {{"rate", 8000}, {"duration", 1}, {"block", 200}}}},
                   {{"id", "healthy"}, {"type", "io.null_sink"}},
                   {{"id", "faulty"}, {"type", faultyType}, {"params", params}},
                   {{"id", "after"}, {"type", "io.null_sink"}}}},
        {"edges", {{{"from", "tone.out"}, {"to", "healthy.in"}}, {{"from", "tone.out"}, {"to", "faulty.in"}}, {{"from", "faulty.out"}, {"to", "after.in"}}}}};
    const auto path = folder / (faultyType + ".isograph.json");
    std::ofstream(path) << graph.dump(2);
    return path;
}

nlohmann::json readJson(const std::filesystem::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

// Whether a `signal` sent to process `pid` waits to be delivered (the process's shared pending set):
// two signals of one kind sent before the first is taken arrive as one.
bool signalPending(pid_t pid, int signal) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);) {
        if (line.starts_with("ShdPnd:")) return (std::stoull(line.substr(7), nullptr, 16) >> (signal - 1)) & 1U;
    }
    return false;
}

// What `pid` wrote into `outputPath`, once it ended with status `status` (waitpid's).
std::string outputOnceEnded(pid_t pid, const std::filesystem::path& outputPath, int& status) {
    REQUIRE(waitpid(pid, &status, 0) == pid);
    std::ifstream in(outputPath);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("a plugin operator that throws disables its node; the rest of the graph runs to the end", "[plugins][faults]") {
    ScratchFolder folder("faults");
    const std::string flawed = fixturePlugin("flawed").string();
    for (const auto& [type, message] : {std::pair<std::string, std::string>{"flawed.throws", "deliberate failure on segment 10"},
                                        {"flawed.throws_anything", "threw something that is not a std::exception"}}) {
        INFO(type);
        const auto report = folder.path() / "report.json", telemetry = folder.path() / "telemetry.jsonl";
        const Result r = runRunner(writeFaultGraph(folder.path(), type).string() + " --plugin " + flawed + " --report " + report.string() +
                                   " --telemetry " + telemetry.string());
        INFO(r.output);
        CHECK(r.status == 2);
        CHECK_THAT(r.output, Contains("error: node 'faulty': " + message + " (in process) [plugin " +
                                      std::filesystem::canonical(flawed).string() + "]"));
        const nlohmann::json json = readJson(report);
        CHECK(json["completed"] == true);
        CHECK(json["outputs"]["healthy"]["samples"] == 8000);  // every sample reached the healthy branch
        CHECK(json["nodes"]["faulty"]["items_in"] == 10);
        CHECK(json["nodes"]["after"]["items_in"] == 9);
        CHECK_THAT(json["nodes"]["faulty"]["failure"].get<std::string>(), Contains(message));
        std::ifstream lines(telemetry);
        nlohmann::json last;
        for (std::string line; std::getline(lines, line);) last = nlohmann::json::parse(line);
        CHECK(last["nodes"]["faulty"]["failed"] == true);
        CHECK_THAT(last["nodes"]["faulty"]["failure"].get<std::string>(), Contains(message) && Contains("[plugin "));
        CHECK_FALSE(last["nodes"]["healthy"].contains("failure"));
        CHECK(last["nodes"]["healthy"]["failed"] == false);
        CHECK(last["nodes"]["healthy"]["finished"] == true);
    }
}

TEST_CASE("forward refuses an item handed over already and one its output does not carry, in-process and sandboxed; the node is disabled",
          "[plugins][faults]") {
    ScratchFolder folder("forward");
    const std::string flawed = fixturePlugin("flawed").string();
    struct Case {
        const char* type;
        const char* failure;
        int passedOn;  // items that reached 'after' before the failure
    };
    for (const Case& flaw : {Case{"flawed.forwards_twice", "emit on output 'out': forward takes the item process() got, once", 1},
                             Case{"flawed.forwards_mistyped", "emit on output 'out': a signal item does not fit output 'out' (signal<f64>)", 0}}) {
        for (const char* hosting : {"", " --sandbox"}) {
            INFO(flaw.type << hosting);
            const auto report = folder.path() / "report.json";
            const Result r = runRunner(writeFaultGraph(folder.path(), flaw.type).string() + " --plugin " + flawed + hosting + " --report " + report.string());
            INFO(r.output);
            CHECK(r.status == 2);
            CHECK_THAT(r.output, Contains("error: node 'faulty': " + std::string(flaw.failure)));
            const nlohmann::json json = readJson(report);
            CHECK(json["outputs"]["healthy"]["samples"] == 8000);
            CHECK(json["nodes"]["faulty"]["items_in"] == 1);
            CHECK(json["nodes"]["after"]["items_in"] == flaw.passedOn);
        }
    }
}

TEST_CASE("isochron-run loads --plugin files and discovered plugins, and lists them with their origin", "[plugins][runner]") {
    ScratchFolder folder("runner");
    const Result listed = runRunner("--plugin " + examplePlugin("biquad").string() + " --list-operators --list-plugins");
    CHECK(listed.status == 0);
    CHECK_THAT(listed.output, Contains("biquad.filter  [filters]  Second-order IIR filter") &&
                                  Contains("(plugin " + std::filesystem::canonical(examplePlugin("biquad")).string() + ")"));
    CHECK_THAT(listed.output, Contains("biquad 1.0.0  ") && Contains("extension isochron.check/1"));
    CHECK_THAT(listed.output, Contains("stats.mean_filter  [stats]"));

    // Discovery: ISOCHRON_PLUGIN_PATH names the examples; a broken plugin elsewhere is only a warning.
    copyPlugin(fixturePlugin("refused_abi"), folder.path(), "broken");
    const std::string path = "ISOCHRON_PLUGIN_PATH=" + std::filesystem::path(ISOCHRON_EXAMPLE_PLUGIN_DIR).string() + ":" + folder.path().string();
    const Result discovered = runRunner("--list-plugins", path);
    CHECK(discovered.status == 0);
    CHECK_THAT(discovered.output, Contains("tones 1.0.0") && Contains("item type custom<tones.tone>") && Contains("zero_crossing_rate 1.0.0"));
    CHECK_THAT(discovered.output, Contains("warning: plugin " + (folder.path() / "broken.so").string() + ": built for plugin ABI 1"));
    CHECK_THAT(discovered.output, Contains("plugins were looked for in:\n  " + std::string(ISOCHRON_EXAMPLE_PLUGIN_DIR) + "\n  " +
                                           folder.path().string() + "\n  /nonexistent-isochron-test/isochron/plugins  (does not exist)"));

    // With nothing to find, it still says where it looked.
    const Result nothing = runRunner("--list-plugins", "ISOCHRON_PLUGIN_PATH=" + (folder.path() / "empty").string());
    CHECK(nothing.status == 0);
    CHECK_THAT(nothing.output, Contains((folder.path() / "empty").string() + "  (does not exist)") && Contains("no plugins found"));

    // A refused --plugin is fatal and says why.
    const Result refused = runRunner("--plugin " + fixturePlugin("refused_symbol").string() + " --list-operators");
    CHECK(refused.status == 1);
    CHECK_THAT(refused.output, Contains("refused_symbol.so: cannot be loaded") && Contains("undefined symbol"));
}

TEST_CASE("an in-process plugin that hangs: a second Ctrl-C ends the run at once, with the report naming the node", "[plugins][faults]") {
    // The hung call kept the runner waiting for good: SIGINT (twice), SIGTERM and SIGHUP were ignored
    // and no report was written.
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    ScratchFolder folder("hang-in-process");
    const auto report = folder.path() / "report.json", output = folder.path() / "output.txt";
    const pid_t pid = startRunner({writeFaultGraph(folder.path(), "faults.hang").string(), "--plugin", faults, "--scheduler", "df", "--report", report.string()}, output);
    while (!mainThreadSleeps(pid)) usleep(1000);  // the plugin's hang; polls a state, ended by the child's alarm at worst
    REQUIRE(kill(pid, SIGINT) == 0);
    REQUIRE(kill(pid, SIGINT) == 0);
    int raw = 0;
    REQUIRE(waitpid(pid, &raw, 0) == pid);
    std::ifstream in(output);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(text);
    REQUIRE(WIFEXITED(raw));
    CHECK(WEXITSTATUS(raw) == 128 + SIGINT);
    CHECK_THAT(text, Contains("node 'faulty' (plugin " + faults + ") in its process hook has not returned"));
    const nlohmann::json json = readJson(report);
    CHECK(json["stopped"] == true);
    CHECK(json["completed"] == false);
    CHECK_THAT(json["abandoned"].get<std::string>(), Contains("node 'faulty'"));
    CHECK(json["nodes"]["faulty"]["items_in"] >= 3);
}

TEST_CASE("an in-process plugin hanging in activate: a stop leaves it behind after 3 s (at once on a second signal), "
          "the report naming node, plugin and hook",
          "[plugins][faults]") {
    // The stop was ignored while the nodes started: no message, no report, no exit (`timeout` ran for
    // 20 minutes); a second signal ended the run with nothing said and no report.
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    const std::string stuck = "node 'faulty' (plugin " + faults + ") in its activate hook";
    for (const auto& [signal, count] : {std::pair{SIGTERM, 1}, std::pair{SIGINT, 1}, std::pair{SIGHUP, 2}}) {
        INFO("signal " << signal << " sent " << count << " times");
        ScratchFolder folder("hang-in-activate");
        const auto report = folder.path() / "report.json", output = folder.path() / "output.txt";
        const auto graph = writeFaultGraph(folder.path(), "faults.in_hook", {{"hook", "activate"}, {"how", "hang"}});
        const pid_t pid = startRunner({graph.string(), "--plugin", faults, "--report", report.string()}, output);
        while (!mainThreadSleeps(pid)) usleep(1000);  // the plugin's hang; polls a state, ended by the child's alarm at worst
        for (int sent = 0; sent < count; ++sent) {
            while (signalPending(pid, signal)) usleep(1000);  // the one before was taken; the child's alarm bounds it
            REQUIRE(kill(pid, signal) == 0);
        }
        int raw = 0;
        const std::string text = outputOnceEnded(pid, output, raw);
        INFO(text);
        REQUIRE(WIFEXITED(raw));
        CHECK(WEXITSTATUS(raw) == 128 + signal);
        CHECK_THAT(text, Contains(std::string("the run did not stop ") + (count > 1 ? "before a second signal" : "within 3 s") + ": " + stuck +
                                  " has not returned; leaving without it"));
        const nlohmann::json json = readJson(report);
        CHECK(json["stopped"] == true);
        CHECK(json["completed"] == false);
        CHECK(json["stopped_while_starting"] == true);
        CHECK(json["abandoned"] == stuck + " did not return after the stop request");
    }
}

TEST_CASE("an in-process plugin hanging in deactivate: a stop leaves it behind after 3 s (at once on a second signal), "
          "the report naming node, plugin and hook",
          "[plugins][faults]") {
    // The nodes were deactivated after the run's stop watcher had ended: every signal was ignored,
    // nothing was said, no report was written; only SIGKILL ended it (tryout17d).
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    const std::string stuck = "node 'faulty' (plugin " + faults + ") in its deactivate hook";
    for (const auto& [signal, count] : {std::pair{SIGTERM, 1}, std::pair{SIGINT, 2}}) {
        INFO("signal " << signal << " sent " << count << " times");
        ScratchFolder folder("hang-in-deactivate");
        const auto report = folder.path() / "report.json", output = folder.path() / "output.txt";
        const auto graph = writeFaultGraph(folder.path(), "faults.in_hook", {{"hook", "deactivate"}, {"how", "hang"}});
        const pid_t pid = startRunner({graph.string(), "--plugin", faults, "--report", report.string()}, output);
        while (!mainThreadSleeps(pid)) usleep(1000);  // the plugin's hang; polls a state, ended by the child's alarm at worst
        for (int sent = 0; sent < count; ++sent) {
            while (signalPending(pid, signal)) usleep(1000);  // the one before was taken; the child's alarm bounds it
            REQUIRE(kill(pid, signal) == 0);
        }
        int raw = 0;
        const std::string text = outputOnceEnded(pid, output, raw);
        INFO(text);
        REQUIRE(WIFEXITED(raw));
        CHECK(WEXITSTATUS(raw) == 128 + signal);
        CHECK_THAT(text, Contains(std::string("the run did not stop ") + (count > 1 ? "before a second signal" : "within 3 s") + ": " + stuck +
                                  " has not returned; leaving without it"));
        const nlohmann::json json = readJson(report);
        CHECK(json["abandoned"] == stuck + " did not return after the stop request");
        CHECK_FALSE(json.contains("stopped_while_starting"));
    }
}

TEST_CASE("broken plugins in the search path (cut-short binary, manifest a folder, a FIFO or a device) are skipped with a warning; "
          "graphs run, a graph that uses one is refused naming it",
          "[plugins][runner]") {
    ScratchFolder folder("broken-plugins");
    // A copy still in progress: the whole manifest, the binary's first 4 KiB (its ELF and program
    // headers, while its loaded segments reach past the end). Half the file would not do: in a
    // sanitizer build debug sections fill the second half, and the segments all fit in the first.
    const auto cut = copyPlugin(examplePlugin("biquad"), folder.path(), "cut");
    std::filesystem::resize_file(cut, 4096);
    const auto folderManifest = folder.path() / "foldered.so", fifoManifest = folder.path() / "piped.so", deviceManifest = folder.path() / "zeroed.so";
    for (const auto& binary : {folderManifest, fifoManifest, deviceManifest}) std::filesystem::copy_file(examplePlugin("tones"), binary);
    std::filesystem::create_directory(folder.path() / "foldered.manifest.json");
    REQUIRE(mkfifo((folder.path() / "piped.manifest.json").c_str(), 0600) == 0);
    std::filesystem::create_symlink("/dev/zero", folder.path() / "zeroed.manifest.json");

    const auto graph = folder.path() / "plain.isograph.json";
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
        {"id": "tone", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0.1}},
        {"id": "sink", "type": "io.null_sink"}], "edges": [{"from": "tone.out", "to": "sink.in"}]})";
    // The good plugins after the broken ones: still found. `timeout` turns a hang (the FIFO) into 124.
    const std::string path = "ISOCHRON_PLUGIN_PATH=" + folder.path().string() + ":" + std::filesystem::path(ISOCHRON_EXAMPLE_PLUGIN_DIR).string();
    for (const char* mode : {"--check ", ""}) {
        INFO(mode);
        const Result r = runRunner(mode + graph.string(), path + " timeout 60");
        INFO(r.output);
        CHECK(r.status == 0);
        CHECK_THAT(r.output, Contains("warning: plugin " + cut.string() + ": is cut short: its ELF program headers reach byte"));
        CHECK_THAT(r.output, Contains("warning: plugin " + folderManifest.string() + ": its manifest " +
                                      (folder.path() / "foldered.manifest.json").string() + " is a folder, not a file"));
        CHECK_THAT(r.output, Contains("warning: plugin " + fifoManifest.string() + ": its manifest " +
                                      (folder.path() / "piped.manifest.json").string() + " is a named pipe (FIFO), not a file"));
        CHECK_THAT(r.output, Contains("zeroed.manifest.json is a device, not a file"));
    }
    const Result listed = runRunner("--list-plugins", path + " timeout 60");
    CHECK(listed.status == 0);
    CHECK_THAT(listed.output, Contains("biquad 1.0.0  " + std::filesystem::canonical(examplePlugin("biquad")).string()));

    // Named with --plugin, the cut-short binary is refused (exit 1) with the reason, not a SIGBUS.
    const Result named = runRunner("--plugin " + cut.string() + " --check " + graph.string(), "timeout 60");
    CHECK(named.status == 1);
    CHECK_THAT(named.output, Contains("plugin " + cut.string() + ": is cut short"));
}

TEST_CASE("a *.so in the search path that is no file (a folder, a FIFO, a loop of symlinks, a link to a device) is skipped with a "
          "warning saying what it is; --plugin names the path given; a path entry that is no folder is listed as what it is",
          "[plugins][runner]") {
    // These were skipped without a word, a link to /dev/zero given to --plugin was "plugin /dev/zero: no
    // manifest", a loop "no such file", and a path entry that is a file "(does not exist)".
    ScratchFolder folder("not-plugins");
    const auto dir = folder.path() / "folder.so", fifo = folder.path() / "fifo.so", loop = folder.path() / "loop.so",
               device = folder.path() / "device.so", dangling = folder.path() / "dangling.so";
    std::filesystem::create_directory(dir);
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    std::filesystem::create_symlink(loop, loop);
    std::filesystem::create_symlink("/dev/zero", device);
    std::filesystem::create_symlink(folder.path() / "missing.so", dangling);
    const auto graph = folder.path() / "plain.isograph.json";
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
        {"id": "tone", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0.1}},
        {"id": "sink", "type": "io.null_sink"}], "edges": [{"from": "tone.out", "to": "sink.in"}]})";
    // `timeout` turns a hang (opening the FIFO) into 124.
    const Result r = runRunner("--check " + graph.string(), "ISOCHRON_PLUGIN_PATH=" + folder.path().string() + " timeout 60");
    INFO(r.output);
    CHECK(r.status == 0);
    CHECK_THAT(r.output, Contains("warning: plugin " + dir.string() + ": is a folder, not a plugin binary"));
    CHECK_THAT(r.output, Contains("warning: plugin " + fifo.string() + ": is a named pipe (FIFO), not a plugin binary"));
    CHECK_THAT(r.output, Contains("warning: plugin " + loop.string() + ": is a loop of symlinks, not a plugin binary"));
    CHECK_THAT(r.output, Contains("warning: plugin " + device.string() + ": is a symlink to /dev/zero, a device, not a plugin binary"));
    CHECK_THAT(r.output, Contains("warning: plugin " + dangling.string() + ": is a symlink to " + (folder.path() / "missing.so").string() +
                                  ", which does not exist"));

    const Result named = runRunner("--plugin " + device.string() + " --check " + graph.string(), "timeout 60");
    CHECK(named.status == 1);
    CHECK_THAT(named.output, Contains("plugin " + device.string() + ": is a symlink to /dev/zero, a device, not a plugin binary"));
    const Result looped = runRunner("--plugin " + loop.string() + " --check " + graph.string(), "timeout 60");
    CHECK(looped.status == 1);
    CHECK_THAT(looped.output, Contains("plugin " + loop.string() + ": is a loop of symlinks, not a plugin binary"));

    const auto file = folder.path() / "plain-file";
    std::ofstream(file) << "";
    const Result listed = runRunner("--list-plugins", "ISOCHRON_PLUGIN_PATH=" + file.string() + ":" + fifo.string() + ":" +
                                                          (folder.path() / "nowhere").string() + " timeout 60");
    INFO(listed.output);
    CHECK(listed.status == 0);
    CHECK_THAT(listed.output, Contains(file.string() + "  (a file, not a folder: not searched)"));
    CHECK_THAT(listed.output, Contains(fifo.string() + "  (a named pipe (FIFO), not a folder: not searched)"));
    CHECK_THAT(listed.output, Contains((folder.path() / "nowhere").string() + "  (does not exist)"));
}
