#include <catch2/catch.hpp>

#include <fstream>
#include <limits>
#include <set>

#include "engine/graph/graph_error.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

/// Graph JSON: a test.feed of port type `type` playing script `script` into io.jsonl_event_sink.
std::string feedToJsonl(const std::string& script, const std::string& type, const std::string& path, bool flush,
                        const std::string& fields = "") {
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", script}, {"type", type}}}},
          {{"id", "sink"}, {"type", "io.jsonl_event_sink"}, {"params", {{"path", path}, {"flush", flush}, {"fields", fields}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "sink.in"}}}},
    };
    return graph.dump();
}

/// Feeds `items` (one batch each) through io.jsonl_event_sink and parses every line written.
std::vector<json> writeAndParse(const std::vector<Item>& items, const std::string& type, bool flush = true) {
    FeedScript script;
    for (const Item& item : items) script.batches.push_back({{0, item}});
    feedScripts()["jsonl"] = script;
    TempDir dir;
    const std::string path = dir.file("events.jsonl");
    RunOutcome outcome = runGraph(feedToJsonl("jsonl", type, path, flush));
    CHECK(outcome.completed);
    CHECK(outcome.failures.empty());
    feedScripts().clear();

    std::vector<json> lines;
    std::ifstream file(path);
    for (std::string line; std::getline(file, line);) lines.push_back(json::parse(line));  // throws if invalid
    return lines;
}

/// The keys of a JSON object.
std::set<std::string> keysOf(const json& object) {
    std::set<std::string> keys;
    for (const auto& [key, value] : object.items()) keys.insert(key);
    return keys;
}

}  // namespace

TEST_CASE("jsonl_event_sink writes scalars with their time span in seconds and their value", "[io][jsonl_event_sink]") {
    const Timebase& timebase = Timebase::get(8000);
    for (bool flush : {true, false}) {
        INFO("flush " << flush);
        const std::vector<json> lines = writeAndParse(
            {Item::scalar(0.25, {&timebase, 8000, 400}), Item::scalar(-3e-7, {&timebase, 8400, 400}),
             Item::scalar(std::numeric_limits<double>::quiet_NaN(), {&timebase, 8800, 400})},
            "scalar", flush);
        REQUIRE(lines.size() == 3);
        CHECK(keysOf(lines[0]) == std::set<std::string>{"t_start", "t_end", "kind", "value"});
        CHECK(lines[0]["kind"] == "scalar");
        CHECK(lines[0]["t_start"].get<double>() == 1.0);
        CHECK(lines[0]["t_end"].get<double>() == 1.05);
        CHECK(lines[0]["value"].get<double>() == 0.25);
        CHECK(lines[1]["t_start"].get<double>() == 1.05);
        CHECK(lines[1]["value"].get<double>() == -3e-7);
        CHECK(lines[2]["value"].is_null());  // JSON has no NaN
    }
}

TEST_CASE("jsonl_event_sink writes time ranges, signals and frames", "[io][jsonl_event_sink]") {
    const Timebase& timebase = Timebase::get(16000);
    std::vector<json> lines = writeAndParse({Item::timeRange({&timebase, 8000, 4000})}, "time_range");
    REQUIRE(lines.size() == 1);
    CHECK(lines[0] == json{{"t_start", 0.5}, {"t_end", 0.75}, {"kind", "time_range"}});

    lines = writeAndParse({Item::signal(makeSignal({1, 2, 3, 4, 5}, 16000, timebase))}, "signal<f32>");
    REQUIRE(lines.size() == 1);
    CHECK(lines[0] == json{{"t_start", 1.0}, {"t_end", 16005.0 / 16000.0}, {"kind", "signal"}, {"samples", 5}});

    lines = writeAndParse({Item::frame(makeSignal(std::vector<float>(8, 0.5f), 0, timebase), {&timebase, 1600, 256})},
                          "frame<f32>");
    REQUIRE(lines.size() == 1);
    CHECK(lines[0] == json{{"t_start", 0.1}, {"t_end", 0.116}, {"kind", "frame"}, {"samples", 8}});
}

TEST_CASE("jsonl_event_sink writes events with label, score and every attribute", "[io][jsonl_event_sink]") {
    const Timebase& timebase = Timebase::get(48000);
    EventRecord* whistle = EventRecord::create("whistle \"A\"\n");
    whistle->set("azimuth_deg", 42.5);
    whistle->set("snr_db", -6);
    EventRecord* click = EventRecord::create("click");
    click->set("label", 3);  // clashes with the fixed key: written as attribute.label
    const std::vector<json> lines = writeAndParse(
        {Item::event(whistle, {&timebase, 48000, 24000}, 0.9), Item::event(click, {&timebase, 96000, 48}, 0.5)}, "event");
    REQUIRE(lines.size() == 2);
    CHECK(lines[0] == json{{"t_start", 1.0}, {"t_end", 1.5}, {"kind", "event"}, {"label", "whistle \"A\"\n"},
                           {"score", 0.9}, {"azimuth_deg", 42.5}, {"snr_db", -6.0}});
    CHECK(lines[1] == json{{"t_start", 2.0}, {"t_end", 2.001}, {"kind", "event"}, {"label", "click"},
                           {"score", 0.5}, {"attribute.label", 3.0}});
}

TEST_CASE("jsonl_event_sink with fields writes exactly those keys, in order, null where missing", "[io][jsonl_event_sink]") {
    const Timebase& timebase = Timebase::get(48000);
    EventRecord* bearing = EventRecord::create("srp_phat");
    bearing->set("azimuth_deg", 42.5);
    bearing->set("confidence", 0.75);
    EventRecord* click = EventRecord::create("click");
    FeedScript script;
    script.batches.push_back({{0, Item::event(bearing, {&timebase, 48000, 24000}, 0.9)}});
    script.batches.push_back({{0, Item::event(click, {&timebase, 96000, 48}, 0.5)}});
    feedScripts()["fields"] = script;
    TempDir dir;
    const std::string path = dir.file("bearings.jsonl");
    RunOutcome outcome = runGraph(feedToJsonl("fields", "event", path, true, " t_start,t_end, azimuth_deg,elevation_deg,confidence,kind,value"));
    feedScripts().clear();
    REQUIRE(outcome.failures.empty());
    std::ifstream file(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(file, line);) lines.push_back(line);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0] == R"({"t_start":1,"t_end":1.5,"azimuth_deg":42.5,"elevation_deg":null,"confidence":0.75,"kind":"event","value":null})");
    CHECK(lines[1] == R"({"t_start":2,"t_end":2.001,"azimuth_deg":null,"elevation_deg":null,"confidence":null,"kind":"event","value":null})");

    feedScripts()["fields"] = FeedScript{};
    try {
        runGraph(feedToJsonl("fields", "event", path, true, "t_start,,t_end"));
        FAIL("the engine started");
    } catch (const GraphException& e) {
        CHECK_THAT(e.what(), Catch::Contains("fields") && Catch::Contains("empty name"));
    }
    feedScripts().clear();
}

TEST_CASE("jsonl_event_sink refuses a path it cannot write, naming it", "[io][jsonl_event_sink]") {
    TempDir dir;
    const std::string path = dir.file("no-such-folder/events.jsonl");
    feedScripts()["jsonl"] = FeedScript{};
    try {
        runGraph(feedToJsonl("jsonl", "scalar", path, true));
        FAIL("the engine started");
    } catch (const GraphException& e) {
        CHECK_THAT(e.what(), Catch::Contains(path));
    }
    feedScripts().clear();
}
