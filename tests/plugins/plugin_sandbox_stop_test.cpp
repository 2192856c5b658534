// A run stopped while a sandboxed node streams: the engine deactivates its nodes in the graph's
// order, here the output before the sandboxed node feeding it, and what the sandbox's child still
// answers when it is deactivated (the progress promised since the last call) must not reach it.
#include <catch2/catch.hpp>

#include <future>
#include <thread>

#include "engine/graph/graph_file.h"
#include "engine/runtime/engine.h"
#include "engine/schedulers/scheduler.h"
#include "tests/plugins/plugin_test_support.h"
#include "tests/support/graph_run.h"
#include "tests/support/test_operators.h"

using namespace isochron;
using namespace isochron::test;

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
