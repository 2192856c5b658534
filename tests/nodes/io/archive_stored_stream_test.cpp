// What an archive already holds, used at validation: io.archive_source gives back the geometry stored
// with a stream (an array operator downstream needs none of its own, and the replay localizes as the
// original did), and a graph whose io.archive_sink or io.archive_source does not fit the stream the
// archive holds (channels, rate, kind) is refused by validation (isochron-run --check), naming the
// node, the parameter and what to do, instead of failing once it runs.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "engine/graph/graph_file.h"
#include "engine/schedulers/scheduler.h"
#include "engine/graph/validated_graph.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"
#include "tests/support/test_files.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

const std::filesystem::path kData = std::filesystem::path(ISOCHRON_SOURCE_DIR) / "samples" / "data";

/// samples/localize-file.isograph.json with `source` as its source node, `arrayParams` on the array
/// operator and the events written to `events`.
std::string localizeGraph(const json& source, const json& arrayParams, const std::string& events) {
    return json{{"format", "isochron-graph/1"},
                {"nodes",
                 {source,
                  {{"id", "stft"}, {"type", "spatial.array_stft"}},
                  {{"id", "activity"}, {"type", "detect.spectral_activity"}},
                  {{"id", "array"}, {"type", "spatial.frame_directions"}, {"params", arrayParams}},
                  {{"id", "tracker"}, {"type", "spatial.source_tracker"}},
                  {{"id", "events"}, {"type", "io.jsonl_event_sink"}, {"params", {{"path", events}, {"fields", "t_start,t_end,azimuth_deg,elevation_deg,confidence,track_id"}}}},
                  {{"id", "background"}, {"type", "io.null_sink"}},
                  {{"id", "tracks"}, {"type", "io.null_sink"}}}},
                {"edges",
                 {{{"from", "source.out*"}, {"to", "stft.in*"}},
                  {{"from", "stft.spectra"}, {"to", "activity.spectra"}},
                  {{"from", "activity.activity"}, {"to", "array.activity"}},
                  {{"from", "array.directions"}, {"to", "tracker.directions"}},
                  {{"from", "tracker.events"}, {"to", "events.in"}},
                  {{"from", "tracker.background"}, {"to", "background.in"}},
                  {{"from", "tracker.tracks"}, {"to", "tracks.in"}}}}}
        .dump();
}

/// The errors validation finds in `graphJson`.
std::vector<GraphError> validationErrors(const std::string& graphJson) { return checkGraph(parseGraph(graphJson), testRegistry()); }

/// Graph JSON: `channels` generators (`rate` Hz, 0.2 s) into io.archive_sink "rec" recording stream "array" into `path`.
std::string generatorsRecorded(const std::string& path, int channels, double rate) {
    json nodes = json::array();
    json edges = json::array();
    for (int k = 0; k < channels; ++k) {
        const std::string id = "gen" + std::to_string(k);
        nodes.push_back({{"id", id}, {"type", "generators.signal_generator"}, {"params", {{"rate", rate}, {"duration", 0.2}}}});
        edges.push_back({{"from", id + ".out"}, {"to", "rec.in" + std::to_string(k)}});
    }
    nodes.push_back({{"id", "rec"}, {"type", "io.archive_sink"}, {"params", {{"path", path}, {"stream", "array"}, {"channels", channels}}}});
    return json{{"format", "isochron-graph/1"}, {"nodes", nodes}, {"edges", edges}}.dump();
}

}  // namespace

