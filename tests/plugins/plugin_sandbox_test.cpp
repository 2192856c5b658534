// Sandboxed hosting end to end (isochron-run --sandbox): a plugin that segfaults (also halfway
// through writing a segment), hangs or calls abort() disables its node only, the other branch's
// output is complete, the report names the node and the exit status is 2; a plugin cannot write
// the host's samples it reads in place; sandboxed operators compute exactly what they compute
// in-process (their inputs read in place from the shared sample arena); and
// an in-process crash still names the node and the plugin before the process ends; --sandbox=NAME
// naming no loaded plugin is refused before anything runs.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/plugins/plugin_test_support.h"
#include "tests/support/run_command.h"

using namespace isochron::test;
using Catch::Matchers::Contains;

namespace {

using Result = isochron::test::CommandResult;

#ifdef ISOCHRON_SANITIZED
// AddressSanitizer would catch a sandboxed plugin's segfault in the child and abort it (SIGABRT):
// with its SEGV handler off the child dies of SIGSEGV, as in a release build, and the host's
// report of it is what these tests check under sanitizers too.
constexpr const char* kSanitizerOptions = "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:handle_segv=0 ";
#else
constexpr const char* kSanitizerOptions = "";
#endif

Result runRunner(const std::string& arguments) {
    return runProgram("env XDG_DATA_HOME=/nonexistent-isochron-test ISOCHRON_PLUGIN_PATH= " + std::string(kSanitizerOptions) + ISOCHRON_RUN_BINARY,
                      arguments);
}

// A tone of 40 segments split to a healthy sink and to `faultyType` (with `params`) before another sink.
std::filesystem::path writeFaultGraph(const std::filesystem::path& folder, const std::string& faultyType,
                                      const nlohmann::json& params = nlohmann::json::object()) {
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "tone"}, {"type", "generators.signal_generator"}, {"params", {{"rate", 8000}, {"duration", 1}, {"block", 200}}}},
                   {{"id", "healthy"}, {"type", "io.wav_file_sink"}, {"params", {{"path", (folder / "healthy.wav").string()}}}},
                   {{"id", "faulty"}, {"type", faultyType}, {"params", params}},
                   {{"id", "after"}, {"type", "io.null_sink"}}}},
        {"edges", {{{"from", "tone.out"}, {"to", "healthy.in0"}}, {{"from", "tone.out"}, {"to", "faulty.in"}}, {{"from", "faulty.out"}, {"to", "after.in"}}}}};
    const auto path = folder / "faults.isograph.json";
    std::ofstream(path) << graph.dump(2);
    return path;
}

