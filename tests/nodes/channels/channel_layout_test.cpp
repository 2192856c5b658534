// Channel labels and mic positions follow the channels through the graph (validation), and an array
// operator given no geometry takes the one its inputs carry. References: the preset's own positions,
// picked by hand in the order the graph selects them.
#include <catch2/catch.hpp>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "nodes/spatial/array_geometry.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/test_operators.h"

using namespace isochron;
using namespace isochron::test;

namespace {

const ValidatedNode& nodeNamed(const ValidatedGraph& graph, const std::string& id) {
    for (const ValidatedNode& node : graph.nodes) {
        if (node.id == id) return node;
    }
    FAIL("no node " << id);
    throw std::logic_error("unreachable");
}

/// The position of preset `spec`'s mic `m`, as a channel carries it.
std::array<double, 3> presetMic(const std::string& spec, int m) {
    const Eigen::Vector3d p = presetGeometry(spec).mics[static_cast<std::size_t>(m)];
    return {p.x(), p.y(), p.z()};
}

/// A 4-channel WAV of a few frames (validation reads a file source's header), written once.
const std::string& fourChannelFile() {
    static const TempDir dir;
    static const std::string path = [] {
        const std::string file = dir.file("four.wav");
        writePcm16Wav(file, 16000, 4, std::vector<std::int16_t>(4 * 16, 0));
        return file;
    }();
    return path;
}

/// `text` with the placeholder file "FOUR_CHANNELS.wav" replaced by fourChannelFile().
std::string withFourChannelFile(std::string text) {
    const std::string placeholder = "FOUR_CHANNELS.wav";
    text.replace(text.find(placeholder), placeholder.size(), fourChannelFile());
    return text;
}

// A 4-channel file source placed as square4:0.2, three of its
// channels selected in the order 2, 0, 3, one of them filtered, merged and split again, and the selected
// channels into an array STFT -> activity -> frame_directions with no geometry of its own.
const char* const kGraph = R"({
  "format": "isochron-graph/1",
  "nodes": [
    {"id": "source", "type": "io.audio_file_source", "params": {"path": "FOUR_CHANNELS.wav", "channels": 4, "geometry": "square4:0.2"}},
    {"id": "pick", "type": "channels.select", "params": {"channels": [2, 0, 3]}},
    {"id": "low", "type": "filters.butterworth", "params": {"cutoff_hz": 1000}},
    {"id": "merge", "type": "channels.merge"},
    {"id": "split", "type": "channels.split", "params": {"channels": 3}},
    {"id": "stft", "type": "spatial.array_stft"},
    {"id": "activity", "type": "detect.spectral_activity"},
    {"id": "array", "type": "spatial.frame_directions"%s},
    {"id": "tracker", "type": "spatial.source_tracker"},
    {"id": "events", "type": "io.null_sink"}, {"id": "background", "type": "io.null_sink"}, {"id": "tracks", "type": "io.null_sink"}
  ],
  "edges": [
    {"from": "source.out*", "to": "pick.in*"},
    {"from": "pick.out0", "to": "low.in"},
    {"from": "low.out", "to": "merge.in0"}, {"from": "pick.out1", "to": "merge.in1"}, {"from": "pick.out2", "to": "merge.in2"},
    {"from": "merge.out", "to": "split.in"},
    {"from": "split.out*", "to": "stft.in*"},
    {"from": "stft.spectra", "to": "activity.spectra"}, {"from": "activity.activity", "to": "array.activity"},
    {"from": "array.directions", "to": "tracker.directions"},
    {"from": "tracker.events", "to": "events.in"}, {"from": "tracker.background", "to": "background.in"}, {"from": "tracker.tracks", "to": "tracks.in"}
  ]
})";

std::string graphText(const std::string& arrayParams = "") {
    std::string text = withFourChannelFile(kGraph);
    text.replace(text.find("%s"), 2, arrayParams);
    return text;
}

}  // namespace

TEST_CASE("labels and positions follow the channels through select, a filter, merge and split", "[channels][layout]") {
    const ValidatedGraph graph = validateGraph(parseGraph(graphText()), testRegistry());
    const std::vector<int> picked{2, 0, 3};
    const ValidatedNode& source = nodeNamed(graph, "source");
    for (int k = 0; k < 4; ++k) {
        REQUIRE(source.outputChannels[static_cast<std::size_t>(k)].size() == 1);
        CHECK(source.outputChannels[static_cast<std::size_t>(k)][0].label == "ch " + std::to_string(k));
        CHECK(source.outputChannels[static_cast<std::size_t>(k)][0].position == presetMic("square4:0.2", k));
    }
    const ValidatedNode& pick = nodeNamed(graph, "pick");
    for (std::size_t k = 0; k < 3; ++k) CHECK(pick.outputChannels[k] == source.outputChannels[static_cast<std::size_t>(picked[k])]);
    CHECK(nodeNamed(graph, "low").outputChannels[0] == source.outputChannels[2]);  // a filter keeps its channel
    const ChannelLayout& interleaved = nodeNamed(graph, "merge").outputChannels[0];
    REQUIRE(interleaved.size() == 3);
    const ValidatedNode& split = nodeNamed(graph, "split");
    for (std::size_t k = 0; k < 3; ++k) {
        CHECK(interleaved[k].label == "ch " + std::to_string(picked[k]));
        CHECK(split.outputChannels[k] == ChannelLayout{interleaved[k]});
        CHECK(split.inputChannels.at(0) == interleaved);
    }
    const ChannelLayout& spectra = nodeNamed(graph, "activity").outputChannels[0];
    REQUIRE(spectra.size() == 3);
    for (std::size_t k = 0; k < 3; ++k) CHECK(spectra[k].position == presetMic("square4:0.2", picked[k]));
}

