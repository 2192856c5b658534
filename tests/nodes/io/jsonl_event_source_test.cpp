#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

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

// The "id" of every event a "test.handoff" node received, shared with the test's thread.
struct Handoff {
    std::mutex mutex;
    std::condition_variable arrived;
    std::vector<double> ids;
};

Handoff& handoff() {
    static Handoff shared;
    return shared;
}

// Hands each event's "id" to the test thread as it arrives (tests only).
class HandoffSink final : public Operator {
protected:
    void process(int, Item&& item) override {
        const std::lock_guard lock(handoff().mutex);
        handoff().ids.push_back(item.event()->get("id").value_or(-1));
        handoff().arrived.notify_all();
    }
};

void registerHandoff() {
    static const bool registered = [] {
        OperatorDescriptor d;
        d.typeName = "test.handoff";
        d.category = "test";
        d.summary = "Hands the events' ids to the test thread as they arrive (tests only)";
        d.inputs = {PortSpec{"in", PortType::event(), "events"}};
        d.create = [] { return std::make_unique<HandoffSink>(); };
        testRegistry().add(std::move(d));
        return true;
    }();
    (void)registered;
}

// Whether `count` events arrived within 60 s (a source that reads its pipe to the end first delivers
// none while the writer keeps it open).
bool waitForEvents(std::size_t count) {
    std::unique_lock lock(handoff().mutex);
    return handoff().arrived.wait_for(lock, std::chrono::seconds(60), [&] { return handoff().ids.size() >= count; });
}

void writeAll(int fd, const std::string& text) { REQUIRE(::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size())); }

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
        // Paced (10x, no drops): a heartbeat every 100 ms of the timeline, also where no line is.
        REQUIRE(runGraph(sourceGraph(dir.file("log.jsonl"), R"(, "heartbeat": 0.1, "disorder": 0.05, "pace": 10, "max_lag": 1000)"), scheduler).completed);
        const Probed& got = probes()["events"];
        REQUIRE(got.items.size() == 3);
        CHECK(*got.items[0].event()->get("id") == 1);
        CHECK(got.items[0].range().start == 100);
        CHECK(got.items[0].range().length == 100);
        CHECK(*got.items[2].event()->get("id") == 3);
        CHECK(got.brokenPromises == 0);  // the third line is within the declared disorder
        // Heartbeats promise progress where no line is: between line 1 (ends 0.2 s) and line 2 (0.9 s)
        // at least one promise falls (0.75 s, the last empty heartbeat's, also when a loaded machine
        // made the pacer collapse the heartbeats already due), and promises never go back.
        std::vector<TimeNs> finite;
        for (TimeNs t : got.progress) {
            if (t < kEndOfTime) finite.push_back(t);
        }
        CHECK(std::is_sorted(finite.begin(), finite.end()));
        CHECK(std::any_of(finite.begin(), finite.end(), [](TimeNs t) { return t > 200'000'000 && t < 900'000'000; }));
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

TEST_CASE("event lines: a line too long for an event, and times beyond the engine's, are refused naming the line", "[io][jsonl_event_source]") {
    std::istringstream shortLines("{}\n{}\n");
    CHECK(readEventText(shortLines, "f", 4) == "{}\n{}\n");
    std::istringstream longSecond("{}\n0123456789\n{}\n");
    CHECK_THROWS_WITH(readEventText(longSecond, "f", 4), Catch::Contains("f, line 2: longer than 4 bytes without a line break"));
    // A stream that never breaks a line (as /dev/zero): refused at the limit, not read to the end of memory.
    std::istringstream endless(std::string(3 << 20, '\0'));
    CHECK_THROWS_WITH(readEventText(endless, "zeros"), Catch::Contains("zeros, line 1: longer than 1 MiB"));
    // 1e300 s wrapped to -1.9e14 s; 9.3e9 s is past int64 nanoseconds, 9e9 s is not.
    CHECK_THROWS_WITH(parseEventLines("{\"t_start\": 1, \"t_end\": 2}\n{\"t_start\": 1e300, \"t_end\": 1e300}\n", "f", 14),
                      Catch::Contains("f, line 2: \"t_start\" is 1e+300 s, beyond the +-9.2e9 s"));
    CHECK_THROWS_WITH(parseEventLines("{\"t_start\": -9.3e9, \"t_end\": 0}", "f", 14), Catch::Contains("f, line 1: \"t_start\" is -9.3e+09 s"));
    CHECK(parseEventLines("{\"t_start\": 9e9, \"t_end\": 9e9}", "f", 14).at(0).startSeconds == 9e9);
}

