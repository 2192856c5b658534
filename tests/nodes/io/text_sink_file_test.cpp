// io.csv_sink and io.jsonl_event_sink take their file's name as the sound file sinks do
// (nodes/io/growing_file.h): the replacement of an existing file grows under "<path>.<pid>.partial"
// and replaces it only when the run completes (they opened `path` with truncation, so a stopped run
// replaced the previous run's complete file by a cut-short one); a new file grows under its name.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <sstream>
#include <thread>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/node_context.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

std::string readText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::int64_t lineCount(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

/// A text sink type and the lines it writes before its first item (the CSV header).
struct TextSink {
    std::string type;
    std::int64_t headerLines;
};
const TextSink kTextSinks[] = {{"io.csv_sink", 1}, {"io.jsonl_event_sink", 0}};

/// Graph JSON: `source` (test.feed of scalars or test.endless, named "text") into a `sink` writing `path`.
std::string sinkGraph(const std::string& source, const std::string& sink, const std::string& path) {
    const json sourceParams = source == "test.feed" ? json{{"name", "text"}, {"type", "scalar"}} : json{{"name", "text"}};
    return json{{"format", "isochron-graph/1"},
                {"nodes", {{{"id", "src"}, {"type", source}, {"params", sourceParams}}, {{"id", "out"}, {"type", sink}, {"params", {{"path", path}}}}}},
                {"edges", {{{"from", "src.out0"}, {"to", sink == "io.csv_sink" ? "out.in0" : "out.in"}}}}}
        .dump();
}

/// What a stopped run of test.endless into `sink` left: the sink's items and warnings.
struct Stopped {
    std::int64_t items;
    std::vector<std::string> warnings;
};

/// Run test.endless into `sink` writing `path` and stop it once items flow (after calling `whileRunning`).
Stopped stoppedRun(const std::string& sink, const std::string& path, const std::function<void()>& whileRunning = {}) {
    std::string graph = sinkGraph("test.endless", sink, path);
    graph.replace(graph.find("src.out0"), 8, "src.out");
    std::future<void> running = endlessStarted()["text"].get_future();
    Engine engine(validateGraph(parseGraph(graph), testRegistry()), parseSchedulerText("df"));
    std::thread stopper([&] {
        running.wait();
        if (whileRunning) whileRunning();
        engine.requestStop();
    });
    const RunOutcome outcome = engine.run();
    stopper.join();
    endlessStarted().clear();
    REQUIRE(outcome.stopped);
    for (NodeContext* node : engine.nodes()) {  // as isochron-run does: the sinks close their files
        if (node->op) node->op->deactivate();
    }
    const NodeContext& out = *engine.findNode("out");
    return {static_cast<std::int64_t>(out.callCount()), out.warnings};
}

}  // namespace

TEST_CASE("text sinks: a file cut short by a stop never replaces an existing file, and takes the name where none was", "[io][csv_sink][jsonl_event_sink]") {
    for (const TextSink& sink : kTextSinks) {
        INFO(sink.type);
        TempDir dir;
        const std::string existing = dir.file("keep.txt"), partial = existing + "." + std::to_string(::getpid()) + ".partial";
        std::ofstream(existing) << "the previous run's output\n";
        {
            INFO("an existing file stays whole; the output stays under its partial name, holding every item that reached the sink");
            const Stopped stopped = stoppedRun(sink.type, existing);
            CHECK(readText(existing) == "the previous run's output\n");
            REQUIRE(partialFilesIn(dir) == std::vector<std::string>{"keep.txt." + std::to_string(::getpid()) + ".partial"});
            CHECK(stopped.items > 0);
            CHECK(lineCount(readText(partial)) == stopped.items + sink.headerLines);
            REQUIRE(stopped.warnings.size() == 1);
            CHECK_THAT(stopped.warnings[0], Catch::Contains("cut short") && Catch::Contains("did not replace '" + existing + "'") &&
                                                Catch::Contains("kept as '" + partial + "'"));
        }
        {
            INFO("where no file was, the output takes the name, with a warning");
            const std::string fresh = dir.file("fresh.txt");
            const Stopped stopped = stoppedRun(sink.type, fresh);
            CHECK(lineCount(readText(fresh)) == stopped.items + sink.headerLines);
            CHECK(partialFilesIn(dir).size() == 1);  // keep.txt's, from above
            REQUIRE(stopped.warnings.size() == 1);
            CHECK_THAT(stopped.warnings[0], Catch::Contains("cut short") && Catch::Contains("kept as '" + fresh + "'"));
        }
    }
}

