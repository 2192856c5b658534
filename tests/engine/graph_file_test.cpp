#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "engine/graph/graph_file.h"
#include "engine/graph/json_nesting.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/engine.h"
#include "tests/support/test_operators.h"

using namespace isochron;

namespace {

std::vector<GraphError> loadErrors(const std::string& json) {
    try {
        GraphSpec spec = parseGraph(json);
        return checkGraph(spec, test::testRegistry());
    } catch (const GraphException& e) {
        return e.errors();
    }
}

bool anyError(const std::vector<GraphError>& errors, const std::string& node, const std::string& port,
              const std::string& field, const std::string& text) {
    for (const auto& e : errors) {
        if (e.node == node && e.port == port && e.field == field && e.toString().find(text) != std::string::npos) return true;
    }
    return false;
}

std::string describe(const std::vector<GraphError>& errors) {
    std::string all;
    for (const auto& e : errors) all += e.toString() + "\n";
    return all;
}

const char* kGood = R"({
  "format": "isochron-graph/1",
  "name": "demo",
  "description": "round trip",
  "scheduler": {"name": "fifo-slice", "params": {"slice_us": 50}},
  "nodes": [
    {"id": "src", "type": "test.feed", "params": {"name": "g", "type": "scalar"}, "position": [10, 20], "label": "Input"},
    {"id": "x2", "type": "test.gain", "params": {"gain": 2}, "position": [200.5, 20]},
    {"id": "out", "type": "test.collect", "params": {"name": "g"}, "qos": [[0, 1], [100, 0]]}
  ],
  "edges": [{"from": "src.out0", "to": "x2.in"}, {"from": "x2.out", "to": "out.in0"}],
  "editor": {"zoom": 1.5}
})";

}  // namespace

TEST_CASE("a graph file round-trips through serialize and parse, keeping editor data", "[graph]") {
    GraphSpec spec = parseGraph(kGood);
    CHECK(spec.name == "demo");
    CHECK(spec.scheduler.name == "fifo-slice");
    REQUIRE(spec.nodes.size() == 3);
    CHECK(spec.nodes[1].position == NodePosition{200.5, 20});
    CHECK(spec.nodes[0].extra["label"] == "Input");
    std::string text = serializeGraph(spec);
    CHECK(text.rfind("{\n  \"format\": \"isochron-graph/1\"", 0) == 0);
    GraphSpec again = parseGraph(text);
    CHECK(serializeGraph(again) == text);
    CHECK(again.nodes[2].extra["qos"] == spec.nodes[2].extra["qos"]);
    CHECK(again.extra["editor"]["zoom"] == 1.5);
    CHECK(again.edges == spec.edges);
    CHECK(checkGraph(again, test::testRegistry()).empty());
}

TEST_CASE("saving is atomic and loading resolves relative paths from the file's folder", "[graph]") {
    auto dir = std::filesystem::temp_directory_path() / ("isochron-graph-file-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    GraphSpec spec = parseGraph(kGood);
    saveGraphFile(spec, dir / "g.isograph.json");
    CHECK_FALSE(std::filesystem::exists(dir / "g.isograph.json.saving"));
    GraphSpec loaded = loadGraphFile(dir / "g.isograph.json");
    CHECK(loaded.baseDirectory == std::filesystem::absolute(dir));
    std::filesystem::remove_all(dir);
    CHECK_THROWS_WITH(loadGraphFile(dir / "missing.isograph.json"), Catch::Contains("cannot open graph file") && Catch::Contains("No such file"));
    // A folder opened as a graph file was "not valid JSON".
    CHECK_THROWS_WITH(loadGraphFile(std::filesystem::temp_directory_path()), Catch::Contains("is a folder, not a graph file"));
}

TEST_CASE("JSON nested beyond the limit is refused before it is parsed, naming the depth", "[graph][errors]") {
    // A node's comment 200 000 levels deep crashed the loader with SIGSEGV (the kept value is copied recursively).
    auto nested = [](std::size_t levels) {
        return R"({"format": "isochron-graph/1", "nodes": [{"id": "a", "type": "test.gain", "comment": )" + std::string(levels, '[') +
               std::string(levels, ']') + "}]}";
    };
    auto errors = loadErrors(nested(200'000));
    CHECK(anyError(errors, "", "", "", "nested more than 1000 levels deep (at byte"));
    // The limit counts every level: the file's object, "nodes", the node, then the comment.
    CHECK_FALSE(anyError(loadErrors(nested(kMaxJsonNesting - 3)), "", "", "", "nested"));
    CHECK(anyError(loadErrors(nested(kMaxJsonNesting - 2)), "", "", "", "nested more than 1000 levels deep"));
    // Brackets inside strings are text, not nesting.
    CHECK_FALSE(anyError(loadErrors(R"({"format": "isochron-graph/1", "nodes": [{"id": "a", "type": "test.gain", "comment": ")" +
                                    std::string(5000, '[') + R"(\"[{"}]})"),
                         "", "", "", "nested"));
}