TEST_CASE("the event source refuses a device or a folder as its file, saying what it is", "[io][jsonl_event_source]") {
    TempDir dir;
    for (const std::string& path : {std::string("/dev/zero"), dir.file("")}) {
        INFO(path);
        std::string message;
        try {
            runGraph(sourceGraph(path));
        } catch (const GraphException& e) {
            message = e.what();
        }
        CHECK_THAT(message, Catch::Contains("'events'") && Catch::Contains("is a") && Catch::Contains("not an event file"));
    }
}

TEST_CASE("the event source refuses '-', saying it reads no standard input", "[io][jsonl_event_source]") {
    // It said "cannot open '-': No such file or directory", though the docs said '-' meant standard input.
    std::string message;
    try {
        runGraph(sourceGraph("-"));
    } catch (const GraphException& e) {
        message = e.what();
    }
    CHECK_THAT(message, Catch::Contains("'events'") && Catch::Contains("parameter 'path': event lines are not read from standard input") &&
                            Catch::Contains("named pipe"));
}

TEST_CASE("the event source replays from the heartbeat holding the first line: Unix-epoch times run at once, and keep their times",
          "[io][jsonl_event_source]") {
    registerStreamProbes();
    TempDir dir;
    // 1e5 s in: stepping from 0 took 1e6 empty heartbeats first; Unix seconds took 26 minutes.
    for (const double first : {1e5, 1764400000.0}) {
        INFO(first);
        {
            std::ofstream file(dir.file("epoch.jsonl"));
            file.precision(17);
            file << "{\"t_start\": " << first << ", \"t_end\": " << first + 0.1 << ", \"id\": 1}\n"
                 << "{\"t_start\": " << first + 0.5 << ", \"t_end\": " << first + 0.6 << ", \"id\": 2}\n";
        }
        REQUIRE(runGraph(sourceGraph(dir.file("epoch.jsonl"), R"(, "heartbeat": 0.1)"), "df").completed);
        const Probed& got = probes()["events"];
        REQUIRE(got.items.size() == 2);
        CHECK(got.items[0].range().start == static_cast<std::int64_t>(first * 1000));
        CHECK(got.items[1].range().start == static_cast<std::int64_t>(first * 1000) + 500);
        std::vector<TimeNs> finite;
        for (TimeNs t : got.progress) {
            if (t < kEndOfTime) finite.push_back(t);
        }
        // One promise per heartbeat from the first line's on: 0.6 s of log, about 6 of them.
        REQUIRE(finite.size() <= 8);  // (without the fix, the Unix-time case after this one ran 26 minutes)
        REQUIRE_FALSE(finite.empty());
        CHECK(finite.front() > static_cast<TimeNs>(first * 1e9));
        CHECK(got.brokenPromises == 0);
        probes().clear();
    }
}