TEST_CASE("text sinks: a file cut short by a failure upstream never replaces an existing file", "[io][csv_sink][jsonl_event_sink]") {
    // The failed node ended the sink's input, so the sink finished "complete" and replaced the
    // previous run's file with the rows that got through.
    FeedScript script;
    for (std::int64_t k = 0; k < 3; ++k) script.batches.push_back({{0, Item::scalar(1.5, SampleRange{&Timebase::get(100), 10 * k, 10})}});
    for (const TextSink& sink : kTextSinks) {
        INFO(sink.type);
        TempDir dir;
        const std::string existing = dir.file("keep.txt"), partial = existing + "." + std::to_string(::getpid()) + ".partial";
        std::ofstream(existing) << "the previous run's output\n";
        json graph = json::parse(sinkGraph("test.feed", sink.type, existing));
        graph["nodes"].push_back({{"id", "broken"}, {"type", "test.fail_after"}, {"params", {{"n", 2}}}});
        const json sinkEnd = graph["edges"][0]["to"];
        graph["edges"] = {{{"from", "src.out0"}, {"to", "broken.in"}}, {{"from", "broken.out"}, {"to", sinkEnd}}};
        feedScripts()["text"] = script;
        RunReport report = runGraphReporting(graph.dump());
        REQUIRE(report.outcome.failures.size() == 1);
        CHECK(readText(existing) == "the previous run's output\n");
        REQUIRE(partialFilesIn(dir) == std::vector<std::string>{"keep.txt." + std::to_string(::getpid()) + ".partial"});
        CHECK(lineCount(readText(partial)) == 1 + sink.headerLines);
        const auto& warnings = report.nodes["out"].warnings;
        REQUIRE(warnings.size() == 1);
        CHECK_THAT(warnings[0], Catch::Contains("cut short") && Catch::Contains("did not replace '" + existing + "'") &&
                                    Catch::Contains("kept as '" + partial + "'"));
    }
    feedScripts().clear();
}

TEST_CASE("text sinks: a completed run replaces the file, writing through a symlink and into a device in place", "[io][csv_sink][jsonl_event_sink]") {
    FeedScript script;
    script.batches = {{{0, Item::scalar(1.5, SampleRange{&Timebase::get(100), 0, 10})}}, {{0, Item::scalar(2.5, SampleRange{&Timebase::get(100), 10, 10})}}};
    for (const TextSink& sink : kTextSinks) {
        INFO(sink.type);
        TempDir dir;
        const std::string target = dir.file("out.txt"), link = dir.file("link.txt");
        std::ofstream(target) << "the previous run's output\n";
        std::filesystem::create_symlink(target, link);
        feedScripts()["text"] = script;
        RunReport report = runGraphReporting(sinkGraph("test.feed", sink.type, link));
        REQUIRE(report.outcome.completed);
        CHECK(report.nodes["out"].warnings.empty());
        CHECK(std::filesystem::is_symlink(link));
        CHECK(lineCount(readText(target)) == 2 + sink.headerLines);
        CHECK(partialFilesIn(dir).empty());
        feedScripts()["text"] = script;
        REQUIRE(runGraphReporting(sinkGraph("test.feed", sink.type, "/dev/null")).outcome.completed);
        CHECK(std::filesystem::is_character_file("/dev/null"));
    }
    feedScripts().clear();
}

TEST_CASE("text sinks: a new file grows under its own name, where a reader can follow it; an existing file is replaced from beside it",
          "[io][csv_sink][jsonl_event_sink]") {
    // Every output grew under "<path>.<pid>.partial" until the run ended, so `flush` ("for a reader
    // tailing the file") served no reader following the name.
    for (const TextSink& sink : kTextSinks) {
        INFO(sink.type);
        TempDir dir;
        const std::string fresh = dir.file("fresh.txt"), existing = dir.file("existing.txt");
        bool namedWhileRunning = false;
        std::vector<std::string> partialsWhileRunning;
        stoppedRun(sink.type, fresh, [&] {
            namedWhileRunning = std::filesystem::exists(fresh);
            partialsWhileRunning = partialFilesIn(dir);
        });
        CHECK(namedWhileRunning);
        CHECK(partialsWhileRunning.empty());
        std::ofstream(existing) << "the previous run's output\n";
        stoppedRun(sink.type, existing, [&] {
            namedWhileRunning = readText(existing) != "the previous run's output\n";
            partialsWhileRunning = partialFilesIn(dir);
        });
        CHECK_FALSE(namedWhileRunning);
        CHECK(partialsWhileRunning == std::vector<std::string>{"existing.txt." + std::to_string(::getpid()) + ".partial"});
    }
}

TEST_CASE("io.csv_sink failing while rows are written says so in plain words, naming no hook", "[io][csv_sink]") {
    // The engine named the hook: "... No space left on device (in progress)", which read as "still going
    // on", then "(in the progress hook)": the file and the error are what the user can act on.
    // The row of the first scalar is written (and flushed) when progress passes it.
    FeedScript script;
    script.batches = {{{0, Item::scalar(1.5, SampleRange{&Timebase::get(100), 0, 10})}},
                      {{0, Item::progress(150'000'000)}},
                      {{0, Item::scalar(2.5, SampleRange{&Timebase::get(100), 20, 10})}}};
    feedScripts()["text"] = script;
    const std::string graph =
        json{{"format", "isochron-graph/1"},
             {"nodes", {{{"id", "src"}, {"type", "test.feed"}, {"params", {{"name", "text"}, {"type", "scalar"}}}},
                        {{"id", "out"}, {"type", "io.csv_sink"}, {"params", {{"path", "/dev/full"}, {"flush", true}}}}}},
             {"edges", {{{"from", "src.out0"}, {"to", "out.in0"}}}}}
            .dump();
    const RunReport report = runGraphReporting(graph);
    REQUIRE(report.outcome.failures.size() == 1);
    CHECK_THAT(report.outcome.failures[0], Catch::EndsWith("No space left on device") && !Catch::Contains("(in "));
    feedScripts().clear();
}