TEST_CASE("a graph path that is not a regular file, or a file too large, is refused before it is read", "[graph][errors]") {
    // /dev/zero as the graph file read without end (4 GB in 5 s).
    CHECK_THROWS_WITH(loadGraphFile("/dev/zero"), Catch::Contains("/dev/zero is a device, not a graph file"));
    const auto dir = std::filesystem::temp_directory_path() / ("isochron-graph-file-special-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    const auto fifo = dir / "pipe.isograph.json";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_THROWS_WITH(loadGraphFile(fifo), Catch::Contains("is a named pipe, not a graph file"));
    const auto large = dir / "large.isograph.json";
    std::ofstream{large}.close();
    std::filesystem::resize_file(large, kMaxGraphFileBytes + 1);  // sparse: no disk used
    CHECK_THROWS_WITH(loadGraphFile(large), Catch::Contains("is larger than 64 MiB"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("structural errors name the field", "[graph][errors]") {
    auto errors = loadErrors(R"({"nodes": []})");
    CHECK(anyError(errors, "", "", "format", "missing"));

    errors = loadErrors(R"({"format": "isochron-graph/9", "nodes": []})");
    CHECK(anyError(errors, "", "", "format", "isochron-graph/9"));

    errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [{"id": "a b", "type": "x"}]})");
    CHECK(anyError(errors, "", "", "nodes[0].id", "identifier"));

    errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [{"id": "a", "type": "test.gain"}, {"id": "a", "type": "test.gain"}]})");
    CHECK(anyError(errors, "a", "", "id", "more than one node"));

    errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [], "edges": [{"from": "nodot", "to": "b.in"}]})");
    CHECK(anyError(errors, "", "", "edges[0].from", "node.port"));

    errors = loadErrors("{not json");
    CHECK(anyError(errors, "", "", "", "not valid JSON: parse error"));
    CHECK_FALSE(anyError(errors, "", "", "", "json.exception"));  // nlohmann's tag is not for users

    // An empty file and a binary one both said "not valid JSON: ... unexpected end of input".
    errors = loadErrors(" \n");
    CHECK(anyError(errors, "", "", "", "the file is empty"));
    errors = loadErrors(std::string("\0\x01\x02{}", 5));
    CHECK(anyError(errors, "", "", "", "holds NUL bytes"));

    // Found by fuzzing: a number too large for a double is nlohmann's out_of_range, not a
    // parse_error, and used to escape parseGraph (isochron-run ended in std::terminate).
    // It then said "not valid JSON: [json.exception.out_of_range.406] number overflow parsing '1e999'",
    // naming neither the node nor the field.
    errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [{"id": "a", "type": "test.collect", "position": [1e999, 0]}]})");
    CHECK(anyError(errors, "a", "", "nodes[0].position[0]", "the number '1e999' is beyond the range of numbers"));
    CHECK(anyError(errors, "a", "", "nodes[0].position[0]", "give a value in it"));
    CHECK(anyError(errors, "a", "", "nodes[0].position[0]", "number overflow parsing '1e999'"));
    errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [{"type": "test.gain", "params": {"gain": -1e400}, "id": "late"}]})");
    CHECK(anyError(errors, "", "", "nodes[0].params.gain", "the number '-1e400' is beyond the range of numbers"));

    // A key given twice: the last one won silently (a node writing to its second "path").
    errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [{"id": "a", "type": "test.collect"},
        {"id": "b", "type": "test.collect", "params": {"name": "x", "name": "y"}}]})");
    CHECK(anyError(errors, "", "", "", "key \"name\" is given twice in the object at nodes[1].params"));
    errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [], "format": "isochron-graph/1"})");
    CHECK(anyError(errors, "", "", "", "key \"format\" is given twice in the top-level object"));
    // The same key in different objects is not a duplicate.
    errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [{"id": "a", "type": "test.collect", "params": {"name": "a"}},
        {"id": "b", "type": "test.collect", "params": {"name": "b"}}]})");
    CHECK_FALSE(anyError(errors, "", "", "", "twice"));
}

