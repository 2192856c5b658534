// Subgraphs: a node standing for another graph file expands into the flat graph the engine runs
// (prefixed ids, exposed ports and parameters, nesting), runs exactly like the same graph written
// flat under every scheduler, and every bad reference is reported by node and field.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

#include "engine/graph/graph_file.h"
#include "engine/graph/subgraph.h"
#include "engine/graph/validated_graph.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
namespace fs = std::filesystem;

namespace {

const Timebase& tb() { return Timebase::get(100); }

// A folder of graph files for one test, removed afterwards.
struct Folder {
    fs::path path = fs::temp_directory_path() / ("isochron-subgraph-test-" + std::to_string(getpid()));
    Folder() {
        fs::remove_all(path);
        fs::create_directories(path / "parts");
    }
    ~Folder() { fs::remove_all(path); }
    void write(const std::string& name, const std::string& text) const { std::ofstream(path / name) << text; }
};

// Two gains in a chain (2 then 3), exposing the first one's gain.
const char* kChain = R"({
  "format": "isochron-graph/1",
  "interface": {"inputs": {"in": "first.in"}, "outputs": {"out": "second.out"}, "params": {"gain": "first.gain"}},
  "nodes": [{"id": "first", "type": "test.gain", "params": {"gain": 2}}, {"id": "second", "type": "test.gain", "params": {"gain": 3}}],
  "edges": [{"from": "first.out", "to": "second.in"}]
})";

std::string withSubgraph(const std::string& reference, const std::string& params) {
    return R"({"format": "isochron-graph/1", "nodes": [
      {"id": "src", "type": "test.feed", "params": {"name": "s", "type": "scalar"}},
      {"id": "sub", "subgraph": ")" + reference + R"(", "params": )" + params + R"(},
      {"id": "out", "type": "test.collect", "params": {"name": "c"}}],
      "edges": [{"from": "src.out0", "to": "sub.in"}, {"from": "sub.out", "to": "out.in0"}]})";
}

std::string flatChain(double firstGain) {
    return R"({"format": "isochron-graph/1", "nodes": [
      {"id": "src", "type": "test.feed", "params": {"name": "s", "type": "scalar"}},
      {"id": "first", "type": "test.gain", "params": {"gain": )" + std::to_string(firstGain) + R"(}},
      {"id": "second", "type": "test.gain", "params": {"gain": 3}},
      {"id": "out", "type": "test.collect", "params": {"name": "c"}}],
      "edges": [{"from": "src.out0", "to": "first.in"}, {"from": "first.out", "to": "second.in"}, {"from": "second.out", "to": "out.in0"}]})";
}

FeedScript ramp(int count) {
    FeedScript script;
    for (int i = 0; i < count; ++i) {
        script.batches.push_back({{0, Item::scalar(i * 0.5, SampleRange{&tb(), 10 * i, 5})}, {0, Item::progress(tb().timeOf(10 * i + 5))}});
    }
    return script;
}

std::vector<double> collectedValues(const std::string& graph, const std::string& scheduler) {
    collections().clear();
    feedScripts()["s"] = ramp(40);
    RunOutcome outcome = runGraph(graph, scheduler);
    REQUIRE(outcome.completed);
    REQUIRE(outcome.failures.empty());
    std::vector<double> values;
    for (const Item& item : collections()["c"].items.at(0)) values.push_back(item.value());
    return values;
}

std::vector<GraphError> problems(const std::string& json) {
    try {
        return checkGraph(parseGraph(json), testRegistry());
    } catch (const GraphException& e) {
        return e.errors();
    }
}

bool anyError(const std::vector<GraphError>& errors, const std::string& node, const std::string& port, const std::string& field,
              const std::string& text) {
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

}  // namespace

TEST_CASE("a subgraph node expands into prefixed inner nodes wired through its exposed ports", "[graph][subgraph]") {
    Folder folder;
    folder.write("parts/chain.isograph.json", kChain);
    GraphSpec spec = parseGraph(withSubgraph((folder.path / "parts/chain.isograph.json").string(), R"({"gain": 5})"));
    std::vector<GraphError> errors;
    ExpandedGraph expanded = expandSubgraphs(spec, testRegistry(), errors);
    INFO(describe(errors));
    REQUIRE(errors.empty());
    std::vector<std::string> ids;
    for (const NodeSpec& node : expanded.flat.nodes) ids.push_back(node.id);
    CHECK(ids == std::vector<std::string>{"src", "sub/first", "sub/second", "out"});
    CHECK(expanded.flat.edges == std::vector<EdgeSpec>{{"src", "out0", "sub/first", "in"}, {"sub/second", "out", "out", "in0"},
                                                       {"sub/first", "out", "sub/second", "in"}});
    CHECK(expanded.flat.findNode("sub/first")->params.at("gain") == 5);
    CHECK(expanded.flat.findNode("sub/second")->params.at("gain") == 3);
    const ExpandedSubgraph& sub = expanded.subgraphs.at("sub");
    CHECK(sub.flat.inputs.front().inner == std::vector<Endpoint>{{"sub/first", "in"}});
    CHECK(sub.flat.outputs.front().inner == std::vector<Endpoint>{{"sub/second", "out"}});
    CHECK(sub.paramDefaults.at("gain") == 2);
}

