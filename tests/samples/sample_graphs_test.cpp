// Every graph in samples/ validates, runs to the end, and gives the same outputs under every
// scheduler (with and without rate control). Outputs are captured by swapping each sink for a
// collector with the same inputs; sources are unpaced so the test is quick, and capture sources play
// their recording, never a device the machine may have.
#include <catch2/catch.hpp>

#include <filesystem>

#include "engine/graph/graph_file.h"
#include "engine/graph/subgraph.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

std::vector<std::filesystem::path> sampleGraphs() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::filesystem::path(ISOCHRON_SOURCE_DIR) / "samples")) {
        // Files with an interface are parts used as subgraphs; they run inside the graphs using them.
        if (entry.path().string().ends_with(".isograph.json") && !loadGraphFile(entry.path()).extra.contains(kInterfaceField)) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

// The graph (its subgraphs expanded) with sinks replaced by collectors named "<graph>/<sink>", and
// sources unpaced.
GraphSpec capturing(const GraphSpec& file, const std::string& tag, std::vector<std::string>& collectors) {
    std::vector<GraphError> errors;
    GraphSpec spec = expandSubgraphs(file, testRegistry(), errors).flat;
    REQUIRE(errors.empty());
    ValidatedGraph original = validateGraph(spec, testRegistry());
    for (std::size_t i = 0; i < original.nodes.size(); ++i) {
        const ValidatedNode& node = original.nodes[i];
        NodeSpec& written = spec.nodes[i];
        if (node.descriptor->findParam("pace")) written.params["pace"] = 0;
        if (node.descriptor->typeName == "capture.audio_input") written.params["input"] = "file";
        if (!node.outputs.empty() || node.descriptor->isSource()) continue;
        std::string name = tag + "/" + node.id;
        collectors.push_back(name);
        written.type = "test.collect";
        written.params = {{"name", name}, {"inputs", static_cast<std::int64_t>(node.inputs.size())}};
        for (EdgeSpec& edge : spec.edges) {
            if (edge.toNode != node.id) continue;
            for (std::size_t p = 0; p < node.inputs.size(); ++p) {
                if (node.inputs[p].name == edge.toPort) edge.toPort = "in" + std::to_string(p);
            }
        }
    }
    return spec;
}

}  // namespace

TEST_CASE("every sample graph runs and gives identical outputs under every scheduler", "[samples]") {
    auto files = sampleGraphs();
    REQUIRE_FALSE(files.empty());
    for (const auto& file : files) {
        INFO("graph " << file.string());
        GraphSpec spec = loadGraphFile(file);
        std::vector<std::string> collectors;
        GraphSpec captured = capturing(spec, file.filename().string(), collectors);
        REQUIRE_FALSE(collectors.empty());
        std::map<std::string, std::vector<std::vector<Item>>> reference;
        for (const auto& scheduler : schedulerMatrix()) {
            INFO("scheduler " << scheduler);
            Engine engine(validateGraph(captured, testRegistry()), parseSchedulerText(scheduler));
            RunOutcome outcome = engine.run();
            REQUIRE(outcome.completed);
            REQUIRE(outcome.failures.empty());
            for (const auto& name : collectors) {
                const Collected& got = collections()[name];
                CHECK(got.finished);
                if (!reference.count(name)) {
                    reference[name] = got.items;
                    continue;
                }
                const auto& want = reference[name];
                REQUIRE(got.items.size() == want.size());
                for (std::size_t port = 0; port < want.size(); ++port) {
                    REQUIRE(got.items[port].size() == want[port].size());
                    for (std::size_t i = 0; i < want[port].size(); ++i) {
                        std::string why;
                        INFO("output " << name << " port " << port << " item " << i);
                        CHECK(sameData(want[port][i], got.items[port][i], &why));
                        INFO(why);
                    }
                }
            }
        }
        // Something flowed: a sample graph that produces nothing is a broken sample.
        std::size_t total = 0;
        for (const auto& [name, ports] : reference) {
            for (const auto& items : ports) total += items.size();
        }
        CHECK(total > 0);
    }
    collections().clear();
}