TEST_CASE("the event source jumps a time gap inside the file at once: one promise, not a heartbeat per 0.1 s of the gap",
          "[io][jsonl_event_source]") {
    registerStreamProbes();
    TempDir dir;
    // A line at 0 s, then Unix-epoch times: the 1.7e9 s between stepped 1.7e10 empty heartbeats (13 minutes).
    // 1e5 s first: stepping it took 1e6 promises (a fraction of a second), so the case fails fast there.
    for (const double gap : {1e5, 1e9}) {
        INFO(gap);
        {
            std::ofstream file(dir.file("gap.jsonl"));
            file.precision(17);
            file << "{\"t_start\": 0, \"t_end\": 0.1, \"id\": 1}\n"
                 << "{\"t_start\": " << gap << ", \"t_end\": " << gap + 0.1 << ", \"id\": 2}\n"
                 << "{\"t_start\": " << gap + 0.5 << ", \"t_end\": " << gap + 0.6 << ", \"id\": 3}\n";
        }
        REQUIRE(runGraph(sourceGraph(dir.file("gap.jsonl"), R"(, "heartbeat": 0.1)"), "df").completed);
        const Probed& got = probes()["events"];
        std::vector<TimeNs> finite;
        for (TimeNs t : got.progress) {
            if (t < kEndOfTime) finite.push_back(t);
        }
        // A promise after line 1's heartbeat, the last empty one's up to line 2's, and about 6 on to line 3's.
        REQUIRE(finite.size() <= 10);
        REQUIRE(got.items.size() == 3);
        CHECK(*got.items[0].event()->get("id") == 1);
        CHECK(got.items[0].range().start == 0);
        CHECK(*got.items[1].event()->get("id") == 2);
        CHECK(got.items[1].range().start == static_cast<std::int64_t>(gap * 1000));
        CHECK(got.items[2].range().start == static_cast<std::int64_t>(gap * 1000) + 500);
        CHECK(got.brokenPromises == 0);
        CHECK(std::is_sorted(finite.begin(), finite.end()));
        // Over the gap in one step: from line 1's heartbeat's end straight to line 2's heartbeat's start.
        const TimeNs gapNs = static_cast<TimeNs>(gap * 1e9);
        CHECK(finite.front() == 100'000'000);
        CHECK(std::count(finite.begin(), finite.end(), gapNs) == 1);
        CHECK(std::count_if(finite.begin(), finite.end(), [&](TimeNs t) { return t > 100'000'000 && t < gapNs; }) == 0);
        probes().clear();
    }
}

TEST_CASE("the event source reads a named pipe while its writer writes, and a stop ends a pipe that stays open", "[io][jsonl_event_source]") {
    registerHandoff();
    TempDir dir;
    const std::string fifo = dir.file("events.fifo");
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const ValidatedGraph graph = validateGraph(parseGraph(R"({"format": "isochron-graph/1", "nodes": [
      {"id": "events", "type": "io.jsonl_event_source", "params": {"path": ")" + fifo + R"(", "rate": 1000}},
      {"id": "handoff", "type": "test.handoff"}], "edges": [{"from": "events.out", "to": "handoff.in"}]})"),
                                               testRegistry());
    for (const bool writerCloses : {false, true}) {
        INFO("the writer closes the pipe: " << writerCloses);
        handoff().ids.clear();
        // The engine starts (and opens the pipe) on a thread of its own: with the writer's open below,
        // either may come first.
        std::mutex mutex;
        std::condition_variable started;
        std::optional<Engine> engine;
        RunOutcome outcome;
        std::string error;
        std::thread runner([&] {
            try {
                {
                    const std::lock_guard lock(mutex);
                    engine.emplace(graph, parseSchedulerText("df"));
                }
                started.notify_all();
                outcome = engine->run();
            } catch (const std::exception& e) {
                error = e.what();
                started.notify_all();
            }
        });
        const int writer = ::open(fifo.c_str(), O_WRONLY);  // waits for the source to open its end
        REQUIRE(writer >= 0);
        writeAll(writer, "{\"t_start\": 0.1, \"t_end\": 0.2, \"id\": 1}\n{\"t_start\": 0.3, \"t_end\": 0.4, \"id\": 2}\n{\"t_start\": 0.5,");
        // Both whole lines arrive while the pipe is open and the third is half written.
        const bool streamed = waitForEvents(2);
        if (streamed) {
            writeAll(writer, " \"t_end\": 0.6, \"id\": 3}\n");
            CHECK(waitForEvents(3));
        }
        if (writerCloses || !streamed) {
            ::close(writer);  // the end of the pipe ends the source
        } else {
            {
                std::unique_lock lock(mutex);
                started.wait(lock, [&] { return engine.has_value() || !error.empty(); });
            }
            engine->requestStop();  // a writer that never ends: only a stop ends the run
        }
        runner.join();
        if (!writerCloses && streamed) ::close(writer);
        REQUIRE(streamed);
        REQUIRE(error.empty());
        CHECK(handoff().ids == std::vector<double>{1, 2, 3});
        CHECK(outcome.failures.empty());
        CHECK(outcome.completed == writerCloses);
        CHECK(outcome.stopped == !writerCloses);
    }
}