nlohmann::json readJson(const std::filesystem::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("under --sandbox, a plugin that segfaults, hangs or aborts disables its node and the rest runs to the end", "[plugins][sandbox]") {
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    struct Case {
        const char* type;
        const char* failure;  // what the node's failure says
    };
    const char* segfault = "its sandboxed process died of Segmentation fault (signal 11) in its process hook";
    for (const Case& fault : {Case{"faults.segfault", segfault}, Case{"faults.segfault_while_writing", segfault},
                              Case{"faults.hang", "its sandboxed process did not answer within 1000 ms in its process hook (the watchdog killed it)"},
                              Case{"faults.abort", "its sandboxed process died of Aborted (signal 6) in its process hook"}}) {
        INFO(fault.type);
        ScratchFolder folder(fault.type);
        const auto report = folder.path() / "report.json";
        const Result r = runRunner(writeFaultGraph(folder.path(), fault.type).string() + " --plugin " + faults + " --sandbox --watchdog 1 --report " +
                                   report.string());
        INFO(r.output);
        CHECK(r.status == 2);
        CHECK_THAT(r.output, Contains("error: node 'faulty': " + std::string(fault.failure)) && Contains("[plugin " + faults + "]"));
        const nlohmann::json json = readJson(report);
        CHECK(json["completed"] == true);
        CHECK(json["outputs"]["healthy"]["samples"] == 8000);  // every sample reached the healthy branch
        CHECK(std::filesystem::file_size(folder.path() / "healthy.wav") >= 8000 * 2);
        // Streaming items are batched, so more than the fatal third may have been handed over before
        // the fault showed; what the plugin answered before it still went on, and nothing after.
        CHECK(json["nodes"]["faulty"]["items_in"] >= 3);
        CHECK(json["nodes"]["after"]["items_in"] == 2);  // the two segments before the fault went on
        CHECK_THAT(json["nodes"]["faulty"]["failure"].get<std::string>(), Contains(fault.failure));
        // One hook named: not also the engine's call in which the host noticed it (it said "(in finish)").
        CHECK_THAT(json["nodes"]["faulty"]["failure"].get<std::string>(), !Contains("(in "));
    }
}

TEST_CASE("under --sandbox, a plugin whose activate segfaults, hangs or throws disables its node only; the rest runs to the end",
          "[plugins][sandbox]") {
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    for (const auto& [how, failure] : {std::pair<std::string, std::string>{"segfault", "its sandboxed process died of Segmentation fault (signal 11) in its activate hook"},
                                       {"hang", "its sandboxed process did not answer within 1000 ms in its activate hook (the watchdog killed it)"},
                                       {"throw", "deliberate failure in activate (in the activate hook)"}}) {
        INFO(how);
        ScratchFolder folder("activate-" + how);
        const auto report = folder.path() / "report.json";
        const Result r = runRunner(writeFaultGraph(folder.path(), "faults.in_hook", {{"hook", "activate"}, {"how", how}}).string() + " --plugin " + faults +
                                   " --sandbox --watchdog 1 --report " + report.string());
        INFO(r.output);
        CHECK(r.status == 2);
        CHECK_THAT(r.output, Contains("error: node 'faulty': " + failure + " [plugin " + faults + "]"));
        const nlohmann::json json = readJson(report);
        CHECK(json["completed"] == true);
        CHECK(json["outputs"]["healthy"]["samples"] == 8000);
        CHECK(json["nodes"]["after"]["items_in"] == 0);
        CHECK_THAT(json["nodes"]["faulty"]["failure"].get<std::string>(), Contains(failure));
    }
}

TEST_CASE("a plugin whose deactivate throws (in-process or sandboxed), segfaults or hangs (sandboxed) fails its node: exit 2, the report "
          "names it", "[plugins][sandbox]") {
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    struct Case {
        const char* how;
        const char* hosting;
        const char* failure;
    };
    for (const Case& fault : {Case{"throw", "", "deliberate failure in deactivate (in deactivate)"},
                              Case{"throw", " --sandbox", "deliberate failure in deactivate (in deactivate)"},
                              Case{"segfault", " --sandbox", "its sandboxed process died of Segmentation fault (signal 11) in its deactivate hook"},
                              Case{"hang", " --sandbox --watchdog 1", "its sandboxed process did not answer within 1000 ms in its deactivate hook (the watchdog killed it)"}}) {
        INFO(fault.how << fault.hosting);
        ScratchFolder folder(std::string("deactivate-") + fault.how);
        const auto report = folder.path() / "report.json";
        const Result r = runRunner(writeFaultGraph(folder.path(), "faults.in_hook", {{"hook", "deactivate"}, {"how", fault.how}}).string() + " --plugin " +
                                   faults + fault.hosting + " --report " + report.string());
        INFO(r.output);
        CHECK(r.status == 2);
        CHECK_THAT(r.output, Contains("error: node 'faulty': " + std::string(fault.failure) + " [plugin " + faults + "]"));
        const nlohmann::json json = readJson(report);
        CHECK(json["outputs"]["healthy"]["samples"] == 8000);
        CHECK(json["nodes"]["after"]["items_in"] == 40);  // it failed only as it stopped
        CHECK(json["failures"].size() == 1);
        CHECK_THAT(json["nodes"]["faulty"]["failure"].get<std::string>(), Contains(fault.failure));
        // Under --quiet the failure is still named, as a failure in any other hook is (it said nothing).
        const Result quiet = runRunner(writeFaultGraph(folder.path(), "faults.in_hook", {{"hook", "deactivate"}, {"how", fault.how}}).string() +
                                       " --plugin " + faults + fault.hosting + " --quiet");
        INFO(quiet.output);
        CHECK(quiet.status == 2);
        CHECK_THAT(quiet.output, Contains("isochron-run: error: node 'faulty': " + std::string(fault.failure) + " [plugin " + faults + "]"));
    }
}

TEST_CASE("a sandboxed source that crashes keeps what it emitted before: unpaced, a produce call is a bounded batch", "[plugins][sandbox]") {
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    ScratchFolder folder("crashing-source");
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "ramp"}, {"type", "faults.crashing_source"}, {"params", {{"blocks", 1000}, {"crash_at", 500}}}},
                   {{"id", "sink"}, {"type", "io.null_sink"}}}},
        {"edges", {{{"from", "ramp.out"}, {"to", "sink.in"}}}}};
    const auto path = folder.path() / "source.isograph.json";
    std::ofstream(path) << graph.dump(2);
    const auto report = folder.path() / "report.json";
    const Result r = runRunner(path.string() + " --plugin " + faults + " --sandbox --report " + report.string());
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains("error: node 'ramp': its sandboxed process died of Segmentation fault (signal 11) in its produce hook"));
    const nlohmann::json json = readJson(report);
    // Blocks 1..499 were emitted before the crash; only the last call's batch is lost with it.
    CHECK(json["nodes"]["sink"]["items_in"] >= 499 - 16);
    CHECK(json["nodes"]["sink"]["items_in"] <= 499);
}