TEST_CASE("validation errors name the node, port or field", "[graph][errors]") {
    SECTION("unknown type, with a suggestion") {
        auto errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [{"id": "g", "type": "test.gian"}]})");
        INFO(describe(errors));
        CHECK(anyError(errors, "g", "", "type", "unknown operator type 'test.gian' (did you mean 'test.gain'?)"));
    }
    SECTION("bad parameter values and unknown parameters") {
        auto errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [
            {"id": "g", "type": "test.gain", "params": {"gain": 1000, "gian": 1}},
            {"id": "l", "type": "test.loop", "params": {"laps": "three"}}]})");
        INFO(describe(errors));
        CHECK(anyError(errors, "g", "", "params.gain", "1000 is above the maximum 100"));
        CHECK(anyError(errors, "g", "", "params.gian", "no such parameter"));
        CHECK(anyError(errors, "l", "", "params.laps", "expected int"));
    }
    SECTION("dangling edges and unknown ports") {
        auto errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [
            {"id": "g", "type": "test.gain"}, {"id": "c", "type": "test.collect"}],
            "edges": [{"from": "nowhere.out", "to": "g.in"}, {"from": "g.output", "to": "c.in0"}]})");
        INFO(describe(errors));
        CHECK(anyError(errors, "", "", "edges[0].from", "no node named 'nowhere'"));
        CHECK(anyError(errors, "g", "output", "edges[1].from", "no output port named 'output' (outputs: out)"));
    }
    SECTION("type mismatch names both ends and both types") {
        auto errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [
            {"id": "s", "type": "test.feed", "params": {"type": "signal<f32>"}}, {"id": "g", "type": "test.gain"},
            {"id": "c", "type": "test.collect"}],
            "edges": [{"from": "s.out0", "to": "g.in"}, {"from": "g.out", "to": "c.in0"}]})");
        INFO(describe(errors));
        CHECK(anyError(errors, "g", "in", "", "cannot connect 's.out0' (signal<f32>) to 'g.in' (scalar)"));
    }
    SECTION("unconnected required input, and an input fed twice") {
        auto errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [
            {"id": "s", "type": "test.feed", "params": {"type": "scalar", "outputs": 2}}, {"id": "g", "type": "test.gain"},
            {"id": "m", "type": "test.merge"}],
            "edges": [{"from": "s.out0", "to": "m.a"}, {"from": "s.out1", "to": "m.a"}]})");
        INFO(describe(errors));
        CHECK(anyError(errors, "g", "in", "", "required input is not connected"));
        CHECK(anyError(errors, "m", "b", "", "required input is not connected"));
        CHECK(anyError(errors, "m", "a", "edges[1].to", "already fed by s.out0"));
    }
    SECTION("a node feeding itself: its input is connected, the loop has no typed entry") {
        // Was "cannot be determined (connect its input)" although the input is connected.
        auto errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [
            {"id": "b", "type": "workload.universal_box"}, {"id": "c", "type": "test.collect"}],
            "edges": [{"from": "b.out", "to": "b.in0"}, {"from": "b.out", "to": "c.in0"}]})");
        INFO(describe(errors));
        CHECK(anyError(errors, "b", "out", "", "the type of output 'b.out' cannot be determined: it is the type of input 'b.in0', whose feeder has no known type"));
        CHECK_FALSE(anyError(errors, "b", "out", "", "connect its input"));
    }
    SECTION("a port type parameter that names no type") {
        auto errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [{"id": "s", "type": "test.feed", "params": {"type": "signal<q7>"}}]})");
        CHECK(anyError(errors, "s", "out", "params.type", "not a concrete port type"));
    }
}

