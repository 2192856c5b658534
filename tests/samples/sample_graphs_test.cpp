// Every graph in samples/ validates, runs to the end, and gives the same outputs under every
// scheduler (with and without rate control). Outputs are captured by swapping each sink for a
// collector with the same inputs; sources are unpaced so the test is quick, and capture sources play
// their recording, never a device the machine may have. Graphs paced by generators also run paced
// (faster than real time, shortened): the end of a paced stream must not depend on the scheduler.
#include <catch2/catch.hpp>

#include <algorithm>
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

// How sources run: flat out, or paced at 10x their pace in the file with generators cut to 2 s.
enum class Pacing { Unpaced, Faster };

// The graph (its subgraphs expanded) with sinks replaced by collectors named "<graph>/<sink>", and
// sources paced as asked.
GraphSpec capturing(const GraphSpec& file, const std::string& tag, std::vector<std::string>& collectors, Pacing pacing = Pacing::Unpaced) {
    std::vector<GraphError> errors;
    GraphSpec spec = expandSubgraphs(file, testRegistry(), errors).flat;
    REQUIRE(errors.empty());
    ValidatedGraph original = validateGraph(spec, testRegistry());
    for (std::size_t i = 0; i < original.nodes.size(); ++i) {
        const ValidatedNode& node = original.nodes[i];
        NodeSpec& written = spec.nodes[i];
        if (node.descriptor->findParam("pace")) {
            written.params["pace"] = pacing == Pacing::Unpaced ? 0.0 : 10.0 * node.params.getReal("pace");
        }
        if (pacing == Pacing::Faster && node.descriptor->typeName == "generators.signal_generator") {
            written.params["duration"] = std::min(2.0, node.params.getReal("duration"));
        }
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

// Runs `captured` under every scheduler; every collector must get the same items as under the
// first. Returns the items of the first run, by collector.
std::map<std::string, std::vector<std::vector<Item>>> sameUnderEveryScheduler(const GraphSpec& captured, const std::vector<std::string>& collectors) {
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
                INFO("output " << name << " port " << port);
                REQUIRE(got.items[port].size() == want[port].size());
                for (std::size_t i = 0; i < want[port].size(); ++i) {
                    std::string why;
                    INFO("item " << i);
                    CHECK(sameData(want[port][i], got.items[port][i], &why));
                    INFO(why);
                }
            }
        }
    }
    return reference;
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
        const auto reference = sameUnderEveryScheduler(captured, collectors);
        // Something flowed: a sample graph that produces nothing is a broken sample.
        std::size_t total = 0;
        for (const auto& [name, ports] : reference) {
            for (const auto& items : ports) total += items.size();
        }
        CHECK(total > 0);
    }
    collections().clear();
}

TEST_CASE("sample graphs paced by generators give identical outputs under every scheduler when paced", "[samples][paced]") {
    // spectrum-watch gave 3746 spectra under rtc and 3747 under the others when run in real time.
    std::size_t pacedGraphs = 0;
    for (const auto& file : sampleGraphs()) {
        GraphSpec spec = loadGraphFile(file);
        const bool pacedGenerator = std::any_of(spec.nodes.begin(), spec.nodes.end(), [](const NodeSpec& n) {
            return n.type == "generators.signal_generator" && n.params.count("pace") && n.params.at("pace").get<double>() > 0;
        });
        if (!pacedGenerator) continue;
        ++pacedGraphs;
        INFO("graph " << file.string());
        std::vector<std::string> collectors;
        GraphSpec captured = capturing(spec, file.filename().string() + "/paced", collectors, Pacing::Faster);
        const auto reference = sameUnderEveryScheduler(captured, collectors);
        // And the same items as unpaced: pacing decides when items flow, never which.
        std::vector<std::string> unpacedCollectors;
        GraphSpec unpaced = capturing(spec, file.filename().string() + "/unpaced", unpacedCollectors, Pacing::Faster);
        for (NodeSpec& node : unpaced.nodes) {
            if (node.params.count("pace")) node.params["pace"] = 0.0;
        }
        Engine engine(validateGraph(unpaced, testRegistry()), parseSchedulerText("df"));
        REQUIRE(engine.run().completed);
        for (std::size_t c = 0; c < collectors.size(); ++c) {
            INFO("output " << collectors[c]);
            const auto& got = collections()[unpacedCollectors[c]].items;
            const auto& want = reference.at(collectors[c]);
            REQUIRE(got.size() == want.size());
            for (std::size_t port = 0; port < want.size(); ++port) {
                REQUIRE(got[port].size() == want[port].size());
                for (std::size_t i = 0; i < want[port].size(); ++i) CHECK(sameData(want[port][i], got[port][i]));
            }
        }
    }
    CHECK(pacedGraphs >= 2);  // spectrum-watch and two-bands
    collections().clear();
}
