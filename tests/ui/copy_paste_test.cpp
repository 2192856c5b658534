// Copy and paste: a selection travels as graph-file text, within a document or to another one.
#include <catch2/catch.hpp>

#include "engine/graph/graph_file.h"
#include "ui/model/graph_document.h"
#include "ui/model/graph_fragment.h"

using namespace isochron;
using namespace isochron::ui;

namespace {

void buildChain(GraphDocument& document) {
    document.addNode("generators.signal_generator", 0, 0);
    document.addNode("spectral.fft", 240, 20);
    document.addNode("io.null_sink", 480, 40);
    REQUIRE(document.connectPorts("signal_generator", "out", "fft", "in").isEmpty());
    REQUIRE(document.connectPorts("fft", "spectrum", "null_sink", "in").isEmpty());
    REQUIRE(document.setParameter("fft", "size", 128).isEmpty());
}

}  // namespace

TEST_CASE("copy takes the selected nodes and only the wires among them", "[ui][clipboard]") {
    GraphDocument document;
    buildChain(document);
    document.selection()->selectNodes({"fft", "null_sink"});
    const GraphSpec fragment = parseGraph(document.copySelection().toStdString());
    REQUIRE(fragment.nodes.size() == 2);
    REQUIRE(fragment.edges.size() == 1);
    CHECK(fragment.edges[0].from() == "fft.spectrum");
    CHECK(fragment.nodes[0].params.at("size") == 128);
}

TEST_CASE("paste renames clashing ids, keeps wires and lands at the pointer; undo removes it all", "[ui][clipboard]") {
    GraphDocument document;
    buildChain(document);
    document.selection()->selectNodes({"fft", "null_sink"});
    const QString copied = document.copySelection();
    const std::string before = serializeGraph(document.spec());
    REQUIRE(document.paste(copied, 1000, 500));
    REQUIRE(document.spec().nodes.size() == 5);
    CHECK(document.spec().nodes[3].id == "fft_2");
    CHECK(document.spec().nodes[4].id == "null_sink_2");
    CHECK(document.spec().nodes[3].position == NodePosition{1000, 500});
    CHECK(document.spec().nodes[4].position == NodePosition{1240, 520});
    CHECK(document.spec().edges.back() == EdgeSpec{"fft_2", "spectrum", "null_sink_2", "in"});
    CHECK(document.selection()->nodes() == QStringList({"fft_2", "null_sink_2"}));
    document.undo();
    CHECK(serializeGraph(document.spec()) == before);
}

TEST_CASE("paste into another document (another window) and duplicate", "[ui][clipboard]") {
    GraphDocument source;
    buildChain(source);
    source.selection()->selectNodes({"signal_generator", "fft", "null_sink"});
    GraphDocument target;
    target.addNode("spectral.fft", 0, 0);
    REQUIRE(target.paste(source.copySelection(), 0, 200));
    CHECK(target.spec().nodes.size() == 4);
    CHECK(target.spec().edges.size() == 2);
    CHECK(target.spec().edges[0] == EdgeSpec{"signal_generator", "out", "fft_2", "in"});

    source.duplicateSelection();
    CHECK(source.spec().nodes.size() == 6);
    CHECK(source.spec().nodes[3].position == NodePosition{40, 40});
    CHECK(source.undoStack().undoText().startsWith("Paste"));
}

TEST_CASE("pasting text that is not a graph is refused and changes nothing", "[ui][clipboard]") {
    GraphDocument document;
    const int steps = document.undoStack().count();
    CHECK_FALSE(document.paste("hello", 0, 0));
    CHECK(document.lastError().contains("not valid JSON"));
    CHECK(document.undoStack().count() == steps);
}

TEST_CASE("fresh ids replace a numeric suffix instead of stacking them", "[ui][clipboard]") {
    CHECK(uniqueNodeId("fft", {}) == "fft");
    CHECK(uniqueNodeId("fft", {"fft"}) == "fft_2");
    CHECK(uniqueNodeId("fft_2", {"fft", "fft_2"}) == "fft_3");
    CHECK(uniqueNodeId("stage_a", {"stage_a"}) == "stage_a_2");
}