TEST_CASE("command-line overrides are parsed with the parameter's type", "[graph]") {
    GraphSpec spec = parseGraph(kGood);
    setParameterFromText(spec, test::testRegistry(), "x2.gain=-3.5");
    CHECK(spec.findNode("x2")->params["gain"] == -3.5);
    CHECK_THROWS_WITH(setParameterFromText(spec, test::testRegistry(), "x2.gain=loud"), Catch::Contains("expected a number"));
    // strtod read "0x10" as 16 and took "inf" and "nan": a number is written in decimal.
    for (const char* text : {"x2.gain=0x10", "x2.gain=inf", "x2.gain=nan", "x2.gain=1e"}) {
        INFO(text);
        CHECK_THROWS_WITH(setParameterFromText(spec, test::testRegistry(), text), Catch::Contains("expected a number"));
    }
    // A number beyond a double's range was "expected a number, got '1e400'".
    CHECK_THROWS_WITH(setParameterFromText(spec, test::testRegistry(), "x2.gain=1e400"), Catch::Contains("parameter 'gain': 1e400 is above the maximum 100"));
    CHECK_THROWS_WITH(setParameterFromText(spec, test::testRegistry(), "x2.gain=-1e400"), Catch::Contains("-1e400 is below the minimum -100"));
    GraphSpec generator = parseGraph(R"({"format": "isochron-graph/1", "nodes": [{"id": "g", "type": "generators.signal_generator"}]})");
    CHECK_THROWS_WITH(setParameterFromText(generator, test::testRegistry(), "g.rate=1e400"),
                      Catch::Contains("node 'g', parameter 'rate': 1e400 is beyond the range of numbers (about -1.8e308 to 1.8e308): give a value in it"));
    // Too small to tell from 0: read as the nearest number, then held to the parameter's range.
    CHECK_THROWS_WITH(setParameterFromText(generator, test::testRegistry(), "g.rate=1e-400"), Catch::Contains("is below the minimum 0.001"));
    CHECK_THROWS_WITH(setParameterFromText(spec, test::testRegistry(), "nope.gain=1"), Catch::Contains("no node named 'nope'"));
    CHECK_THROWS_WITH(setParameterFromText(spec, test::testRegistry(), "x2.volume=1"), Catch::Contains("no such parameter (it has: gain)"));
    CHECK_THROWS_WITH(setParameterFromText(spec, test::testRegistry(), "x2.gian=1"),
                      Catch::Contains("no such parameter (did you mean 'gain'?) (it has: gain)"));
    CHECK_THROWS_WITH(setParameterFromText(spec, test::testRegistry(), "x2gain"), Catch::Contains("node.param=value"));
}

TEST_CASE("an override the operator's own check refuses is refused like validation would", "[graph]") {
    GraphSpec spec = parseGraph(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "e", "type": "math.expression"}, {"id": "c", "type": "math.clip", "params": {"high": 2}}]})");
    setParameterFromText(spec, test::testRegistry(), "e.expression=sqrt(a) * b");
    CHECK(spec.findNode("e")->params["expression"] == "sqrt(a) * b");
    CHECK_THROWS_WITH(setParameterFromText(spec, test::testRegistry(), "e.expression=a +"), Catch::Contains("ends where a value was expected"));
    setParameterFromText(spec, test::testRegistry(), "c.low=1.5");  // below the graph file's high
    CHECK_THROWS_WITH(setParameterFromText(spec, test::testRegistry(), "c.low=3"), Catch::Contains("low is above high"));
}

TEST_CASE("a bus edge connects two port groups index by index, sizing an automatic group", "[graph][bus]") {
    test::FeedScript script;
    const Timebase& tb = Timebase::get(10);
    script.outputs = 3;
    script.batches = {{{0, Item::scalar(0, {&tb, 0, 1})}, {1, Item::scalar(1, {&tb, 0, 1})}, {2, Item::scalar(2, {&tb, 0, 1})}}};
    test::feedScripts()["bus"] = script;
    GraphSpec spec = parseGraph(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "src", "type": "test.feed", "params": {"name": "bus", "type": "scalar", "outputs": 3}},
        {"id": "out", "type": "test.collect", "params": {"name": "bus", "inputs": 0}}],
        "edges": [{"from": "src.out*", "to": "out.in*"}]})");
    ValidatedGraph graph = validateGraph(spec, test::testRegistry());
    REQUIRE(graph.nodes[1].inputs.size() == 3);
    CHECK(graph.nodes[1].params.getInt("inputs") == 3);
    CHECK(graph.edges.size() == 3);
    CHECK(serializeGraph(graph.spec).find("\"to\": \"out.in*\"") != std::string::npos);  // saved as written
    Engine engine(graph, parseSchedulerText("df"));
    engine.run();
    for (int port = 0; port < 3; ++port) {
        REQUIRE(test::collections()["bus"].items[static_cast<std::size_t>(port)].size() == 1);
        CHECK(test::collections()["bus"].items[static_cast<std::size_t>(port)][0].value() == port);
    }
    test::feedScripts().clear();
    test::collections().clear();
}

