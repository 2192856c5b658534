// Fuzz target: `isochron-run --set node.param=value` on a graph holding one node of every built-in
// operator type and two subgraph nodes (samples/two-bands.isograph.json, whose detectors expose
// parameters of samples/parts/band-detector.isograph.json).
//
// Input: the assignment text. Properties: a refused assignment is a GraphException with a message;
// an accepted one writes a value the parameter accepts from the graph file, which prints as text
// that parses back to the same value, and that validation does not then refuse (unless it names a
// file validation cannot read).
#include <string>

#include "engine/graph/graph_error.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/subgraph.h"
#include "engine/graph/validated_graph.h"
#include "nodes/register_builtin_nodes.h"
#include "tests/fuzz/fuzz_support.h"

using namespace isochron;

namespace {

/// The sample with two subgraph nodes, plus a node per operator type (its id the type with '_'
/// for '.': "io_audio_file_source").
GraphSpec fixtureGraph() {
    GraphSpec graph = loadGraphFile(std::filesystem::path(ISOCHRON_SOURCE_DIR) / "samples" / "two-bands.isograph.json");
    for (const OperatorDescriptor* descriptor : builtinRegistry().all()) {
        NodeSpec node;
        node.type = descriptor->typeName;
        node.id = descriptor->typeName;
        for (char& c : node.id) c = c == '.' ? '_' : c;
        graph.nodes.push_back(std::move(node));
    }
    return graph;
}

void requireMessages(const GraphException& e) {
    fuzz::require(!e.errors().empty(), "a GraphException without errors");
    for (const GraphError& error : e.errors()) fuzz::require(!error.message.empty(), "a graph error without a message");
}

/// An accepted value of an operator's own parameter: what the file now holds reads back as the
/// value the text gave, and prints as text that parses to it again.
void checkWrittenValue(const ParamSpec& spec, const nlohmann::json& written, std::string_view text) {
    std::string why;
    const auto fromFile = spec.fromJson(written, why);
    fuzz::require(fromFile.has_value(), "--set wrote a value the graph file refuses: " + why);
    if (spec.kind == ParamKind::Path) return;  // made absolute: compared as a path elsewhere
    const auto fromText = spec.parseText(text, why);
    fuzz::require(fromText.has_value() && *fromText == *fromFile, "--set wrote another value than the text gives");
    const auto again = spec.parseText(paramValueToText(*fromFile), why);
    fuzz::require(again.has_value() && *again == *fromFile, "a value does not print as text that parses back to it");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const GraphSpec fixture = fixtureGraph();
    const std::string assignment(reinterpret_cast<const char*>(data), size);
    GraphSpec graph = fixture;
    try {
        setParameterFromText(graph, builtinRegistry(), assignment);
    } catch (const GraphException& e) {
        requireMessages(e);
        return 0;
    }
    const std::size_t equals = assignment.find('=');
    std::string nodeId, param;
    fuzz::require(equals != std::string::npos && splitEndpoint(assignment.substr(0, equals), nodeId, param),
                  "an assignment that is not node.param=value was accepted");
    const NodeSpec* node = graph.findNode(nodeId);
    fuzz::require(node && node->params.count(param), "an accepted assignment changed no parameter");
    if (!isSubgraphNode(*node)) {
        const ParamSpec* spec = builtinRegistry().find(node->type)->findParam(param);
        checkWrittenValue(*spec, node->params.at(param), std::string_view(assignment).substr(equals + 1));
    }
    // A path names a file: whether it can be read is validation's to say (a geometry file is read
    // then), not --set's.
    const ParamSpec* written = isSubgraphNode(*node) ? nullptr : builtinRegistry().find(node->type)->findParam(param);
    const bool namesFile = written && written->kind == ParamKind::Path;
    for (const GraphError& problem : checkGraph(graph, builtinRegistry())) {
        fuzz::require(!problem.message.empty(), "a graph problem without a message");
        fuzz::require(namesFile || !(problem.node == nodeId && problem.field == "params." + param),
                      "validation refuses a value --set accepted: " + problem.message);
    }
    return 0;
}