TEST_CASE("a graph with a subgraph gives the same outputs as the same graph written flat, under every scheduler", "[graph][subgraph]") {
    Folder folder;
    folder.write("parts/chain.isograph.json", kChain);
    const std::string reference = (folder.path / "parts/chain.isograph.json").string();
    for (const std::string& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        const std::vector<double> flatDefault = collectedValues(flatChain(2), scheduler);
        REQUIRE(flatDefault.size() == 40);
        CHECK(flatDefault[3] == Approx(1.5 * 2 * 3));
        CHECK(collectedValues(withSubgraph(reference, "{}"), scheduler) == flatDefault);
        CHECK(collectedValues(withSubgraph(reference, R"({"gain": -1.5})"), scheduler) == collectedValues(flatChain(-1.5), scheduler));
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("subgraphs nest, and an exposed parameter passes through every level", "[graph][subgraph]") {
    Folder folder;
    folder.write("parts/chain.isograph.json", kChain);
    // The outer file refers to the inner one relative to its own folder, and re-exposes its ports and gain.
    folder.write("parts/outer.isograph.json", R"({"format": "isochron-graph/1",
      "interface": {"inputs": {"x": "pre.in"}, "outputs": {"y": "inner.out"}, "params": {"g": "inner.gain"}},
      "nodes": [{"id": "pre", "type": "test.gain", "params": {"gain": 10}}, {"id": "inner", "subgraph": "chain.isograph.json", "params": {"gain": 4}}],
      "edges": [{"from": "pre.out", "to": "inner.in"}]})");
    std::string graph = R"({"format": "isochron-graph/1", "nodes": [
      {"id": "src", "type": "test.feed", "params": {"name": "s", "type": "scalar"}},
      {"id": "n", "subgraph": "parts/outer.isograph.json", "params": {"g": 7}},
      {"id": "out", "type": "test.collect", "params": {"name": "c"}}],
      "edges": [{"from": "src.out0", "to": "n.x"}, {"from": "n.y", "to": "out.in0"}]})";
    GraphSpec spec = parseGraph(graph);
    spec.baseDirectory = folder.path;
    std::vector<GraphError> errors;
    ExpandedGraph expanded = expandSubgraphs(spec, testRegistry(), errors);
    INFO(describe(errors));
    REQUIRE(errors.empty());
    REQUIRE(expanded.flat.findNode("n/inner/first"));
    CHECK(expanded.flat.findNode("n/inner/first")->params.at("gain") == 7);
    CHECK(expanded.subgraphs.at("n").paramDefaults.at("g") == 4);
    CHECK(expanded.subgraphs.at("n").flat.params.front().inner == std::vector<Endpoint>{{"n/inner/first", "gain"}});

    feedScripts()["s"] = ramp(10);
    collections().clear();
    Engine engine(validateGraph(spec, testRegistry()), parseSchedulerText("df"));
    REQUIRE(engine.run().completed);
    REQUIRE(collections()["c"].items.at(0).size() == 10);
    CHECK(collections()["c"].items[0][4].value() == Approx(2.0 * 10 * 7 * 3));

    setParameterFromText(spec, testRegistry(), "n.g=0.5");
    CHECK(spec.findNode("n")->params.at("g") == 0.5);
    CHECK_THROWS_WITH(setParameterFromText(spec, testRegistry(), "n.g=loud"), Catch::Contains("expected a number"));
    CHECK_THROWS_WITH(setParameterFromText(spec, testRegistry(), "n.gain=1"), Catch::Contains("exposes no such parameter (it exposes: g)"));
    CHECK_THROWS_WITH(setParameterFromText(spec, testRegistry(), "n/pre.gain=1"),
                      Catch::Contains("no node named 'n/pre'") && Catch::Contains("inside subgraph 'n' is set through the parameters it exposes: g"));
    CHECK_THROWS_WITH(setParameterFromText(spec, testRegistry(), "n.pre.gain=1"),
                      Catch::Contains("no node named 'n.pre'") && Catch::Contains("inside subgraph 'n' is set through the parameters it exposes: g"));
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("a subgraph node's partition goes to every node inside that names none, at every level", "[graph][subgraph][partition]") {
    Folder folder;
    folder.write("parts/chain.isograph.json", kChain);
    // `pre` names no partition, `pinned` names its own; `inner` nests the chain one level deeper.
    folder.write("parts/outer.isograph.json", R"({"format": "isochron-graph/1",
      "interface": {"inputs": {"x": "pre.in"}, "outputs": {"y": "pinned.out"}},
      "nodes": [{"id": "pre", "type": "test.gain"}, {"id": "inner", "subgraph": "chain.isograph.json"},
                {"id": "pinned", "type": "test.gain", "partition": 5}],
      "edges": [{"from": "pre.out", "to": "inner.in"}, {"from": "inner.out", "to": "pinned.in"}]})");
    const auto partitionsOf = [&](const std::string& outerFields) {
        GraphSpec spec = parseGraph(R"({"format": "isochron-graph/1", "nodes": [
          {"id": "src", "type": "test.feed", "params": {"name": "s", "type": "scalar"}},
          {"id": "n", "subgraph": "parts/outer.isograph.json")" + outerFields + R"(},
          {"id": "out", "type": "test.collect", "params": {"name": "c"}, "partition": 1}],
          "edges": [{"from": "src.out0", "to": "n.x"}, {"from": "n.y", "to": "out.in0"}]})");
        spec.baseDirectory = folder.path;
        std::vector<GraphError> errors;
        ExpandedGraph expanded = expandSubgraphs(spec, testRegistry(), errors);
        INFO(describe(errors));
        REQUIRE(errors.empty());
        std::map<std::string, std::optional<int>> partitions;
        for (const NodeSpec& node : expanded.flat.nodes) partitions[node.id] = node.partition;
        return partitions;
    };
    using Partitions = std::map<std::string, std::optional<int>>;
    CHECK(partitionsOf(R"(, "partition": 3)") == Partitions{{"src", std::nullopt}, {"n/pre", 3}, {"n/inner/first", 3}, {"n/inner/second", 3},
                                                           {"n/pinned", 5}, {"out", 1}});
    CHECK(partitionsOf("") == Partitions{{"src", std::nullopt}, {"n/pre", std::nullopt}, {"n/inner/first", std::nullopt},
                                         {"n/inner/second", std::nullopt}, {"n/pinned", 5}, {"out", 1}});
}

