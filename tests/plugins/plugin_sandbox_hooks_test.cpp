// A sandboxed plugin that fails in parameterChanged (changed while the graph runs, as the editor
// does) is named with the hook as the SDK and docs/writing-plugins.md spell it, as in-process.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <future>
#include <string>
#include <thread>

#include "engine/graph/graph_file.h"
#include "engine/runtime/engine.h"
#include "engine/schedulers/scheduler.h"
#include "tests/plugins/plugin_test_support.h"
#include "tests/support/test_operators.h"

using namespace isochron;
using namespace isochron::test;
using Catch::Matchers::Contains;

namespace {

// While alive, sandbox children started by this process die of SIGSEGV on a segfault as in a release
// build: under AddressSanitizer they inherit ASAN_OPTIONS with its SEGV handler off, not its abort
// (as plugin_sandbox_test.cpp's runs do). Nothing to do in other builds.
class SegfaultsAsInRelease {
public:
#ifdef ISOCHRON_SANITIZED
    SegfaultsAsInRelease() : had_(std::getenv("ASAN_OPTIONS") != nullptr), before_(had_ ? std::getenv("ASAN_OPTIONS") : "") {
        setenv("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1:handle_segv=0", 1);
    }
    ~SegfaultsAsInRelease() {
        if (had_) setenv("ASAN_OPTIONS", before_.c_str(), 1);
        else unsetenv("ASAN_OPTIONS");
    }

private:
    bool had_;
    std::string before_;
#endif
};

}  // namespace

TEST_CASE("a sandboxed plugin failing in parameterChanged is named in its parameterChanged hook", "[plugins][sandbox]") {
    [[maybe_unused]] const SegfaultsAsInRelease segfaults;
    PluginHost host(testRegistry());
    PluginHosting hosting;
    hosting.sandboxed = true;
    host.load(fixturePlugin("faults"), hosting);
    for (const auto& [how, failure] : {std::pair<std::string, std::string>{"segfault", "its sandboxed process died of Segmentation fault (signal 11) in its "
                                                                                       "parameterChanged hook"},
                                       {"throw", "deliberate failure in parameterChanged (in parameterChanged)"}}) {
        INFO(how);
        const GraphSpec spec = parseGraph(R"({"format": "isochron-graph/1",
          "nodes": [{"id": "tone", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 3600, "block": 200, "pace": 1}},
                    {"id": "faulty", "type": "faults.in_hook", "params": {"hook": "parameterChanged", "how": ")" + how + R"("}},
                    {"id": "after", "type": "io.null_sink"},
                    {"id": "started", "type": "test.endless", "params": {"name": "e"}},
                    {"id": "ignored", "type": "io.null_sink"}],
          "edges": [{"from": "tone.out", "to": "faulty.in"}, {"from": "faulty.out", "to": "after.in"}, {"from": "started.out", "to": "ignored.in"}]})");
        std::future<void> running = endlessStarted()["e"].get_future();
        std::promise<void> failed;
        RunOutcome outcome;
        {
            Engine engine(validateGraph(spec, host.registry()), parseSchedulerText("df"));
            engine.setFailureListener([&](const std::string&) { failed.set_value(); });
            std::thread changer([&] {
                running.wait();
                engine.postParameter("faulty", "knob", ParamValue(0.5));
                failed.get_future().wait();
                engine.requestStop();
            });
            outcome = engine.run();
            changer.join();
        }
        endlessStarted().clear();
        REQUIRE(outcome.failures.size() == 1);
        CHECK_THAT(outcome.failures[0], Contains("node 'faulty': " + failure));
    }
}
