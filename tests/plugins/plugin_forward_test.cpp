// forward() hands the item a hook got over to the next node, in-process only once the hook has
// returned (so the next hop does not nest under the plugin's frames): whatever the hook sends after
// forwarding must still follow the forwarded item, in-process as in the sandbox.
#include <catch2/catch.hpp>

#include <random>
#include <set>

#include "tests/plugins/plugin_test_support.h"
#include "tests/support/graph_run.h"
#include "tests/support/test_operators.h"

using namespace isochron;
using namespace isochron::test;

TEST_CASE("what a hook emits after forward follows the forwarded item, in-process and sandboxed", "[plugins][forward]") {
    const Timebase& timebase = Timebase::get(8000);
    for (const bool sandboxed : {false, true}) {
        INFO((sandboxed ? "sandboxed" : "in-process"));
        PluginHost host(testRegistry());
        PluginHosting hosting;
        hosting.sandboxed = sandboxed;
        host.load(fixturePlugin("halves"), hosting);
        std::mt19937 random(17);
        std::uniform_int_distribution<std::int64_t> length(1, 300);
        FeedScript script;
        std::vector<std::pair<std::int64_t, std::int64_t>> expected;  // (start, length) of each output item, in order
        std::vector<float> samples;
        for (std::int64_t start = 0; start < 4000;) {
            const std::int64_t count = length(random);
            std::vector<float> piece(static_cast<std::size_t>(count));
            for (std::int64_t i = 0; i < count; ++i) piece[static_cast<std::size_t>(i)] = static_cast<float>(start + i);
            script.batches.push_back({{0, Item::signal(makeSignal(piece, start, timebase))}});
            expected.emplace_back(start, count);
            expected.emplace_back(start + count / 2, count - count / 2);
            start += count;
        }
        feedScripts()["input"] = std::move(script);
        const std::string graph = R"({"format": "isochron-graph/1",
            "nodes": [{"id": "feed", "type": "test.feed", "params": {"name": "input", "type": "signal<f32>"}},
                      {"id": "echo", "type": "halves.echo"},
                      {"id": "out", "type": "test.collect", "params": {"name": "output"}}],
            "edges": [{"from": "feed.out0", "to": "echo.in"}, {"from": "echo.out", "to": "out.in0"}]})";
        const RunOutcome outcome = runGraphWith(host.registry(), graph);
        INFO((outcome.failures.empty() ? std::string() : outcome.failures[0]));
        REQUIRE(outcome.failures.empty());
        const std::vector<Item>& items = collections()["output"].items.at(0);
        REQUIRE(items.size() == expected.size());
        for (std::size_t i = 0; i < items.size(); ++i) {
            INFO("item " << i);
            const auto [start, count] = expected[i];
            REQUIRE(items[i].segment().startIndex() == start);
            REQUIRE(items[i].segment().length() == count);
            const std::vector<float> values = samplesOf(items[i]);
            CHECK(values.front() == static_cast<float>(start));
            CHECK(values.back() == static_cast<float>(start + count - 1));
        }
        collections().clear();
    }
}

TEST_CASE("a routed input's items pass on without reaching process, in-process and sandboxed", "[plugins][forward][routes]") {
    const Timebase& timebase = Timebase::get(8000);
    for (const bool sandboxed : {false, true}) {
        INFO((sandboxed ? "sandboxed" : "in-process"));
        PluginHost host(testRegistry());
        PluginHosting hosting;
        hosting.sandboxed = sandboxed;
        host.load(fixturePlugin("halves"), hosting);
        std::mt19937 random(23);
        std::uniform_int_distribution<std::int64_t> length(2, 300);
        // "in" (routed) gets samples from 0, "side" (always processed) from 100000.
        std::multiset<std::pair<std::int64_t, std::int64_t>> expected;  // (start, length) of the output items
        std::size_t sideItems = 0;
        for (const auto& [feed, first] : {std::pair<std::string, std::int64_t>{"main", 0}, {"side", 100000}}) {
            FeedScript script;
            for (std::int64_t start = first; start < first + 3000;) {
                const std::int64_t count = length(random);
                std::vector<float> piece(static_cast<std::size_t>(count));
                for (std::int64_t i = 0; i < count; ++i) piece[static_cast<std::size_t>(i)] = static_cast<float>(start + i);
                script.batches.push_back({{0, Item::signal(makeSignal(piece, start, timebase))}});
                const bool routed = feed == "main";
                expected.emplace(start, routed ? count : count / 2);
                if (!routed) ++sideItems;
                start += count;
            }
            feedScripts()[feed] = std::move(script);
        }
        const std::string graph = R"({"format": "isochron-graph/1",
            "nodes": [{"id": "main", "type": "test.feed", "params": {"name": "main", "type": "signal<f32>"}},
                      {"id": "side", "type": "test.feed", "params": {"name": "side", "type": "signal<f32>"}},
                      {"id": "routed", "type": "halves.routed"},
                      {"id": "out", "type": "test.collect", "params": {"name": "output"}},
                      {"id": "calls", "type": "test.collect", "params": {"name": "calls"}}],
            "edges": [{"from": "main.out0", "to": "routed.in"}, {"from": "side.out0", "to": "routed.side"},
                      {"from": "routed.out", "to": "out.in0"}, {"from": "routed.calls", "to": "calls.in0"}]})";
        const RunOutcome outcome = runGraphWith(host.registry(), graph);
        INFO((outcome.failures.empty() ? std::string() : outcome.failures[0]));
        REQUIRE(outcome.failures.empty());
        std::multiset<std::pair<std::int64_t, std::int64_t>> got;
        for (const Item& item : collections()["output"].items.at(0)) {
            got.emplace(item.segment().startIndex(), item.segment().length());
            const std::vector<float> values = samplesOf(item);
            CHECK(values.front() == static_cast<float>(item.segment().startIndex()));
        }
        CHECK(got == expected);
        // The plugin's process hook (in the child, sandboxed) got the side's items and nothing else.
        const std::vector<Item>& calls = collections()["calls"].items.at(0);
        REQUIRE(calls.size() == 1);
        CHECK(calls[0].value() == static_cast<double>(sideItems));
        collections().clear();
    }
}