TEST_CASE("files that refer to each other are reported as a cycle", "[graph][subgraph][errors]") {
    Folder folder;
    folder.write("a.isograph.json", R"({"format": "isochron-graph/1", "nodes": [{"id": "b", "subgraph": "b.isograph.json"}]})");
    folder.write("b.isograph.json", R"({"format": "isochron-graph/1", "nodes": [{"id": "a", "subgraph": "a.isograph.json"}]})");
    GraphSpec spec = loadGraphFile(folder.path / "a.isograph.json");
    std::vector<GraphError> errors = checkGraph(spec, testRegistry());
    INFO(describe(errors));
    REQUIRE(errors.size() == 1);
    CHECK(errors.front().field == "subgraph");
    CHECK(errors.front().node == "b/a/b");  // the top file is read again once before the cycle shows
    CHECK(errors.front().message.find("cycle of subgraph files") != std::string::npos);
}

namespace {

// Level i of a tower of subgraph files: `uses` nodes in series, each standing for level i + 1; the
// last level is one gain of 1. Written as level0.isograph.json ... into `folder`.
void writeTower(const Folder& folder, int levels, int uses) {
    for (int level = 0; level < levels; ++level) {
        std::string nodes, edges;
        for (int u = 0; u < uses; ++u) {
            nodes += std::string(u ? ", " : "") + R"({"id": "u)" + std::to_string(u) + R"(", "subgraph": "level)" + std::to_string(level + 1) +
                     R"(.isograph.json"})";
            if (u) edges += std::string(u > 1 ? ", " : "") + R"({"from": "u)" + std::to_string(u - 1) + R"(.out", "to": "u)" + std::to_string(u) + R"(.in"})";
        }
        folder.write("level" + std::to_string(level) + ".isograph.json",
                     R"({"format": "isochron-graph/1", "interface": {"inputs": {"in": "u0.in"}, "outputs": {"out": "u)" + std::to_string(uses - 1) +
                         R"(.out"}}, "nodes": [)" + nodes + R"(], "edges": [)" + edges + "]}");
    }
    folder.write("level" + std::to_string(levels) + ".isograph.json", R"({"format": "isochron-graph/1",
      "interface": {"inputs": {"in": "g.in"}, "outputs": {"out": "g.out"}}, "nodes": [{"id": "g", "type": "test.gain", "params": {"gain": 1}}]})");
}