TEST_CASE("a plugin whose progress hook throws is named as failing in its progress hook, in-process and sandboxed", "[plugins][sandbox]") {
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    for (const char* hosting : {"", " --sandbox"}) {
        INFO(hosting);
        ScratchFolder folder("progress-throws");
        // Paced (1 s): between blocks the tone's progress alone reaches the node, which calls its progress hook.
        nlohmann::json graph = nlohmann::json::parse(std::ifstream(writeFaultGraph(folder.path(), "faults.in_hook", {{"hook", "progress"}, {"how", "throw"}})));
        graph["nodes"][0]["params"]["pace"] = 1;
        const auto path = folder.path() / "paced.isograph.json";
        std::ofstream(path) << graph.dump(2);
        const auto report = folder.path() / "report.json";
        const Result r = runRunner(path.string() + " --plugin " + faults + hosting + " --report " + report.string());
        INFO(r.output);
        CHECK(r.status == 2);
        CHECK_THAT(r.output, Contains("error: node 'faulty': deliberate failure in progress (in the progress hook) [plugin " + faults + "]"));
        CHECK(readJson(report)["outputs"]["healthy"]["samples"] == 8000);
    }
}

TEST_CASE("under --sandbox, a plugin whose progress hook segfaults or hangs is named as failing in its progress hook", "[plugins][sandbox]") {
    // The child runs a deferred progress hook at the start of the next call (sandbox_protocol.h):
    // without the mark it writes first, the host would blame that call's hook.
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    struct Case {
        const char* how;
        const char* failure;
    };
    for (const Case& fault : {Case{"segfault", "its sandboxed process died of Segmentation fault (signal 11) in its progress hook"},
                              Case{"hang", "its sandboxed process did not answer within 1000 ms in its progress hook (the watchdog killed it)"}}) {
        INFO(fault.how);
        ScratchFolder folder("progress-faults");
        nlohmann::json graph = nlohmann::json::parse(std::ifstream(writeFaultGraph(folder.path(), "faults.in_hook", {{"hook", "progress"}, {"how", fault.how}})));
        graph["nodes"][0]["params"]["pace"] = 1;  // paced: the tone's progress alone reaches the node between blocks
        const auto path = folder.path() / "paced.isograph.json";
        std::ofstream(path) << graph.dump(2);
        const auto report = folder.path() / "report.json";
        const Result r = runRunner(path.string() + " --plugin " + faults + " --sandbox --watchdog 1 --report " + report.string());
        INFO(r.output);
        CHECK(r.status == 2);
        CHECK_THAT(r.output, Contains("error: node 'faulty': " + std::string(fault.failure) + " [plugin " + faults + "]"));
        const nlohmann::json json = readJson(report);
        CHECK_THAT(json["nodes"]["faulty"]["failure"].get<std::string>(), Contains("in its progress hook"));
        CHECK(json["outputs"]["healthy"]["samples"] == 8000);
    }
}