TEST_CASE("an array operator with no geometry takes the positions of its inputs, in their order", "[channels][layout][spatial]") {
    const ValidatedGraph graph = validateGraph(parseGraph(graphText()), testRegistry());
    const ArrayGeometry adopted = loadGeometry(nodeNamed(graph, "array").params.getString("geometry"));
    REQUIRE(adopted.micCount() == 3);
    const ArrayGeometry square = presetGeometry("square4:0.2");
    CHECK(adopted.mics[0] == square.mics[2]);
    CHECK(adopted.mics[1] == square.mics[0]);
    CHECK(adopted.mics[2] == square.mics[3]);
    CHECK(adopted.origin == kPositionsFromInputs);
}

TEST_CASE("a geometry given to the array operator wins over its inputs' positions", "[channels][layout][spatial]") {
    const ValidatedGraph graph = validateGraph(parseGraph(graphText(R"(, "params": {"geometry": "linear3:0.05"})")), testRegistry());
    CHECK(loadGeometry(nodeNamed(graph, "array").params.getString("geometry")).mics == presetGeometry("linear3:0.05").mics);
}

TEST_CASE("channels without positions: labels still follow, and the array operator without a geometry is an error", "[channels][layout][spatial]") {
    std::string text = graphText();
    text.replace(text.find(R"(, "geometry": "square4:0.2")"), std::string(R"(, "geometry": "square4:0.2")").size(), "");
    std::vector<GraphError> errors;
    const ValidatedGraph graph = resolveGraph(parseGraph(text), testRegistry(), errors);
    CHECK(nodeNamed(graph, "pick").outputChannels[0] == ChannelLayout{ChannelInfo{"ch 2", std::nullopt}});
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].node == "array");
    CHECK(errors[0].field == "params.geometry");
    CHECK_THAT(errors[0].message, Catch::Contains("no array geometry given"));
}

TEST_CASE("a source geometry that does not place one mic per channel is refused, naming node and parameter", "[channels][layout]") {
    std::string text = graphText();
    text.replace(text.find("square4:0.2"), std::string("square4:0.2").size(), "circular8:0.1");
    const std::vector<GraphError> errors = checkGraph(parseGraph(text), testRegistry());
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].node == "source");
    CHECK(errors[0].field == "params.geometry");
    CHECK_THAT(errors[0].message, Catch::Contains("places 8 mics but the node has 4 channels"));
}

namespace {

// A 4-channel source placed as square4:0.2 -> `middle` (wired by bus to it and to the beamformer) ->
// a delay-and-sum beamformer with `beamParams` -> null sinks.
std::vector<GraphError> beamformerErrors(const std::string& middleType, const std::string& middleParams, const std::string& beamParams) {
    const std::string text = R"({"format": "isochron-graph/1", "nodes": [
      {"id": "source", "type": "io.audio_file_source", "params": {"path": "FOUR_CHANNELS.wav", "channels": 4, "geometry": "square4:0.2"}},
      {"id": "middle", "type": ")" + middleType + R"(", "params": )" + middleParams + R"(},
      {"id": "beam", "type": "spatial.delay_and_sum_beamformer", "params": )" + beamParams + R"(},
      {"id": "out", "type": "io.null_sink"}, {"id": "pattern", "type": "io.null_sink"}],
     "edges": [{"from": "source.out*", "to": "middle.in*"}, {"from": "middle.out*", "to": "beam.in*"},
               {"from": "beam.out", "to": "out.in"}, {"from": "beam.pattern", "to": "pattern.in"}]})";
    return checkGraph(parseGraph(withFourChannelFile(text)), testRegistry());
}

}  // namespace

TEST_CASE("geometry problems an array operator would meet at start are reported at validation", "[channels][layout][spatial]") {
    SECTION("a geometry placing more mics than the node has inputs") {
        const auto errors = beamformerErrors("channels.select", R"({"channels": [0, 1, 2]})", R"({"geometry": "square4:0.2"})");
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].node == "beam");
        CHECK(errors[0].field == "params.geometry");
        CHECK_THAT(errors[0].message, Catch::Contains("has 4 mics but the node has 3 inputs"));
    }
    SECTION("no geometry, and channels that carry no positions (a mix)") {
        const auto errors = beamformerErrors("channels.mix", R"({"outputs": 3})", "{}");
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].node == "beam");
        CHECK(errors[0].field == "params.geometry");
        CHECK_THAT(errors[0].message, Catch::Contains("no array geometry given, and the channels reaching the node carry no mic positions"));
    }
    SECTION("the selected mics, positions adopted: valid") {
        CHECK(beamformerErrors("channels.select", R"({"channels": [3, 1, 0]})", "{}").empty());
    }
    SECTION("a select index past the end of a bus sized by its wiring: one error, on the select, none downstream") {
        const auto errors = beamformerErrors("channels.select", R"({"channels": [0, 4]})", "{}");
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].node == "middle");
        CHECK(errors[0].field == "params.channels");
        CHECK_THAT(errors[0].message, Catch::Contains("channel 4 does not exist: the bus has 4"));
    }
}
