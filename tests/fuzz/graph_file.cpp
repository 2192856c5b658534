// Fuzz target: graph files with subgraphs, as `isochron-run --check` and the editor read them.
//
// Input: up to four files separated by NUL bytes: main.isograph.json, then part1..part3.isograph.json
// in the same folder, which the main file (and each other) may use as subgraphs. Properties: every
// problem is a GraphException with a message (nothing else escapes, nothing crashes); a graph that
// loads saves to text that loads back to the same text; checkGraph() finds no problem exactly when
// validateGraph() succeeds.
#include <string>

#include "engine/graph/graph_error.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "nodes/register_builtin_nodes.h"
#include "tests/fuzz/fuzz_support.h"

using namespace isochron;

namespace {

constexpr std::size_t kFiles = 4;

std::filesystem::path fileName(std::size_t index) {
    return fuzz::scratchDirectory() / (index == 0 ? std::string("main.isograph.json") : "part" + std::to_string(index) + ".isograph.json");
}

void requireMessages(const std::vector<GraphError>& errors) {
    fuzz::require(!errors.empty(), "a GraphException without errors");
    for (const GraphError& error : errors) fuzz::require(!error.message.empty(), "a graph error without a message");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::string_view> files = fuzz::splitAtNul(data, size, kFiles);
    for (std::size_t i = 0; i < kFiles; ++i) {
        std::error_code ignored;
        if (i < files.size()) fuzz::writeFile(fileName(i), files[i]);
        else std::filesystem::remove(fileName(i), ignored);  // a reference to it is a missing file
    }
    GraphSpec graph;
    try {
        graph = loadGraphFile(fileName(0));
    } catch (const GraphException& e) {
        requireMessages(e.errors());
        return 0;
    }
    const std::string saved = serializeGraph(graph);
    try {
        fuzz::require(serializeGraph(parseGraph(saved)) == saved, "a saved graph loads back differently");
    } catch (const GraphException& e) {
        fuzz::require(false, std::string("a saved graph does not load back: ") + e.what());
    }
    const std::vector<GraphError> problems = checkGraph(graph, builtinRegistry());
    for (const GraphError& problem : problems) fuzz::require(!problem.message.empty(), "a graph problem without a message");
    try {
        validateGraph(graph, builtinRegistry());
        fuzz::require(problems.empty(), "validateGraph accepts a graph checkGraph finds problems in");
    } catch (const GraphException& e) {
        requireMessages(e.errors());
        fuzz::require(!problems.empty(), "validateGraph refuses a graph checkGraph finds no problem in");
    }
    return 0;
}