TEST_CASE("routed items pass sandboxed plugin nodes unchanged without reaching the child; the report and telemetry count them as routed", "[plugins][sandbox][routes]") {
    // Three pass_through plugins in a chain (each routes its input to its output unless `route` is
    // false) against three built-in pass-throughs: the same file, and no item reaches a plugin.
    const std::string plugin = std::filesystem::canonical(examplePlugin("pass_through")).string();
    ScratchFolder folder("routes-sandboxed");
    auto run = [&](const std::string& name, const char* type, const nlohmann::json& params, const std::string& options) {
        nlohmann::json graph = {{"format", "isochron-graph/1"},
                                {"nodes", {{{"id", "tone"}, {"type", "generators.signal_generator"}, {"params", {{"rate", 8000}, {"duration", 1}, {"block", 200}}}},
                                           {{"id", "out"}, {"type", "io.wav_file_sink"}, {"params", {{"path", (folder.path() / (name + ".wav")).string()}}}}}},
                                {"edges", nlohmann::json::array()}};
        std::string from = "tone.out";
        for (const char* id : {"pass1", "pass2", "pass3"}) {
            graph["nodes"].push_back({{"id", id}, {"type", type}, {"params", params}});
            graph["edges"].push_back({{"from", from}, {"to", std::string(id) + ".in"}});
            from = std::string(id) + ".out";
        }
        graph["edges"].push_back({{"from", from}, {"to", "out.in0"}});
        const auto path = folder.path() / (name + ".isograph.json");
        std::ofstream(path) << graph.dump(2);
        const auto report = folder.path() / (name + ".report.json");
        const auto telemetry = folder.path() / (name + ".telemetry.jsonl");
        const Result r = runRunner(path.string() + " --plugin " + plugin + options + " --report " + report.string() + " --telemetry " + telemetry.string());
        INFO(name << ": " << r.output);
        REQUIRE(r.status == 0);
        const nlohmann::json nodes = readJson(report)["nodes"];
        // The live snapshots count calls as the report does: the last one, at the end, agrees with it.
        std::ifstream snapshots(telemetry);
        std::string last;
        for (std::string line; std::getline(snapshots, line);) last = line;
        const nlohmann::json snapshot = nlohmann::json::parse(last);
        for (const char* id : {"pass1", "pass2", "pass3"}) CHECK(snapshot["nodes"][id]["calls"] == nodes[id]["calls"]);
        return nodes;
    };
    const nlohmann::json builtin = run("builtin", "segments.pass_through", nlohmann::json::object(), "");
    const nlohmann::json inProcess = run("in-process", "pass.through", nlohmann::json::object(), "");
    const nlohmann::json sandboxed = run("sandboxed", "pass.through", nlohmann::json::object(), " --sandbox");
    const nlohmann::json called = run("called", "pass.through", {{"route", false}}, " --sandbox");
    const std::string expected = readText(folder.path() / "builtin.wav");
    REQUIRE(expected.size() > 16000);
    for (const char* name : {"in-process", "sandboxed", "called"}) {
        INFO(name);
        CHECK(readText(folder.path() / (std::string(name) + ".wav")) == expected);
    }
    for (const char* id : {"pass1", "pass2", "pass3"}) {
        INFO(id);
        CHECK(builtin[id]["calls"] == 40);
        CHECK_FALSE(builtin[id].contains("routed_items"));
        for (const nlohmann::json* routed : {&inProcess, &sandboxed}) {
            CHECK((*routed)[id]["calls"] == 0);
            CHECK((*routed)[id]["routed_items"] == 40);
            CHECK((*routed)[id]["items_out"] == 40);
        }
        CHECK(called[id]["calls"] == 40);
        CHECK_FALSE(called[id].contains("routed_items"));
    }
}

