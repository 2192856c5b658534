// Group and ungroup in the editor: grouping writes the selection as a subgraph file and replaces it by
// one node wired the same way, in one undo step; the node shows the exposed ports with their types and
// parameters; ungrouping gives back the original graph.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>

#include <algorithm>
#include <filesystem>

#include "engine/graph/graph_file.h"
#include "engine/graph/subgraph.h"
#include "ui/files/sample_catalog.h"
#include "ui/model/graph_document.h"
#include "ui/model/subgraph_grouping.h"

using namespace isochron;
using namespace isochron::ui;
namespace fs = std::filesystem;

namespace {

// A generator feeding an FFT (size 128) and a sink, and the FFT feeding another sink.
void buildFanOut(GraphDocument& document) {
    document.addNode("generators.signal_generator", 0, 0);
    document.addNode("spectral.fft", 240, 20);
    document.addNode("io.null_sink", 480, 40);
    document.addNode("io.null_sink", 480, 200);
    REQUIRE(document.connectPorts("signal_generator", "out", "fft", "in").isEmpty());
    REQUIRE(document.connectPorts("fft", "spectrum", "null_sink", "in").isEmpty());
    REQUIRE(document.connectPorts("signal_generator", "out", "null_sink_2", "in").isEmpty());
    REQUIRE(document.setParameter("fft", "size", 128).isEmpty());
    REQUIRE(document.setParameter("signal_generator", "block", 128).isEmpty());  // windows the FFT holds
}

// The graph with nodes and edges in a canonical order, as text.
std::string canonical(GraphSpec spec) {
    std::sort(spec.nodes.begin(), spec.nodes.end(), [](const NodeSpec& a, const NodeSpec& b) { return a.id < b.id; });
    std::sort(spec.edges.begin(), spec.edges.end(), [](const EdgeSpec& a, const EdgeSpec& b) { return a.from() + a.to() < b.from() + b.to(); });
    return serializeGraph(spec);
}

struct Folder {
    fs::path path = fs::temp_directory_path() / ("isochron-subgraph-edit-test-" + std::to_string(getpid()));
    Folder() {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~Folder() { fs::remove_all(path); }
    QString file(const char* name) const { return QString::fromStdString((path / name).string()); }
};

}  // namespace

TEST_CASE("grouping writes the selection as a subgraph file and replaces it by one node wired the same way", "[ui][subgraph]") {
    Folder folder;
    GraphDocument document;
    buildFanOut(document);
    REQUIRE(document.saveAs(folder.file("main.isograph.json")));
    const std::string before = serializeGraph(document.spec());
    document.selection()->selectNodes({"fft", "null_sink"});
    CHECK(document.suggestedSubgraphPath() == folder.file("subgraph.isograph.json"));

    REQUIRE(document.groupSelection(folder.file("spectrum.isograph.json")) == QString());
    const GraphSpec file = loadGraphFile(folder.path / "spectrum.isograph.json");
    REQUIRE(file.nodes.size() == 2);
    CHECK(file.edges == std::vector<EdgeSpec>{{"fft", "spectrum", "null_sink", "in"}});
    CHECK(file.extra["interface"] == nlohmann::json::parse(R"({"inputs": {"in": "fft.in"}, "params": {"size": "fft.size"}})"));

    const NodeSpec* node = document.spec().findNode("spectrum");
    REQUIRE(node);
    CHECK(subgraphReference(*node) == "spectrum.isograph.json");
    CHECK(document.subgraphFileOf("spectrum") == folder.file("spectrum.isograph.json"));
    CHECK(document.spec().nodes.size() == 3);
    CHECK(std::count(document.spec().edges.begin(), document.spec().edges.end(), EdgeSpec{"signal_generator", "out", "spectrum", "in"}) == 1);
    CHECK(document.selection()->nodes() == QStringList{"spectrum"});
    INFO(document.problems()->rowCount());
    CHECK(document.valid());

    // The node shows the exposed input with the inner port's type, and the exposed parameter with its inner value as default.
    const NodeResolution* view = document.resolution().node("spectrum");
    REQUIRE(view);
    REQUIRE(view->inputs.size() == 1);
    CHECK(view->inputs[0].name == "in");
    CHECK(view->inputs[0].type == document.resolution().node("null_sink_2")->inputs[0].type);
    const QVariantList params = document.parametersOf("spectrum");
    REQUIRE(params.size() == 1);
    CHECK(params[0].toMap()["name"].toString() == QString("size"));
    CHECK(params[0].toMap()["value"].toInt() == 128);
    CHECK(params[0].toMap()["isDefault"].toBool());
    CHECK(document.setParameter("spectrum", "size", 256).isEmpty());
    CHECK(document.spec().findNode("spectrum")->params.at("size") == 256);
    CHECK_FALSE(document.setParameter("spectrum", "size", "big").isEmpty());
    CHECK_FALSE(document.setParameter("spectrum", "window", 3).isEmpty());
    document.undo();

    SECTION("undo puts the selection back exactly, redo groups again") {
        const std::string grouped = serializeGraph(document.spec());
        document.undo();
        CHECK(serializeGraph(document.spec()) == before);
        CHECK(document.selection()->nodes() == QStringList{"fft", "null_sink"});
        document.redo();
        CHECK(serializeGraph(document.spec()) == grouped);
    }
    SECTION("ungroup inlines the node back into the original graph, in one undo step") {
        const std::string grouped = serializeGraph(document.spec());
        REQUIRE(document.ungroup("spectrum") == QString());
        CHECK(canonical(document.spec()) == canonical(parseGraph(before)));
        CHECK(document.selection()->nodes().size() == 2);
        document.undo();
        CHECK(serializeGraph(document.spec()) == grouped);
    }
    SECTION("ungroup applies the node's parameters to the inner nodes") {
        REQUIRE(document.setParameter("spectrum", "size", 512).isEmpty());
        REQUIRE(document.ungroup("spectrum") == QString());
        CHECK(document.spec().findNode("fft")->params.at("size") == 512);
    }
}

TEST_CASE("an output used outside the selection becomes an exposed output, feeding every outside input", "[ui][subgraph]") {
    Folder folder;
    GraphDocument document;
    buildFanOut(document);
    REQUIRE(document.saveAs(folder.file("main.isograph.json")));
    const std::string before = serializeGraph(document.spec());
    document.selection()->selectNodes({"signal_generator", "fft"});
    REQUIRE(document.groupSelection(folder.file("source.isograph.json")) == QString());
    const GraphSpec file = loadGraphFile(folder.path / "source.isograph.json");
    CHECK(file.extra["interface"]["outputs"] == nlohmann::json::parse(R"({"out": "signal_generator.out", "spectrum": "fft.spectrum"})"));
    CHECK(file.extra["interface"].count("inputs") == 0);
    CHECK(document.valid());
    const NodeResolution* view = document.resolution().node("source");
    REQUIRE(view);
    CHECK(view->outputs.size() == 2);
    REQUIRE(document.ungroup("source") == QString());
    CHECK(canonical(document.spec()) == canonical(parseGraph(before)));
}

TEST_CASE("saving the graph elsewhere keeps its subgraph references pointing at the same file", "[ui][subgraph]") {
    Folder folder;
    fs::create_directories(folder.path / "elsewhere");
    GraphDocument document;
    buildFanOut(document);
    REQUIRE(document.saveAs(folder.file("main.isograph.json")));
    document.selection()->selectNodes({"fft"});
    REQUIRE(document.groupSelection(folder.file("spectrum.isograph.json")) == QString());
    REQUIRE(document.saveAs(folder.file("elsewhere/main.isograph.json")));
    CHECK(subgraphReference(*document.spec().findNode("spectrum")) == "../spectrum.isograph.json");
    CHECK(document.subgraphFileOf("spectrum") == folder.file("spectrum.isograph.json"));
    CHECK(document.valid());
}

TEST_CASE("a subgraph saved from another window updates the node using it", "[ui][subgraph]") {
    Folder folder;
    GraphDocument document;
    buildFanOut(document);
    REQUIRE(document.saveAs(folder.file("main.isograph.json")));
    document.selection()->selectNodes({"fft"});
    REQUIRE(document.groupSelection(folder.file("spectrum.isograph.json")) == QString());
    auto exposedSize = [&] { return document.parametersOf("spectrum").front().toMap()["value"].toInt(); };
    REQUIRE(exposedSize() == 128);

    GraphDocument other;
    REQUIRE(other.open(folder.file("spectrum.isograph.json")));
    REQUIRE(other.setParameter("fft", "size", 256).isEmpty());
    REQUIRE(other.save());
    QElapsedTimer clock;
    clock.start();
    while (exposedSize() != 256 && clock.elapsed() < 5000) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    CHECK(exposedSize() == 256);
}

TEST_CASE("a selection holding a subgraph node groups into a file elsewhere and ungroups back", "[ui][subgraph]") {
    Folder folder;
    const fs::path samples = fs::path(ISOCHRON_SOURCE_DIR) / "samples";
    fs::create_directories(folder.path / "parts");
    fs::create_directories(folder.path / "groups");
    fs::copy_file(samples / "two-bands.isograph.json", folder.path / "two-bands.isograph.json");
    fs::copy_file(samples / "parts/band-detector.isograph.json", folder.path / "parts/band-detector.isograph.json");
    GraphDocument document;
    REQUIRE(document.open(folder.file("two-bands.isograph.json")));
    REQUIRE(document.valid());
    const std::string before = serializeGraph(document.spec());
    document.selection()->selectNodes({"sweep", "low"});
    REQUIRE(document.groupSelection(folder.file("groups/source.isograph.json")) == QString());
    const GraphSpec file = loadGraphFile(folder.path / "groups/source.isograph.json");
    CHECK(subgraphReference(*file.findNode("low")) == "../parts/band-detector.isograph.json");
    CHECK(file.extra["interface"]["params"]["band_low_hz"] == "low.band_low_hz");
    CHECK(document.valid());
    const NodeResolution* view = document.resolution().node("source");
    REQUIRE(view);
    CHECK(view->outputs.size() == 2);  // the sweep feeding "high" and the events of "low"
    REQUIRE(document.ungroup("source") == QString());
    CHECK(canonical(document.spec()) == canonical(parseGraph(before)));
    CHECK(document.valid());
}

TEST_CASE("grouping exposes the chosen parameters only", "[ui][subgraph]") {
    Folder folder;
    GraphDocument document;
    buildFanOut(document);
    REQUIRE(document.setParameter("signal_generator", "frequency", 440).isEmpty());
    REQUIRE(document.saveAs(folder.file("main.isograph.json")));
    document.selection()->selectNodes({"signal_generator", "fft"});
    CHECK(document.selectionParameters() == QStringList{"signal_generator.block", "signal_generator.frequency", "fft.size"});
    REQUIRE(document.groupSelection(folder.file("none.isograph.json"), QStringList{}) == QString());
    CHECK(loadGraphFile(folder.path / "none.isograph.json").extra["interface"].count("params") == 0);
    CHECK(document.parametersOf("none").isEmpty());
    document.undo();
    REQUIRE(document.groupSelection(folder.file("one.isograph.json"), QStringList{"signal_generator.frequency"}) == QString());
    CHECK(loadGraphFile(folder.path / "one.isograph.json").extra["interface"]["params"] ==
          nlohmann::json::parse(R"({"frequency": "signal_generator.frequency"})"));
    REQUIRE(document.parametersOf("one").size() == 1);
    CHECK(document.parametersOf("one").front().toMap()["value"].toDouble() == 440);
    document.undo();
    CHECK(document.groupSelection(folder.file("bad.isograph.json"), QStringList{"null_sink.frequency"}).contains("not among the nodes"));
    CHECK_FALSE(fs::exists(folder.path / "bad.isograph.json"));
}

TEST_CASE("grouping nothing, ungrouping an operator or a missing file explain why", "[ui][subgraph]") {
    Folder folder;
    GraphDocument document;
    buildFanOut(document);
    document.selection()->clear();
    const int steps = document.undoStack().count();
    CHECK_FALSE(document.groupSelection(folder.file("empty.isograph.json")).isEmpty());
    CHECK_FALSE(fs::exists(folder.path / "empty.isograph.json"));
    CHECK(document.ungroup("fft").contains("not a subgraph"));
    CHECK(document.subgraphFileOf("fft").isEmpty());
    CHECK(document.undoStack().count() == steps);
}

TEST_CASE("the samples menu lists graphs that use subgraphs, not the parts they use", "[ui][subgraph]") {
    const SampleCatalog catalog;
    QStringList titles;
    for (const QVariant& sample : catalog.samples()) titles.append(sample.toMap()["title"].toString());
    CHECK(titles.contains("Two bands"));
    CHECK_FALSE(titles.contains("Band detector"));
}

TEST_CASE("sample titles are capitalized alike, the benchmarks in a group of their own", "[ui][samples]") {
    const SampleCatalog catalog;
    REQUIRE(catalog.samples().size() >= 9);
    CHECK(catalog.samples().front().toMap()["path"].toString().endsWith("quickstart.isograph.json"));
    for (const QVariant& entry : catalog.samples()) {
        const QVariantMap sample = entry.toMap();
        const QString title = sample["title"].toString();
        INFO(title.toStdString());
        CHECK(title.front().isUpper());
        if (sample["path"].toString().contains("/bench/")) {
            CHECK(sample["group"] == "Benchmarks");
            CHECK(title == title.toUpper());
        } else {
            CHECK(sample["group"].toString().isEmpty());
        }
    }
}

TEST_CASE("rebasing a graph's paths also rebases the paths given as parameters of its subgraph nodes", "[ui][subgraph]") {
    GraphDocument document;
    const fs::path samples = fs::path(ISOCHRON_SOURCE_DIR) / "samples";
    REQUIRE(document.open(QString::fromStdString((samples / "scale-out-field-arrays.isograph.json").string())));
    GraphSpec spec = document.spec();
    const fs::path elsewhere = fs::temp_directory_path() / "isochron-rebase-test";
    rebasePaths(spec, document.registry(), samples, elsewhere);
    for (const char* id : {"a", "b"}) {
        INFO(id);
        const NodeSpec& node = *spec.findNode(id);
        const NodeSpec& original = *document.spec().findNode(id);
        for (const char* param : {"path", "geometry"}) {
            INFO(param);
            const std::string rebased = node.params.at(param).get<std::string>();
            CHECK(rebased != original.params.at(param).get<std::string>());
            // From the other folder the rebased path names the very file the original named.
            CHECK((elsewhere / rebased).lexically_normal() == (samples / original.params.at(param).get<std::string>()).lexically_normal());
        }
    }
    CHECK((elsewhere / spec.findNode("positions")->params.at("path").get<std::string>()).lexically_normal() ==
          samples / "scale-out-field-positions.jsonl");
}