GraphSpec usingTower(const Folder& folder) {
    GraphSpec spec = parseGraph(withSubgraph("level0.isograph.json", "{}"));
    spec.baseDirectory = folder.path;
    return spec;
}

}  // namespace

TEST_CASE("subgraph files nested thousands deep expand and run, without a stack overflow", "[graph][subgraph]") {
    // 5 000 levels overflowed the stack of the recursive expansion (SIGSEGV, no message); later they were
    // refused beyond 100 levels. 10 000 levels of one file each hold one gain at the bottom.
    constexpr int kLevels = 10'000;
    Folder folder;
    writeTower(folder, kLevels, 1);
    std::vector<GraphError> errors;
    const ExpandedGraph expanded = expandSubgraphs(usingTower(folder), testRegistry(), errors);
    INFO(describe(errors));
    REQUIRE(errors.empty());
    std::string gainId = "sub/";
    for (int level = 0; level < kLevels; ++level) gainId += "u0/";
    gainId += "g";
    REQUIRE(expanded.flat.nodes.size() == 3);
    CHECK(expanded.flat.findNode(gainId));
    CHECK(expanded.flat.edges.size() == 2);
    CHECK(expanded.subgraphs.at("sub").flat.inputs.at(0).inner.at(0) == Endpoint{gainId, "in"});

    feedScripts()["s"] = ramp(5);
    collections().clear();
    Engine engine(validateGraph(usingTower(folder), testRegistry()), parseSchedulerText("df"));
    REQUIRE(engine.run().completed);
    CHECK(collections()["c"].items.at(0).size() == 5);
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("a cycle of subgraph files thousands of files long is reported once, naming where it closes", "[graph][subgraph][errors]") {
    constexpr int kLevels = 5'000;
    Folder folder;
    writeTower(folder, kLevels, 1);
    // The last level refers back to the first file instead of holding the gain.
    folder.write("level" + std::to_string(kLevels) + ".isograph.json", R"({"format": "isochron-graph/1",
      "interface": {"inputs": {"in": "u0.in"}, "outputs": {"out": "u0.out"}}, "nodes": [{"id": "u0", "subgraph": "level0.isograph.json"}]})");
    std::vector<GraphError> errors = checkGraph(usingTower(folder), testRegistry());
    REQUIRE(errors.size() == 1);  // the levels exposing the left-out node are left out with it, not reported again
    CHECK(errors.front().field == "subgraph");
    std::string closing = "sub/";  // the node of the last level, referring back to level 0
    for (int level = 0; level < kLevels; ++level) closing += "u0/";
    CHECK(errors.front().node == closing + "u0");
    CHECK(errors.front().message.find("(a cycle of subgraph files: level0.isograph.json -> level1.isograph.json -> level2.isograph.json -> ... (" +
                                      std::to_string(kLevels + 1 - 6) + " more) -> level" + std::to_string(kLevels - 2) + ".isograph.json -> level" +
                                      std::to_string(kLevels - 1) + ".isograph.json -> level" + std::to_string(kLevels) +
                                      ".isograph.json -> level0.isograph.json)") != std::string::npos);
}

TEST_CASE("a file used twice per level is counted per file: deep towers are refused before they are built", "[graph][subgraph][errors]") {
    // 29 levels of two uses each stand for 2^29 gains: expanding them took minutes and 1.5 GB.
    {
        Folder folder;
        writeTower(folder, 29, 2);
        std::vector<GraphError> errors = checkGraph(usingTower(folder), testRegistry());
        INFO(describe(errors));
        REQUIRE(errors.size() == 1);
        CHECK(errors.front().message.find("more than " + std::to_string(kMaxExpandedNodes) + " nodes") != std::string::npos);
        // It named neither the node nor the file.
        CHECK(errors.front().node == "sub");
        CHECK(errors.front().field == "subgraph");
        CHECK(errors.front().message.find("'" + (folder.path / "level0.isograph.json").lexically_normal().string() + "' would expand to more than") !=
              std::string::npos);
    }
    // Six levels: 2^6 gains.
    Folder small;
    writeTower(small, 6, 2);
    std::vector<GraphError> none;
    const ExpandedGraph expanded = expandSubgraphs(usingTower(small), testRegistry(), none);
    INFO(describe(none));
    REQUIRE(none.empty());
    CHECK(std::count_if(expanded.flat.nodes.begin(), expanded.flat.nodes.end(), [](const NodeSpec& n) { return n.type == "test.gain"; }) == 64);
    CHECK(expanded.flat.findNode("sub/u1/u0/u1/u0/u1/u0/g"));
}