TEST_CASE("under --sandbox, a plugin cannot write the host's samples it reads in place", "[plugins][sandbox]") {
    // The faulty node's input and the healthy branch share one segment, which the sandbox reads
    // in place from the host's shared sample arena, mapped read-only in the child: the plugin's
    // write into it faults in the child and the healthy branch records the generator's samples
    // untouched (the same file as with a built-in pass-through in the plugin's place).
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    ScratchFolder reference("writes-input-reference");
    REQUIRE(runRunner(writeFaultGraph(reference.path(), "segments.pass_through").string()).status == 0);
    ScratchFolder folder("writes-input");
    const auto report = folder.path() / "report.json";
    const Result r = runRunner(writeFaultGraph(folder.path(), "faults.writes_input").string() + " --plugin " + faults + " --sandbox --report " + report.string());
    INFO(r.output);
    const std::string expected = readText(reference.path() / "healthy.wav");
    CHECK(expected.size() >= 8000 * 2);
    CHECK(readText(folder.path() / "healthy.wav") == expected);
    const nlohmann::json json = readJson(report);
    CHECK(json["completed"] == true);
#ifdef ISOCHRON_SANITIZED
    // Sanitized builds keep the pool out of the arena (shared_sample_arena.h): the child writes a copy.
    CHECK(r.status == 0);
#else
    CHECK(r.status == 2);
    CHECK_THAT(json["nodes"]["faulty"]["failure"].get<std::string>(), Contains("its sandboxed process died of Segmentation fault (signal 11) in its process hook"));
    CHECK(json["nodes"]["after"]["items_in"] == 2);
#endif
}

TEST_CASE("under --sandbox, the watchdog times each call, not a batch of them", "[plugins][sandbox]") {
    // The generator's 40 segments come in quick succession while the plugin answers fast (its
    // first 10), so the rest go in one batch: 30 calls of 50 ms make 1.5 s, beyond the 1 s
    // watchdog, which no single call comes near. (Should every one of the first answers take more
    // than 1 ms on a crowded machine, nothing is batched and the test passes without testing this.)
    ScratchFolder folder("slow");
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    const auto report = folder.path() / "report.json";
    const Result r = runRunner(writeFaultGraph(folder.path(), "faults.slow").string() + " --plugin " + faults + " --sandbox --watchdog 1 --report " +
                               report.string());
    INFO(r.output);
    CHECK(r.status == 0);
    const nlohmann::json json = readJson(report);
    CHECK(json["nodes"]["faulty"]["items_in"] == 40);
    CHECK(json["nodes"]["after"]["items_in"] == 40);
}