TEST_CASE("an automatic input group fed by ordinary edges gets as many ports as its highest wired index", "[graph][bus]") {
    GraphSpec spec = parseGraph(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "src", "type": "test.feed", "params": {"name": "wired", "type": "scalar", "outputs": 2}},
        {"id": "out", "type": "test.collect", "params": {"name": "wired", "inputs": 0}}],
        "edges": [{"from": "src.out0", "to": "out.in2"}, {"from": "src.out1", "to": "out.in0"}]})");
    ValidatedGraph graph = validateGraph(spec, test::testRegistry());
    CHECK(graph.nodes[1].params.getInt("inputs") == 3);
    CHECK(graph.nodes[1].inputs.size() == 3);
    CHECK(graph.edges.size() == 2);
    // A group with a count written in the file keeps it: wiring past it is an error naming the port.
    GraphSpec fixed = parseGraph(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "src", "type": "test.feed", "params": {"name": "wired", "type": "scalar", "outputs": 2}},
        {"id": "out", "type": "test.collect", "params": {"name": "wired", "inputs": 1}}],
        "edges": [{"from": "src.out0", "to": "out.in0"}, {"from": "src.out1", "to": "out.in1"}]})");
    CHECK_THROWS_WITH(validateGraph(fixed, test::testRegistry()), Catch::Contains("port 'in1'") && Catch::Contains("no input port named 'in1'"));
}

TEST_CASE("bus edges between mismatched or non-group ports are refused with a reason", "[graph][bus][errors]") {
    auto errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "src", "type": "test.feed", "params": {"type": "scalar", "outputs": 3}},
        {"id": "out", "type": "test.collect", "params": {"inputs": 2}}],
        "edges": [{"from": "src.out*", "to": "out.in*"}]})");
    INFO(describe(errors));
    CHECK(anyError(errors, "out", "in*", "edges[0]", "bus src.out* has 3 ports but out.in* has 2"));
    CHECK(errors.size() == 1);  // not also "required input is not connected" for the inputs the bus would have fed

    errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "src", "type": "test.feed", "params": {"type": "scalar"}}, {"id": "g", "type": "test.gain"}],
        "edges": [{"from": "src.out*", "to": "g.in*"}]})");
    INFO(describe(errors));
    CHECK(anyError(errors, "g", "in*", "edges[0].to", "'in' is not a repeated input group of 'g'"));

    errors = loadErrors(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "src", "type": "test.feed", "params": {"type": "scalar"}}, {"id": "out", "type": "test.collect"}],
        "edges": [{"from": "src.out*", "to": "out.in0"}]})");
    INFO(describe(errors));
    CHECK(anyError(errors, "out", "in0", "edges[0]", "write both ends with '*'"));
}

TEST_CASE("a node's partition is a whole number from 0, kept through a save, and a bad one names the node", "[graph][partition]") {
    GraphSpec spec = parseGraph(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "a", "type": "test.gain", "partition": 2}, {"id": "b", "type": "test.gain"}], "edges": []})");
    REQUIRE(spec.nodes.size() == 2);
    CHECK(spec.nodes[0].partition == 2);
    CHECK(!spec.nodes[1].partition.has_value());
    CHECK(!spec.nodes[0].extra.contains("partition"));  // a field of its own, not editor data
    const GraphSpec again = parseGraph(serializeGraph(spec));
    CHECK(again.nodes[0].partition == 2);
    CHECK(!again.nodes[1].partition.has_value());

    for (const char* bad : {"-1", "1.5", "\"1\"", "true", "null", "1000001"}) {
        INFO("partition " << bad);
        const auto errors = loadErrors(std::string(R"({"format": "isochron-graph/1", "nodes": [{"id": "late", "type": "test.gain", "partition": )") + bad +
                                       "}], \"edges\": []}");
        CHECK(anyError(errors, "late", "", "partition", "must be a whole number from 0"));
    }
}
