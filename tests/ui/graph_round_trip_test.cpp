// The editor reads and writes exactly the runner's *.isograph.json: every sample graph survives
// open and save unchanged, and a graph built in the editor validates in the engine.
#include <catch2/catch.hpp>

#include <QDir>
#include <QTemporaryDir>
#include <QUrl>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "nodes/register_builtin_nodes.h"
#include "ui/model/graph_document.h"

using namespace isochron;
using namespace isochron::ui;
namespace fs = std::filesystem;

namespace {

nlohmann::json readJson(const fs::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

std::vector<fs::path> sampleGraphs() {
    std::vector<fs::path> graphs;
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(ISOCHRON_SOURCE_DIR) / "samples")) {
        if (entry.path().string().ends_with(".isograph.json")) graphs.push_back(entry.path());
    }
    return graphs;
}

}  // namespace

TEST_CASE("every sample graph opens and saves back to the same JSON", "[ui][round-trip]") {
    const auto graphs = sampleGraphs();
    REQUIRE(graphs.size() >= 5);
    for (const fs::path& original : graphs) {
        CAPTURE(original.string());
        QTemporaryDir folder;
        const fs::path copy = fs::path(folder.path().toStdString()) / original.filename();
        fs::copy_file(original, copy);
        GraphDocument document;
        REQUIRE(document.open(QString::fromStdString(copy.string())));
        CHECK_FALSE(document.modified());
        CHECK(document.nodeCount() == static_cast<int>(readJson(original)["nodes"].size()));
        REQUIRE(document.save());
        CHECK(readJson(copy) == readJson(original));
        CHECK(serializeGraph(loadGraphFile(copy)) == serializeGraph(loadGraphFile(original)));
    }
}

TEST_CASE("save as to another folder keeps relative paths pointing at the same files", "[ui][round-trip]") {
    const fs::path original = fs::path(ISOCHRON_SOURCE_DIR) / "samples" / "quickstart.isograph.json";
    GraphDocument document;
    REQUIRE(document.open(QString::fromStdString(original.string())));
    QTemporaryDir folder;
    const fs::path target = fs::path(folder.path().toStdString()) / "nested" / "copy.isograph.json";
    fs::create_directories(target.parent_path());
    REQUIRE(document.saveAs(QUrl::fromLocalFile(QString::fromStdString(target.string())).toString()));
    CHECK(document.filePath().toStdString() == target.string());
    CHECK(document.displayName() == "copy.isograph.json");

    const GraphSpec saved = loadGraphFile(target);
    const ValidatedGraph validated = validateGraph(saved, builtinRegistry());
    const ValidatedGraph reference = validateGraph(loadGraphFile(original), builtinRegistry());
    CHECK(validated.nodes[0].params.getString("path") == reference.nodes[0].params.getString("path"));
    CHECK(fs::exists(validated.nodes[0].params.getString("path")));
}

TEST_CASE("a graph built in the editor is one the engine accepts", "[ui][round-trip]") {
    GraphDocument document;
    document.addNode("generators.signal_generator", 0, 0);
    document.addNode("spectral.fft", 240, 0);
    document.addNode("spectral.magnitude", 480, 0);
    document.addNode("io.null_sink", 720, 0);
    REQUIRE(document.connectPorts("signal_generator", "out", "fft", "in").isEmpty());
    REQUIRE(document.connectPorts("fft", "spectrum", "magnitude", "spectrum").isEmpty());
    REQUIRE(document.connectPorts("magnitude", "magnitude", "null_sink", "in").isEmpty());
    REQUIRE(document.setParameter("fft", "size", 256).isEmpty());
    REQUIRE(document.setParameter("signal_generator", "block", 256).isEmpty());  // windows the FFT holds
    CHECK(document.valid());
    QTemporaryDir folder;
    const QString path = folder.filePath("built.isograph.json");
    REQUIRE(document.saveAs(path));
    CHECK_FALSE(document.modified());
    const GraphSpec spec = loadGraphFile(path.toStdString());
    CHECK_NOTHROW(validateGraph(spec, builtinRegistry()));
    CHECK(spec.nodes[1].params.at("size") == 256);
    CHECK(spec.nodes[3].position == NodePosition{720, 0});
}

TEST_CASE("opening a graph without positions lays it out; a broken file is refused with every problem", "[ui][round-trip]") {
    QTemporaryDir folder;
    const QString path = folder.filePath("bare.isograph.json");
    {
        std::ofstream out(path.toStdString());
        out << R"({"format": "isochron-graph/1", "nodes": [
            {"id": "g", "type": "generators.signal_generator"}, {"id": "s", "type": "io.null_sink"}],
            "edges": [{"from": "g.out", "to": "s.in"}]})";
    }
    GraphDocument document;
    REQUIRE(document.open(path));
    CHECK(document.spec().nodes[0].position.has_value());
    CHECK(document.spec().nodes[1].position->x > document.spec().nodes[0].position->x);
    CHECK_FALSE(document.modified());

    const QString broken = folder.filePath("broken.isograph.json");
    {
        std::ofstream out(broken.toStdString());
        out << R"({"format": "isochron-graph/9", "nodes": [{"type": "x"}]})";
    }
    CHECK_FALSE(document.open(broken));
    CHECK(document.lastError().contains("isochron-graph/9"));
    CHECK(document.lastError().contains("nodes[0].id"));
    CHECK(document.nodeCount() == 2);
}
