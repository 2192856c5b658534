// Wiring is checked by the engine's validator: incompatible wires are refused with its reason.
#include <catch2/catch.hpp>

#include "ui/model/graph_document.h"

using namespace isochron::ui;

TEST_CASE("a wire between different types is refused with the validator's reason", "[ui][wiring]") {
    GraphDocument document;
    document.addNode("generators.signal_generator", 0, 0);
    document.addNode("spectral.magnitude", 240, 0);
    QString refused;
    QObject::connect(&document, &GraphDocument::wireRefused, [&](const QString& reason) { refused = reason; });
    const QString reason = document.connectPorts("signal_generator", "out", "magnitude", "spectrum");
    CHECK(reason.contains("signal<f32>"));
    CHECK(reason.contains("frame<c32>"));
    CHECK(reason.contains("do not match"));
    CHECK(refused == reason);
    CHECK(document.spec().edges.empty());
    CHECK(document.undoStack().count() == 2);
}

TEST_CASE("an input takes one wire; the same wire twice is refused", "[ui][wiring]") {
    GraphDocument document;
    document.addNode("generators.signal_generator", 0, 0);
    document.addNode("generators.signal_generator", 0, 200);
    document.addNode("io.null_sink", 240, 0);
    REQUIRE(document.connectPorts("signal_generator", "out", "null_sink", "in").isEmpty());
    CHECK(document.connectPorts("signal_generator", "out", "null_sink", "in").contains("already wired"));
    CHECK(document.connectPorts("signal_generator_2", "out", "null_sink", "in").contains("already fed"));
    CHECK(document.connectPorts("signal_generator", "nope", "null_sink", "in").contains("no output port named 'nope'"));
}

TEST_CASE("an open pass-through output may be wired; a type clash it causes downstream is refused", "[ui][wiring]") {
    GraphDocument document;
    document.addNode("segments.pass_through", 0, 0);
    document.addNode("spectral.magnitude", 240, 0);
    document.addNode("generators.signal_generator", -240, 0);
    REQUIRE(document.connectPorts("pass_through", "out", "magnitude", "spectrum").isEmpty());
    const QString reason = document.connectPorts("signal_generator", "out", "pass_through", "in");
    CHECK(reason.contains("pass_through.out"));
    CHECK(reason.contains("do not match"));
    CHECK(document.spec().edges.size() == 1);
}

TEST_CASE("rerouting a wire is one step and is checked like a new wire", "[ui][wiring]") {
    GraphDocument document;
    document.addNode("generators.signal_generator", 0, 0);
    document.addNode("io.null_sink", 240, 0);
    document.addNode("spectral.fft", 240, 200);
    document.addNode("spectral.magnitude", 240, 400);
    REQUIRE(document.connectPorts("signal_generator", "out", "null_sink", "in").isEmpty());
    const QString key = "signal_generator.out>null_sink.in";
    CHECK(document.rerouteWire(key, "magnitude", "spectrum").contains("do not match"));
    REQUIRE(document.rerouteWire(key, "fft", "in").isEmpty());
    REQUIRE(document.spec().edges.size() == 1);
    CHECK(document.spec().edges[0].to() == "fft.in");
    document.undo();
    CHECK(document.spec().edges[0].to() == "null_sink.in");
}
