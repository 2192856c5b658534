#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "engine/graph/graph_error.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/engine.h"
#include "engine/schedulers/scheduler.h"
#include "nodes/io/event_lines.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"
#include "tests/support/stream_probes.h"

using namespace isochron;
using namespace isochron::test;

namespace {

// The source into a probe (registered here: a case run alone found no "test.probe").
std::string sourceGraph(const std::string& path, const std::string& extra = "") {
    registerStreamProbes();
    return R"({"format": "isochron-graph/1", "nodes": [
      {"id": "events", "type": "io.jsonl_event_source", "params": {"path": ")" + path + R"(", "rate": 1000)" + extra + R"(}},
      {"id": "probe", "type": "test.probe", "params": {"name": "events"}}],
     "edges": [{"from": "events.out", "to": "probe.in"}]})";
}

}  // namespace

TEST_CASE("event lines: fields, labels, attributes in file order, and errors that name the line", "[io][jsonl_event_source]") {
    const auto events = parseEventLines(
        "{\"t_start\": 0.5, \"t_end\": 0.75, \"label\": \"bird\", \"b\": 2, \"a\": 1, \"score\": 3, \"text\": \"x\"}\n\n"
        "{\"t_start\": 1, \"t_end\": 1, \"attribute.value\": 9}\n",
        "log.jsonl", 14);
    REQUIRE(events.size() == 2);
    CHECK(events[0].lineNumber == 1);
    CHECK(events[0].label == "bird");
    CHECK(events[0].score == 3);
    REQUIRE(events[0].attributes.size() == 2);
    CHECK(events[0].attributes[0].first == "b");  // file order, not sorted
    CHECK(events[0].attributes[1].first == "a");
    CHECK(events[1].lineNumber == 3);
    CHECK(events[1].label == "event");
    CHECK(events[1].attributes.at(0) == std::pair<std::string, double>{"value", 9});
    CHECK_THROWS_WITH(parseEventLines("{\"t_start\": 1}\n", "log.jsonl", 14), "log.jsonl, line 1: no \"t_end\"");
    CHECK_THROWS_WITH(parseEventLines("{}\n[1]\n", "f", 14), "f, line 1: no \"t_start\"");
    CHECK_THROWS_WITH(parseEventLines("{\"t_start\": 1, \"t_end\": 2}\nnot json\n", "f", 14), "f, line 2: not valid JSON");
    CHECK_THROWS_WITH(parseEventLines("{\"t_start\": 2, \"t_end\": 1}", "f", 14), "f, line 1: t_end is before t_start");
    CHECK_THROWS_WITH(parseEventLines("{\"t_start\": 0, \"t_end\": 1, \"a\": 1, \"b\": 2}", "f", 1), "f, line 1: more than 1 numeric fields (an event holds at most that many)");
}

TEST_CASE("the event source replays lines with their times and heartbeats progress between them", "[io][jsonl_event_source][oop]") {
    registerStreamProbes();
    TempDir dir;
    {
        std::ofstream file(dir.file("log.jsonl"));
        file << "{\"t_start\": 0.1, \"t_end\": 0.2, \"id\": 1}\n"
             << "{\"t_start\": 0.9, \"t_end\": 1.0, \"id\": 2}\n"
             << "{\"t_start\": 0.85, \"t_end\": 0.86, \"id\": 3}\n";  // 50 ms before an earlier line
    }
    for (const auto& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        REQUIRE(runGraph(sourceGraph(dir.file("log.jsonl"), R"(, "heartbeat": 0.1, "disorder": 0.05)"), scheduler).completed);
        const Probed& got = probes()["events"];
        REQUIRE(got.items.size() == 3);
        CHECK(*got.items[0].event()->get("id") == 1);
        CHECK(got.items[0].range().start == 100);
        CHECK(got.items[0].range().length == 100);
        CHECK(*got.items[2].event()->get("id") == 3);
        CHECK(got.brokenPromises == 0);  // the third line is within the declared disorder
        // A promise every 100 ms of the timeline, with events or not: 0.05, 0.15, ... before the end.
        int finite = 0;
        for (TimeNs t : got.progress) finite += t < kEndOfTime;
        CHECK(finite >= 9);
    }
    SECTION("a line beyond the declared disorder is warned about and breaks the promise downstream sees") {
        const ValidatedGraph graph = validateGraph(parseGraph(sourceGraph(dir.file("log.jsonl"), R"(, "heartbeat": 0.1)")), testRegistry());
        Engine engine(graph, parseSchedulerText("df"));
        REQUIRE(engine.run().completed);
        REQUIRE(engine.findNode("events")->warnings.size() == 1);
        CHECK_THAT(engine.findNode("events")->warnings[0], Catch::Contains("1 line(s) out of order") && Catch::Contains("first line 3 starts 0.05") && Catch::Contains("may be late"));
        CHECK(probes()["events"].brokenPromises == 1);
    }
    probes().clear();
}

TEST_CASE("the event source names the file and line of a bad log", "[io][jsonl_event_source]") {
    TempDir dir;
    {
        std::ofstream file(dir.file("bad.jsonl"));
        file << "{\"t_start\": 0.1, \"t_end\": 0.2}\n{\"t_end\": 3}\n";
    }
    std::string message;
    try {
        runGraph(sourceGraph(dir.file("bad.jsonl")));
    } catch (const GraphException& e) {
        message = e.what();
    }
    CHECK_THAT(message, Catch::Contains("'events'") && Catch::Contains("bad.jsonl, line 2: no \"t_start\""));
}