TEST_CASE("--sandbox=NAME naming no loaded plugin is refused, naming the loaded plugins", "[plugins][sandbox]") {
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    ScratchFolder folder("sandbox-name");
    const std::filesystem::path report = folder.path() / "report.json";
    // A typo would leave the plugin in-process, where its segfault ends the run with no report.
    const Result typo = runRunner(writeFaultGraph(folder.path(), "faults.segfault").string() + " --plugin " + faults + " --sandbox=fault --report " + report.string());
    INFO(typo.output);
    CHECK(typo.status == 1);
    CHECK_THAT(typo.output, Contains("--sandbox=fault names no loaded plugin (loaded: faults;"));
    CHECK_FALSE(std::filesystem::exists(folder.path() / "healthy.wav"));  // refused before the run
    const Result none = runRunner(writeFaultGraph(folder.path(), "segments.pass_through").string() + " --sandbox=nosuch");
    INFO(none.output);
    CHECK(none.status == 1);
    CHECK_THAT(none.output, Contains("--sandbox=nosuch names no loaded plugin (no plugins are loaded;"));
    // The right name sandboxes the plugin: its segfault disables its node only.
    const Result right = runRunner(writeFaultGraph(folder.path(), "faults.segfault").string() + " --plugin " + faults + " --sandbox=faults --report " + report.string());
    INFO(right.output);
    CHECK(right.status == 2);
    CHECK(readJson(report)["failures"].size() == 1);
}

TEST_CASE("in-process, a crash names the node and the plugin before the process ends", "[plugins][sandbox]") {
    ScratchFolder folder("crash-note");
    const std::string flawed = std::filesystem::canonical(fixturePlugin("flawed")).string();
    const Result r = runRunner(writeFaultGraph(folder.path(), "flawed.crashes").string() + " --plugin " + flawed);
    INFO(r.output);
    CHECK(r.status != 0);
    CHECK(r.status != 2);
    CHECK_THAT(r.output, Contains("isochron: node 'faulty' (plugin " + flawed + ") crashed in its process hook (Segmentation fault)"));
}

TEST_CASE("in-process, a plugin calling exit(0) ends the run with status 2 naming node, plugin and hook; no output gets its final name",
          "[plugins][sandbox]") {
    ScratchFolder folder("exit-catch");
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    const auto report = folder.path() / "report.json";
    const Result r = runRunner(writeFaultGraph(folder.path(), "faults.exits").string() + " --plugin " + faults + " --report " + report.string());
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains("isochron: node 'faulty' (plugin " + faults + ") called exit(0) in its process hook: the run cannot go on"));
    CHECK_FALSE(std::filesystem::exists(report));
    CHECK_FALSE(std::filesystem::exists(folder.path() / "healthy.wav"));  // cut short: it stays a .partial file

    // Sandboxed, only the node ends.
    const Result sandboxed = runRunner(writeFaultGraph(folder.path(), "faults.exits").string() + " --plugin " + faults + " --sandbox --report " + report.string());
    INFO(sandboxed.output);
    CHECK(sandboxed.status == 2);
    CHECK_THAT(sandboxed.output, Contains("error: node 'faulty': its sandboxed process exited with status 0 in its process hook"));
    CHECK(readJson(report)["outputs"]["healthy"]["samples"] == 8000);
}