TEST_CASE("bad subgraph references are reported by node and field", "[graph][subgraph][errors]") {
    Folder folder;
    folder.write("chain.isograph.json", kChain);
    const std::string chain = (folder.path / "chain.isograph.json").string();
    SECTION("a missing file") {
        auto errors = problems(withSubgraph((folder.path / "nope.isograph.json").string(), "{}"));
        INFO(describe(errors));
        CHECK(anyError(errors, "sub", "", "subgraph", "cannot open graph file"));
        CHECK(errors.size() == 1);  // its edges are left out with it, not reported as dangling
    }
    SECTION("a parameter the subgraph does not expose") {
        auto errors = problems(withSubgraph(chain, R"({"gian": 1})"));
        INFO(describe(errors));
        CHECK(anyError(errors, "sub", "", "params.gian", "exposes no such parameter (it exposes: gain)"));
    }
    SECTION("an edge to a port the subgraph does not expose") {
        std::string graph = withSubgraph(chain, "{}");
        graph.replace(graph.find("sub.in"), 6, "sub.inn");
        auto errors = problems(graph);
        INFO(describe(errors));
        CHECK(anyError(errors, "sub", "inn", "edges[0].to", "exposes no input named 'inn' (inputs: in)"));
    }
    SECTION("an interface naming a missing node, port or parameter") {
        folder.write("bad.isograph.json", R"({"format": "isochron-graph/1",
          "interface": {"inputs": {"in": "first.inn"}, "outputs": {"out": "third.out"}, "params": {"gain": "first.gian"}},
          "nodes": [{"id": "first", "type": "test.gain"}]})");
        auto errors = problems(withSubgraph((folder.path / "bad.isograph.json").string(), "{}"));
        INFO(describe(errors));
        CHECK(anyError(errors, "sub", "", "interface.inputs.in", "'first' (test.gain) has no input port named 'inn'"));
        CHECK(anyError(errors, "sub", "", "interface.outputs.out", "no node named 'third'"));
        CHECK(anyError(errors, "sub", "", "interface.params.gain", "has no parameter named 'gian'"));
    }
    SECTION("a node with both a type and a subgraph") {
        auto errors = problems(R"({"format": "isochron-graph/1", "nodes": [{"id": "x", "type": "test.gain", "subgraph": "a.json"}]})");
        CHECK(anyError(errors, "x", "", "type", "either a 'type' or a 'subgraph'"));
    }
    SECTION("a type mismatch at an exposed port names the inner node and port") {
        std::string graph = withSubgraph(chain, "{}");
        graph.replace(graph.find(R"("type": "scalar")"), 16, R"("type": "signal<f32>")");
        auto errors = problems(graph);
        INFO(describe(errors));
        CHECK(anyError(errors, "sub/first", "in", "", "cannot connect 'src.out0' (signal<f32>) to 'sub/first.in' (scalar)"));
    }
}

TEST_CASE("a subgraph node round-trips through the file format with its reference", "[graph][subgraph]") {
    GraphSpec spec = parseGraph(withSubgraph("parts/chain.isograph.json", R"({"gain": 5})"));
    REQUIRE(isSubgraphNode(spec.nodes[1]));
    CHECK(subgraphReference(spec.nodes[1]) == "parts/chain.isograph.json");
    const std::string text = serializeGraph(spec);
    CHECK(text.find("\"type\": \"\"") == std::string::npos);
    CHECK(serializeGraph(parseGraph(text)) == text);
    SubgraphInterface interface{{{"in", {{"a", "in"}, {"b", "in"}}}}, {{"out", {{"b", "out"}}}}, {}};
    nlohmann::json json = interfaceToJson(interface);
    CHECK(json["inputs"]["in"] == nlohmann::json::array({"a.in", "b.in"}));
    CHECK(json["outputs"]["out"] == "b.out");
    GraphSpec file;
    file.extra[kInterfaceField] = json;
    std::vector<GraphError> errors;
    SubgraphInterface again = parseInterface(file, "n", errors);
    CHECK(errors.empty());
    REQUIRE(again.inputs.size() == 1);
    CHECK(again.inputs[0].inner == interface.inputs[0].inner);
}
