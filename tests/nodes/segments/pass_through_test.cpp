#include <catch2/catch.hpp>

#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

const char* kChain = R"({
  "format": "isochron-graph/1",
  "nodes": [
    {"id": "feed", "type": "test.feed", "params": {"name": "chain"}},
    {"id": "a", "type": "segments.pass_through"},
    {"id": "b", "type": "segments.pass_through"},
    {"id": "sink", "type": "test.collect", "params": {"name": "chain"}}
  ],
  "edges": [
    {"from": "feed.out0", "to": "a.in"}, {"from": "a.out", "to": "b.in"}, {"from": "b.out", "to": "sink.in0"}
  ]
})";

}  // namespace

TEST_CASE("pass_through forwards items in order and by reference under every scheduler", "[segments][pass_through]") {
    const Timebase& tb = Timebase::get(1000);
    std::vector<SigSeg<float>> sent;
    FeedScript script;
    for (int i = 0; i < 20; ++i) {
        sent.push_back(makeSignal({float(i), float(i) + 0.5f, float(i) + 0.25f}, 3 * i, tb));
        script.batches.push_back({{0, Item::signal(sent.back())}});
    }
    feedScripts()["chain"] = script;
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        RunOutcome outcome = runGraph(kChain, scheduler);
        CHECK(outcome.completed);
        const Collected& got = collections()["chain"];
        REQUIRE(got.items[0].size() == sent.size());
        for (std::size_t i = 0; i < sent.size(); ++i) {
            CHECK(got.items[0][i].segment().list() == sent[i].list());  // same storage: nothing copied
            CHECK(got.items[0][i].segment().startIndex() == sent[i].startIndex());
        }
        CHECK(got.finished);
    }
    feedScripts().clear();
    collections().clear();
}