TEST_CASE("sandboxed operators emit exactly what they emit in-process", "[plugins][sandbox]") {
    ScratchFolder folder("sandbox-same");
    // WAV files are 16-bit: float ones carry a PEAK chunk with the time of writing.
    // A plugin source (halves.ramp), input items handed over (pass.through), subsegments and
    // retained segments (halves.delay), new
    // signals (biquad), scalars (zcr), custom items (tones), a parameter from the command line, and
    // progress held back by windows.
    auto graph = [&](const std::string& tag) {
        const nlohmann::json json = {
            {"format", "isochron-graph/1"},
            {"nodes", {{{"id", "tone"}, {"type", "generators.signal_generator"}, {"params", {{"frequency", 700}, {"rate", 16000}, {"duration", 2}, {"block", 333}}}},
                       {{"id", "pass"}, {"type", "pass.through"}},
                       {{"id", "halves"}, {"type", "halves.delay"}},
                       {{"id", "raw"}, {"type", "io.wav_file_sink"}, {"params", {{"path", (folder.path() / (tag + "-raw.wav")).string()}}}},
                       {{"id", "ramp"}, {"type", "halves.ramp"}, {"params", {{"block", 300}, {"count", 40}}}},
                       {{"id", "ramps"}, {"type", "io.wav_file_sink"}, {"params", {{"path", (folder.path() / (tag + "-ramp.wav")).string()}}}},
                       {{"id", "direct"}, {"type", "io.wav_file_sink"}, {"params", {{"path", (folder.path() / (tag + "-tone.wav")).string()}}}},
                       {{"id", "filter"}, {"type", "biquad.filter"}, {"params", {{"response", "bandpass"}, {"frequency_hz", 700}, {"q", 4}}}},
                       {{"id", "zcr"}, {"type", "zcr.rate"}, {"params", {{"window", 400}, {"hop", 150}}}},
                       {{"id", "detect"}, {"type", "tones.detect"}, {"params", {{"window", 1000}}}},
                       {{"id", "frequency"}, {"type", "tones.frequency"}},
                       {{"id", "wav"}, {"type", "io.wav_file_sink"}, {"params", {{"path", (folder.path() / (tag + ".wav")).string()}}}},
                       {{"id", "rates"}, {"type", "io.jsonl_event_sink"}, {"params", {{"path", (folder.path() / (tag + "-rates.jsonl")).string()}}}},
                       {{"id", "tones"}, {"type", "io.jsonl_event_sink"}, {"params", {{"path", (folder.path() / (tag + "-tones.jsonl")).string()}}}},
                       {{"id", "frequencies"}, {"type", "io.jsonl_event_sink"}, {"params", {{"path", (folder.path() / (tag + "-frequencies.jsonl")).string()}}}}}},
            {"edges", {{{"from", "tone.out"}, {"to", "pass.in"}}, {{"from", "pass.out"}, {"to", "halves.in"}}, {{"from", "halves.out"}, {"to", "filter.in"}},
                       {{"from", "halves.out"}, {"to", "raw.in0"}}, {{"from", "tone.out"}, {"to", "direct.in0"}}, {{"from", "ramp.out"}, {"to", "ramps.in0"}}, {{"from", "filter.out"}, {"to", "wav.in0"}},
                       {{"from", "filter.out"}, {"to", "zcr.in"}}, {{"from", "zcr.rate"}, {"to", "rates.in"}},
                       {{"from", "pass.out"}, {"to", "detect.in"}}, {{"from", "detect.tones"}, {"to", "tones.in"}},
                       {{"from", "detect.tones"}, {"to", "frequency.tones"}}, {{"from", "frequency.frequency"}, {"to", "frequencies.in"}}}}};
        const auto path = folder.path() / (tag + ".isograph.json");
        std::ofstream(path) << json.dump(2);
        return path.string();
    };
    std::string plugins;
    for (const char* name : {"pass_through", "biquad", "zero_crossing_rate", "tones"}) plugins += " --plugin " + examplePlugin(name).string();
    plugins += " --plugin " + fixturePlugin("halves").string();
    const Result inProcess = runRunner(graph("in-process") + plugins + " --set detect.min_peak=0.02");
    const Result sandboxed = runRunner(graph("sandboxed") + plugins + " --set detect.min_peak=0.02 --sandbox");
    INFO(inProcess.output << sandboxed.output);
    REQUIRE(inProcess.status == 0);
    REQUIRE(sandboxed.status == 0);
    for (const char* output : {".wav", "-raw.wav", "-ramp.wav", "-rates.jsonl", "-tones.jsonl", "-frequencies.jsonl"}) {
        INFO(output);
        const std::string expected = readText(folder.path() / ("in-process" + std::string(output)));
        CHECK(expected.size() > 100);
        CHECK(readText(folder.path() / ("sandboxed" + std::string(output))) == expected);
    }
    // The halves, put back together, are the generator's samples: the same file as the tone's own.
    for (const char* tag : {"in-process", "sandboxed"}) {
        CHECK(readText(folder.path() / (std::string(tag) + "-raw.wav")) == readText(folder.path() / (std::string(tag) + "-tone.wav")));
    }
}
