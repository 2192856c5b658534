#include <catch2/catch.hpp>

#include <thread>

#include <nlohmann/json.hpp>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "nodes/io/item_tap.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

/// test.feed "tap" (`outputs` outputs of `type`) on a bus into io.item_tap "tap" of `capacity`.
std::unique_ptr<Engine> tapEngine(int outputs, const std::string& type, int capacity, const std::string& scheduler = "df") {
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "tap"}, {"outputs", outputs}, {"type", type}}}},
          {{"id", "tap"}, {"type", "io.item_tap"}, {"params", {{"inputs", 0}, {"capacity", capacity}}}}}},
        {"edges", {{{"from", "feed.out*"}, {"to", "tap.in*"}}}},
    };
    return std::make_unique<Engine>(validateGraph(parseGraph(graph.dump()), testRegistry()), parseSchedulerText(scheduler));
}

std::shared_ptr<ItemTapChannel> channelOf(const Engine& engine) {
    auto* tap = dynamic_cast<ItemTap*>(engine.findNode("tap")->op.get());
    REQUIRE(tap != nullptr);
    return tap->channel();
}

}  // namespace

TEST_CASE("item_tap hands every item to its reader in order, with its input port", "[io][item_tap]") {
    const Timebase& timebase = Timebase::get(48000);
    FeedScript script;
    script.outputs = 2;
    for (int i = 0; i < 6; ++i) {
        EventRecord* bearing = EventRecord::create("srp_phat");
        bearing->set("azimuth_deg", 10.0 * i);
        script.batches.push_back({{i % 2, Item::event(bearing, {&timebase, 1000 * i, 100}, 0.5)}});
    }
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        feedScripts()["tap"] = script;
        auto engine = tapEngine(2, "event", 16, scheduler);
        const auto channel = channelOf(*engine);
        CHECK_FALSE(channel->drained());
        REQUIRE(engine->run().failures.empty());
        engine.reset();  // the channel outlives the engine
        for (int i = 0; i < 6; ++i) {
            const auto tapped = channel->pop();
            REQUIRE(tapped.has_value());
            CHECK(tapped->port == i % 2);
            CHECK(tapped->item.range().start == 1000 * i);
            CHECK(tapped->item.event()->get("azimuth_deg") == 10.0 * i);
        }
        CHECK_FALSE(channel->pop().has_value());
        CHECK(channel->drained());
        CHECK(channel->dropped() == 0);
    }
    feedScripts().clear();
}

TEST_CASE("item_tap drops and counts what a slow reader has no room for, and never waits", "[io][item_tap]") {
    const Timebase& timebase = Timebase::get(1000);
    FeedScript script;
    for (int i = 0; i < 10; ++i) script.batches.push_back({{0, Item::scalar(i, {&timebase, i, 1})}});
    feedScripts()["tap"] = script;
    auto engine = tapEngine(1, "scalar", 3);
    const auto channel = channelOf(*engine);
    REQUIRE(engine->run().failures.empty());
    CHECK(channel->dropped() == 7);
    CHECK(engine->findNode("tap")->warningCount == 1);
    for (int i = 0; i < 3; ++i) CHECK(channel->pop()->item.value() == i);  // the oldest stay; newer ones are dropped
    CHECK(channel->drained());
    feedScripts().clear();
}

TEST_CASE("item_tap: a reader on another thread sees each item once, in order, while the engine runs", "[io][item_tap]") {
    const Timebase& timebase = Timebase::get(1000);
    constexpr int kItems = 20000;
    FeedScript script;
    for (int i = 0; i < kItems; ++i) {
        if (i % 100 == 0) script.batches.emplace_back();
        script.batches.back().push_back({0, Item::scalar(i, {&timebase, i, 1})});
    }
    feedScripts()["tap"] = script;
    auto engine = tapEngine(1, "scalar", 64);
    const auto channel = channelOf(*engine);
    std::vector<double> seen;
    std::thread reader([&] {
        while (!channel->drained()) {
            while (auto tapped = channel->pop()) seen.push_back(tapped->item.value());
        }
    });
    REQUIRE(engine->run().failures.empty());
    reader.join();
    CHECK(seen.size() + channel->dropped() == static_cast<std::size_t>(kItems));
    CHECK(std::is_sorted(seen.begin(), seen.end()));
    CHECK(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
    feedScripts().clear();
}