TEST_CASE("io.archive_source gives the stored geometry to its channels: a replay localizes without the geometry file", "[io][archive]") {
    TempDir dir;
    const std::string archive = dir.file("mics.sqlite");
    const std::string geometry = (kData / "array-square4.geometry.json").string();
    const json fileSource = {{"id", "source"}, {"type", "io.audio_file_source"},
                             {"params", {{"path", (kData / "array-square4-demo.flac").string()}, {"channels", 0}, {"block", 4096}}}};
    // Record the four mics with their geometry.
    json placedSource = fileSource;
    placedSource["params"]["geometry"] = geometry;
    const std::string record =
        json{{"format", "isochron-graph/1"},
             {"nodes", {placedSource, {{"id", "rec"}, {"type", "io.archive_sink"}, {"params", {{"path", archive}, {"stream", "mics"}, {"channels", 4}}}}}},
             {"edges", {{{"from", "source.out*"}, {"to", "rec.in*"}}}}}
            .dump();
    REQUIRE(runGraph(record).completed);

    // The original: the file, the geometry given to the array operator.
    const std::string original = dir.file("original.jsonl");
    REQUIRE(runGraph(localizeGraph(fileSource, {{"geometry", geometry}}, original)).completed);
    // The replay: the archive, no geometry anywhere in the graph.
    const json replaySource = {{"id", "source"}, {"type", "io.archive_source"}, {"params", {{"path", archive}, {"stream", "mics"}, {"channels", 0}}}};
    const std::string replayGraph = localizeGraph(replaySource, json::object(), dir.file("replayed.jsonl"));
    const std::vector<GraphError> errors = validationErrors(replayGraph);
    INFO((errors.empty() ? std::string() : errors.front().toString()));
    REQUIRE(errors.empty());
    REQUIRE(runGraph(replayGraph).completed);
    const std::string events = readText(original);
    CHECK_FALSE(events.empty());
    CHECK(readText(dir.file("replayed.jsonl")) == events);

    // 'geometry' overrides what is stored, and must place one mic per channel.
    json overridden = replaySource;
    overridden["params"]["geometry"] = "linear2:0.1";
    const std::vector<GraphError> refused = validationErrors(localizeGraph(overridden, json::object(), dir.file("x.jsonl")));
    REQUIRE(refused.size() == 1);
    CHECK(refused[0].node == "source");
    CHECK(refused[0].field == "params.geometry");
    CHECK_THAT(refused[0].message, Catch::Contains("2 mics") && Catch::Contains("4 channels"));
}

TEST_CASE("validation refuses recording into, or replaying, a stored stream that does not fit, naming node, parameter and what to do", "[io][archive]") {
    TempDir dir;
    const std::string archive = dir.file("stored.sqlite");
    REQUIRE(runGraph(generatorsRecorded(archive, 2, 48000)).completed);
    REQUIRE(validationErrors(generatorsRecorded(archive, 2, 48000)).empty());  // the same again: appended, fine

    SECTION("a sink of another channel count or rate") {
        for (const auto& [channels, rate] : {std::pair{3, 48000.0}, std::pair{2, 44100.0}}) {
            INFO(channels << " channel(s) at " << rate << " Hz");
            const std::vector<GraphError> errors = validationErrors(generatorsRecorded(archive, channels, rate));
            REQUIRE(errors.size() == 1);
            CHECK(errors[0].node == "rec");
            CHECK(errors[0].field == "params.stream");
            CHECK_THAT(errors[0].message, Catch::Contains(archive) && Catch::Contains("'array'") && Catch::Contains("2 channel(s)") &&
                                              Catch::Contains("another stream (parameter 'stream') or another file"));
        }
    }
    SECTION("the run's message when the archive changed after validation: what to do, no \"(in process)\"") {
        const std::string graph = generatorsRecorded(archive, 3, 48000);
        std::filesystem::remove(archive);
        const ValidatedGraph validated = validateGraph(parseGraph(graph), testRegistry());
        REQUIRE(runGraph(generatorsRecorded(archive, 2, 48000)).completed);
        Engine engine(validated, parseSchedulerText("df"));
        const RunOutcome outcome = engine.run();
        REQUIRE(outcome.failures.size() == 1);
        CHECK_THAT(outcome.failures[0], Catch::StartsWith("node 'rec'") && Catch::Contains("another stream name or into another file") &&
                                            !Catch::Contains("(in process)"));
    }
    SECTION("a source asking for more channels than stored, or another type") {
        const auto replay = [&](const json& params) {
            json all = {{"path", archive}, {"stream", "array"}};
            all.update(params);
            return validationErrors(sourceToCollect("io.archive_source", all, 1, "got"));
        };
        CHECK(replay({{"channels", 2}, {"type", "signal<f32>"}}).empty());
        const std::vector<GraphError> channels = replay({{"channels", 5}, {"type", "signal<f32>"}});
        REQUIRE(channels.size() == 1);
        CHECK(channels[0].node == "src");
        CHECK(channels[0].field == "params.channels");
        CHECK_THAT(channels[0].message, Catch::Contains("2 channel(s)") && Catch::Contains("fewer than the 5"));
        const std::vector<GraphError> type = replay({{"channels", 1}, {"type", "event"}});
        REQUIRE(type.size() == 1);
        CHECK(type[0].field == "params.type");
        CHECK_THAT(type[0].message, Catch::Contains("replays as signal<f32>, not event"));
    }
}
