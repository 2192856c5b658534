// A run stopped while a sandboxed node streams: the engine deactivates its nodes in the graph's
// order, here the output before the sandboxed node feeding it, and what the sandbox's child still
// answers when it is deactivated (the progress promised since the last call) must not reach it.
// A run stopped (SIGINT) while a sandboxed plugin hangs: the host kills the child soon after the
// stop instead of the runner leaving a stuck call behind after its 3 s grace, and the failure
// names the sandboxed node, its plugin and hook, not the source that was only waiting on it.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <future>
#include <iterator>
#include <thread>

#include <nlohmann/json.hpp>

#include "engine/graph/graph_file.h"
#include "engine/runtime/engine.h"
#include "engine/schedulers/scheduler.h"
#include "tests/plugins/plugin_test_support.h"
#include "tests/support/graph_run.h"
#include "tests/support/test_operators.h"

using namespace isochron;
using namespace isochron::test;
using Catch::Matchers::Contains;

TEST_CASE("a sandboxed node stopped mid-stream sends nothing to the nodes deactivated before it", "[plugins][sandbox][stop]") {
    PluginHost host(testRegistry());
    PluginHosting hosting;
    hosting.sandboxed = true;
    host.load(examplePlugin("pass_through"), hosting);
    const Timebase& timebase = Timebase::get(8000);
    const GraphSpec spec = parseGraph(R"({"format": "isochron-graph/1",
      "nodes": [{"id": "out", "type": "io.null_sink"},
                {"id": "feed", "type": "test.feed", "params": {"name": "input", "type": "signal<f32>"}},
                {"id": "pass", "type": "pass.through"},
                {"id": "started", "type": "test.endless", "params": {"name": "e"}},
                {"id": "ignored", "type": "io.null_sink"}],
      "edges": [{"from": "feed.out0", "to": "pass.in"}, {"from": "pass.out", "to": "out.in"}, {"from": "started.out", "to": "ignored.in"}]})");
    for (int run = 0; run < 3; ++run) {
        INFO("run " << run);
        // Far more than a run reaches before the stop: each block with its progress promise.
        FeedScript script;
        for (std::int64_t block = 0; block < 200000; ++block) {
            script.batches.push_back({{0, Item::signal(makeSignal(std::vector<float>(8, 0.5f), block * 8, timebase))},
                                      {0, Item::progress(timebase.timeOf((block + 1) * 8))}});
        }
        feedScripts()["input"] = std::move(script);
        std::future<void> running = endlessStarted()["e"].get_future();
        RunOutcome outcome;
        {
            Engine engine(validateGraph(spec, host.registry()), parseSchedulerText("df"));
            std::thread stopper([&] {
                running.wait();
                engine.requestStop();
            });
            outcome = engine.run();
            stopper.join();
        }  // ~Engine deactivates out before pass
        endlessStarted().clear();
        feedScripts().clear();
        CHECK(outcome.stopped);  // not run to its end: the stop landed mid-stream
        CHECK(outcome.failures.empty());
    }
}

TEST_CASE("a run stopped while a sandboxed plugin hangs ends without the grace, naming the sandboxed node, its plugin and hook",
          "[plugins][sandbox][stop]") {
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    // Paced, each call is answered before the next (the tone waits in the plugin's call); unpaced,
    // the calls are batched and the host waits for a batch in flight once the next one is full.
    for (const int pace : {1, 0}) {
        INFO("pace " << pace);
        ScratchFolder folder("stop-sandboxed-hang");
        const nlohmann::json graph = {
            {"format", "isochron-graph/1"},
            {"nodes", {{{"id", "tone"}, {"type", "generators.signal_generator"}, {"params", {{"rate", 8000}, {"duration", 60}, {"block", 200}, {"pace", pace}}}},
                       {{"id", "healthy"}, {"type", "io.null_sink"}},
                       {{"id", "faulty"}, {"type", "faults.hang"}},
                       {{"id", "after"}, {"type", "io.null_sink"}}}},
            {"edges", {{{"from", "tone.out"}, {"to", "healthy.in"}}, {{"from", "tone.out"}, {"to", "faulty.in"}}, {{"from", "faulty.out"}, {"to", "after.in"}}}}};
        const auto graphPath = folder.path() / "hang.isograph.json";
        std::ofstream(graphPath) << graph.dump(2);
        const auto report = folder.path() / "report.json", output = folder.path() / "output.txt";
        // The watchdog (60 s) cannot be what ends the call.
        const pid_t pid = startRunner({graphPath.string(), "--plugin", faults, "--sandbox", "--watchdog", "60", "--report", report.string()}, output);
        pid_t child = 0;
        // The plugin's hang, in its sandbox process; polls a state, ended by the runner's alarm at worst.
        while (child == 0) {
            for (const pid_t candidate : childProcesses(pid)) {
                if (mainThreadSleeps(candidate)) child = candidate;
            }
            if (child == 0) usleep(1000);
        }
        REQUIRE(kill(pid, SIGINT) == 0);
        int raw = 0;
        REQUIRE(waitpid(pid, &raw, 0) == pid);
        std::ifstream in(output);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        INFO(text);
        REQUIRE(WIFEXITED(raw));
        CHECK(WEXITSTATUS(raw) == 2);  // a node failed
        const std::string failure = "its sandboxed process did not answer within 500 ms of the stop request in its process hook";
        CHECK_THAT(text, Contains("error: node 'faulty': " + failure) && Contains("[plugin " + faults + "]"));
        // (the watchdog warning names the paced source by its max_lag; a blame would be "node 'tone' (its type) in its ... call")
        CHECK_THAT(text, !Contains("did not stop within") && !Contains("node 'tone' ("));
        const nlohmann::json json = nlohmann::json::parse(std::ifstream(report));
        CHECK(json["stopped"] == true);
        CHECK_FALSE(json.contains("abandoned"));
        REQUIRE(json["failures"].size() == 1);
        CHECK_THAT(json["failures"][0].get<std::string>(), Contains("node 'faulty': " + failure) && Contains("[plugin " + faults + "]"));
        CHECK_THAT(json["nodes"]["faulty"]["failure"].get<std::string>(), Contains(failure));
        CHECK(kill(child, 0) == -1);  // the runner killed and reaped it: no sandbox process outlives the run
    }
}

TEST_CASE("a run stopped while a sandboxed plugin hangs in activate stops as a start stopped in time, without the grace",
          "[plugins][sandbox][stop]") {
    // The host's stop check in a sandboxed call asked the engine, which had no stop yet while it
    // started its nodes: the runner left the call behind after 3 s ("did not stop within 3 s").
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    ScratchFolder folder("stop-sandboxed-activate");
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "tone"}, {"type", "generators.signal_generator"}, {"params", {{"rate", 8000}, {"duration", 60}, {"pace", 1}}}},
                   {{"id", "faulty"}, {"type", "faults.in_hook"}, {"params", {{"hook", "activate"}, {"how", "hang"}}}},
                   {{"id", "after"}, {"type", "io.null_sink"}}}},
        {"edges", {{{"from", "tone.out"}, {"to", "faulty.in"}}, {{"from", "faulty.out"}, {"to", "after.in"}}}}};
    const auto graphPath = folder.path() / "hang.isograph.json";
    std::ofstream(graphPath) << graph.dump(2);
    const auto report = folder.path() / "report.json", output = folder.path() / "output.txt";
    const pid_t pid = startRunner({graphPath.string(), "--plugin", faults, "--sandbox", "--watchdog", "60", "--report", report.string()}, output);
    pid_t child = 0;
    while (child == 0) {  // the plugin's hang in activate, in its sandbox process
        for (const pid_t candidate : childProcesses(pid)) {
            if (mainThreadSleeps(candidate)) child = candidate;
        }
        if (child == 0) usleep(1000);
    }
    REQUIRE(kill(pid, SIGTERM) == 0);
    int raw = 0;
    REQUIRE(waitpid(pid, &raw, 0) == pid);
    std::ifstream in(output);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(text);
    REQUIRE(WIFEXITED(raw));
    CHECK(WEXITSTATUS(raw) == 143);
    CHECK_THAT(text, Contains("stopped by signal 15 while the nodes were starting") && !Contains("did not stop within"));
    const nlohmann::json json = nlohmann::json::parse(std::ifstream(report));
    CHECK(json["stopped_while_starting"] == true);
    CHECK_FALSE(json.contains("abandoned"));
    CHECK(kill(child, 0) == -1);  // killed and reaped: no sandbox process outlives the run
}
