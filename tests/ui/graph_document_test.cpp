// Graph document edits and their undo/redo: every edit is one step that undoes to the exact file.
#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>

#include "engine/graph/endless_run.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "ui/canvas/node_geometry.h"
#include "ui/files/sample_catalog.h"
#include "ui/layout/canvas_rect.h"
#include "ui/model/graph_document.h"

using namespace isochron;
using namespace isochron::ui;

namespace {

std::string text(const GraphDocument& document) { return serializeGraph(document.spec()); }

}  // namespace

TEST_CASE("adding nodes gives readable unique ids and selects the new node", "[ui][document]") {
    GraphDocument document;
    const QString first = document.addNode("spectral.fft", 100, 40);
    const QString second = document.addNode("spectral.fft", 300, 40);
    CHECK(first == "fft");
    CHECK(second == "fft_2");
    CHECK(document.selection()->nodes() == QStringList{"fft_2"});
    CHECK(document.spec().nodes[1].position == NodePosition{300, 40});
    CHECK(document.addNode("spectral.no_such_thing", 0, 0).isEmpty());
    CHECK(document.lastError().contains("no_such_thing"));
}

TEST_CASE("every kind of edit undoes to the previous file and redoes to the same result", "[ui][document][undo]") {
    GraphDocument document;
    std::vector<std::string> states{text(document)};
    auto step = [&](auto&& edit) {
        edit();
        const std::string now = text(document);
        REQUIRE(now != states.back());
        states.push_back(now);
    };
    step([&] { document.addNode("generators.signal_generator", 0, 0); });
    step([&] { document.addNode("spectral.fft", 240, 0); });
    step([&] { document.addNode("io.null_sink", 480, 0); });
    step([&] { REQUIRE(document.connectPorts("signal_generator", "out", "fft", "in").isEmpty()); });
    step([&] { REQUIRE(document.connectPorts("fft", "spectrum", "null_sink", "in").isEmpty()); });
    step([&] { REQUIRE(document.setParameter("fft", "size", 512).isEmpty()); });
    step([&] { REQUIRE(document.setParameter("signal_generator", "waveform", QString("noise")).isEmpty()); });
    step([&] {
        document.selection()->selectNodes({"fft", "null_sink"});
        document.beginMove();
        document.dragSelection(33, 17);
        document.endMove(20);
    });
    step([&] { REQUIRE(document.renameNode("fft", "spectrum").isEmpty()); });
    step([&] { document.setComment("spectrum", "1024-point FFT"); });
    step([&] { REQUIRE(document.setScheduler("fifo-slice").isEmpty()); });
    step([&] { REQUIRE(document.setSchedulerParameter("slice_us", 50).isEmpty()); });
    step([&] { document.setGraphName("Noise spectrum"); });
    step([&] {
        document.selection()->selectNodes({"spectrum"});
        document.deleteSelection();
    });
    step([&] { document.resetParameter("signal_generator", "waveform"); });
    step([&] { document.autoLayout(); });

    REQUIRE(document.undoStack().count() == static_cast<int>(states.size()) - 1);
    for (std::size_t i = states.size() - 1; i > 0; --i) {
        document.undo();
        REQUIRE(text(document) == states[i - 1]);
    }
    CHECK_FALSE(document.canUndo());
    CHECK_FALSE(document.modified());
    for (std::size_t i = 1; i < states.size(); ++i) {
        document.redo();
        REQUIRE(text(document) == states[i]);
    }
    CHECK(document.modified());
}

TEST_CASE("deleting a node takes its wires, and undo puts both back in file order", "[ui][document][undo]") {
    GraphDocument document;
    document.addNode("generators.signal_generator", 0, 0);
    document.addNode("segments.pass_through", 200, 0);
    document.addNode("io.null_sink", 400, 0);
    document.connectPorts("signal_generator", "out", "pass_through", "in");
    document.connectPorts("pass_through", "out", "null_sink", "in");
    const std::string before = text(document);
    document.selection()->selectNode("pass_through");
    document.deleteSelection();
    CHECK(document.spec().nodes.size() == 2);
    CHECK(document.spec().edges.empty());
    CHECK(document.selection()->empty());
    CHECK(document.edges()->rowCount() == 0);
    document.undo();
    CHECK(text(document) == before);
    CHECK(document.nodes()->rowCount() == 3);
    CHECK(document.edges()->rowCount() == 2);
}

TEST_CASE("keyboard nudges of the same nodes merge into one undo step", "[ui][document][undo]") {
    GraphDocument document;
    document.addNode("io.null_sink", 100, 100);
    const int steps = document.undoStack().count();
    document.nudgeSelection(10, 0);
    document.nudgeSelection(10, 0);
    document.nudgeSelection(0, -10);
    CHECK(document.undoStack().count() == steps + 1);
    CHECK(document.spec().nodes[0].position == NodePosition{120, 90});
    document.undo();
    CHECK(document.spec().nodes[0].position == NodePosition{100, 100});
}

TEST_CASE("typing into one parameter field is one undo step; invalid values change nothing", "[ui][document][params]") {
    GraphDocument document;
    document.addNode("spectral.fft", 0, 0);
    const int steps = document.undoStack().count();
    CHECK(document.setParameter("fft", "size", QString("-4")).contains("below the minimum"));
    CHECK(document.setParameter("fft", "size", QString("abc")).size() > 0);
    CHECK(document.undoStack().count() == steps);
    CHECK(document.setParameter("fft", "size", QString("25")).isEmpty());
    CHECK(document.setParameter("fft", "size", QString("256")).isEmpty());
    CHECK(document.undoStack().count() == steps + 1);
    CHECK(document.spec().nodes[0].params.at("size") == 256);
    CHECK(document.setParameter("fft", "window", QString("square")).contains("not one of"));

    const QVariantList params = document.parametersOf("fft");
    auto size = std::find_if(params.begin(), params.end(), [](const QVariant& p) { return p.toMap()["name"] == "size"; });
    REQUIRE(size != params.end());
    CHECK(size->toMap()["value"].toInt() == 256);
    CHECK(size->toMap()["isDefault"].toBool() == false);
    CHECK(size->toMap()["unit"] == "samples");
}

TEST_CASE("node rows show resolved port types, problems and wire end points", "[ui][document][models]") {
    GraphDocument document;
    document.addNode("generators.signal_generator", 0, 0);
    document.addNode("segments.pass_through", 300, 100);
    QVariantMap pass = document.nodes()->get("pass_through");
    CHECK(pass["inputs"].toList().front().toMap()["type"] == "any");
    CHECK(pass["status"] == "error");
    CHECK(pass["problems"].toStringList().join(' ').contains("required input is not connected"));

    document.connectPorts("signal_generator", "out", "pass_through", "in");
    pass = document.nodes()->get("pass_through");
    CHECK(pass["outputs"].toList().front().toMap()["type"] == "signal<f32>");
    CHECK(pass["inputs"].toList().front().toMap()["connected"].toBool());
    CHECK(pass["status"] == "");

    const QModelIndex wire = document.edges()->index(0);
    CHECK(wire.data(EdgeListModel::FromXRole).toDouble() > 0);
    CHECK(wire.data(EdgeListModel::ToXRole).toDouble() == 300);
    CHECK(wire.data(EdgeListModel::TypeRole) == "signal<f32>");
    CHECK(document.edges()->wireAt(wire.data(EdgeListModel::ToXRole).toDouble() - 1, wire.data(EdgeListModel::ToYRole).toDouble(), 4) ==
          wire.data(EdgeListModel::KeyRole).toString());

    document.selection()->selectNode("signal_generator");
    document.beginMove();
    document.dragSelection(-40, 0);
    CHECK(document.edges()->index(0).data(EdgeListModel::FromXRole).toDouble() == Approx(wire.data(EdgeListModel::FromXRole).toDouble()));
    document.endMove();
    CHECK(document.nodes()->nodesIn(-50, -10, 20, 20) == QStringList{"signal_generator"});
}

TEST_CASE("the problems model lists what the validator reports", "[ui][document][models]") {
    GraphDocument document;
    document.addNode("spectral.fft", 0, 0);
    QCoreApplication::processEvents();
    REQUIRE(document.problems()->rowCount() == 1);
    CHECK(document.problems()->index(0).data(ProblemListModel::NodeRole) == "fft");
    CHECK_FALSE(document.valid());
    document.undo();
    QCoreApplication::processEvents();
    CHECK(document.problems()->rowCount() == 0);
}

TEST_CASE("the problems model warns of a loop that never drains, as isochron-run --check does", "[ui][document][models]") {
    // A generator into a box whose output feeds its own second input and a sink: valid, but every
    // item circulates forever. The Problems tab said "No problems: the graph is ready to run.".
    GraphDocument document;
    document.addNode("generators.signal_generator", 0, 0);
    document.addNode("workload.universal_box", 240, 0);
    document.addNode("io.null_sink", 480, 0);
    REQUIRE(document.setParameter("signal_generator", "duration", 0.1).isEmpty());
    REQUIRE(document.setParameter("universal_box", "inputs", 2).isEmpty());
    REQUIRE(document.connectPorts("signal_generator", "out", "universal_box", "in0").isEmpty());
    REQUIRE(document.connectPorts("universal_box", "out", "null_sink", "in").isEmpty());
    REQUIRE(document.connectPorts("universal_box", "out", "universal_box", "in1").isEmpty());
    QCoreApplication::processEvents();

    // The runner's own warnings for the graph, row for row.
    const std::vector<GraphError> expected = endlessRunWarnings(validateGraph(document.spec(), document.registry()));
    REQUIRE(expected.size() == 1);
    REQUIRE(document.problems()->rowCount() == 1);
    const QModelIndex row = document.problems()->index(0);
    CHECK(row.data(ProblemListModel::NodeRole) == "universal_box");
    CHECK(row.data(ProblemListModel::TextRole).toString().toStdString() == expected.front().toString());
    CHECK(row.data(ProblemListModel::MessageRole).toString().startsWith("feeds itself in a loop that never drains"));
    CHECK(row.data(ProblemListModel::SeverityRole) == "warning");
    CHECK(document.problems()->warningCount() == 1);
    CHECK(document.valid());  // a warning does not keep the graph from running

    // A real problem comes first, as an error, and the warnings wait until the graph is valid again
    // (--check says nothing more for an invalid graph either).
    document.addNode("spectral.fft", 0, 200);
    QCoreApplication::processEvents();
    REQUIRE(document.problems()->rowCount() == 1);
    CHECK(document.problems()->index(0).data(ProblemListModel::SeverityRole) == "error");
    CHECK(document.problems()->warningCount() == 0);
    document.undo();
    QCoreApplication::processEvents();
    CHECK(document.problems()->warningCount() == 1);
    document.undo();  // the loop's wire: in1 is not connected, an error, and no warning
    QCoreApplication::processEvents();
    REQUIRE(document.problems()->rowCount() == 1);
    CHECK(document.problems()->index(0).data(ProblemListModel::SeverityRole) == "error");
    CHECK(document.problems()->warningCount() == 0);
}

TEST_CASE("a wire from a node into its own input is drawn as an arc under the node", "[ui][document][models]") {
    GraphDocument document;
    document.addNode("workload.universal_box", 240, 100);
    REQUIRE(document.setParameter("universal_box", "inputs", 2).isEmpty());
    REQUIRE(document.connectPorts("universal_box", "out", "universal_box", "in1").isEmpty());
    QCoreApplication::processEvents();
    const QString key = "universal_box.out>universal_box.in1";
    // The node is 184 wide with two input rows: its bottom is at 100 + nodeHeight(2, 1).
    const double bottom = 100 + geometry::nodeHeight(2, 1);
    const double middleX = 240 + geometry::kNodeWidth / 2;
    // The plain curve ran right to left behind the node (only two stubs showed); the loop passes
    // under it, where a click finds it, and not through its middle.
    const QModelIndex wire = document.edges()->index(0);
    const double fromY = wire.data(EdgeListModel::FromYRole).toDouble(), toY = wire.data(EdgeListModel::ToYRole).toDouble();
    CHECK(document.edges()->wireAt(middleX, bottom + 24, 4) == key);
    CHECK(document.edges()->wireAt(middleX, (fromY + toY) / 2, 4).isEmpty());
    // Both ends still meet their ports.
    CHECK(wire.data(EdgeListModel::FromXRole).toDouble() == Approx(240 + geometry::kNodeWidth));
    CHECK(wire.data(EdgeListModel::ToXRole).toDouble() == Approx(240));
    CHECK(document.edges()->wireAt(240 + geometry::kNodeWidth + 1, fromY, 3) == key);
    CHECK(document.edges()->wireAt(240 - 1, toY, 3) == key);
}

TEST_CASE("canvas notes live in the file's editor field; typing and dragging are one step each", "[ui][document][notes]") {
    GraphDocument document;
    document.addNode("io.null_sink", 0, 0);
    const std::string before = text(document);
    const int steps = document.undoStack().count();
    const int index = document.addNote(40, 200, "");
    CHECK(index == 0);
    document.editNote(0, {{"text", "R"}});
    document.editNote(0, {{"text", "Raw input"}});
    document.editNote(0, {{"x", 60.0}, {"y", 220.0}});
    document.editNote(0, {{"x", 80.0}});
    CHECK(document.undoStack().count() == steps + 3);
    const QVariantMap note = document.notes().front().toMap();
    CHECK(note["text"] == "Raw input");
    CHECK(note["x"].toDouble() == 80);
    CHECK(note["y"].toDouble() == 220);
    const nlohmann::json saved = nlohmann::json::parse(text(document));
    CHECK(saved["editor"]["notes"][0]["text"] == "Raw input");
    CHECK(saved["editor"]["notes"][0]["position"] == nlohmann::json({80.0, 220.0}));
    document.removeNote(0);
    CHECK(document.notes().isEmpty());
    CHECK_FALSE(nlohmann::json::parse(text(document)).contains("editor"));
    for (int i = 0; i < 4; ++i) document.undo();
    CHECK(text(document) == before);
}

namespace {

/// No two nodes overlap, and no node's note (the room commentHeight gives it above the node)
/// covers another node or another note.
void checkNothingOverlaps(GraphDocument& document) {
    std::vector<CanvasRect> boxes, notes;
    for (const NodeSpec& node : document.spec().nodes) {
        const QVariantMap view = document.nodes()->get(QString::fromStdString(node.id));
        const CanvasRect box{view["posX"].toDouble(), view["posY"].toDouble(), view["boxWidth"].toDouble(), view["boxHeight"].toDouble()};
        boxes.push_back(box);
        const double room = geometry::commentHeight(view["comment"].toString().toStdString().size());
        notes.push_back({box.x, box.y - room, box.width, room});
    }
    for (std::size_t a = 0; a < boxes.size(); ++a) {
        for (std::size_t b = 0; b < boxes.size(); ++b) {
            INFO("nodes " << document.spec().nodes[a].id << " and " << document.spec().nodes[b].id);
            if (a != b) CHECK_FALSE(boxes[a].overlaps(boxes[b]));
            if (a != b && notes[a].height > 0) CHECK_FALSE(notes[a].overlaps(boxes[b]));
            if (a < b && notes[a].height > 0 && notes[b].height > 0) CHECK_FALSE(notes[a].overlaps(notes[b]));
        }
    }
}

}  // namespace

TEST_CASE("auto-layout leaves room for each node's note, so no note covers another node", "[ui][document][layout]") {
    GraphDocument document;
    REQUIRE(document.open(QStringLiteral(ISOCHRON_SOURCE_DIR "/samples/localize-live.isograph.json")));
    document.autoLayout();
    checkNothingOverlaps(document);
}

TEST_CASE("the sample graphs open with no node or note over another", "[ui][document][layout][samples]") {
    const SampleCatalog catalog;
    for (const QVariant& sample : catalog.samples()) {
        const QString path = sample.toMap()["path"].toString();
        INFO(path.toStdString());
        GraphDocument document;
        REQUIRE(document.open(path));
        checkNothingOverlaps(document);
    }
}

TEST_CASE("run states announce only the nodes whose state changed, on a graph of 1 000 nodes", "[ui][document][models]") {
    // Every quarter second of a run re-announced every node's status (1 000 canvas nodes re-evaluated
    // their bindings) although a few had changed.
    QTemporaryDir folder;
    REQUIRE(folder.isValid());
    std::string json = R"({"format": "isochron-graph/1", "nodes": [{"id": "gen", "type": "generators.signal_generator", "params": {}})";
    std::string edges;
    for (int n = 0; n < 1000; ++n) {
        json += R"(, {"id": "b)" + std::to_string(n) + R"(", "type": "workload.universal_box", "params": {}})";
        edges += (n ? ", " : "") + std::string(R"({"from": ")") + (n ? "b" + std::to_string(n - 1) : std::string("gen")) + R"(.out", "to": "b)" + std::to_string(n) + R"(.in0"})";
    }
    json += R"(], "edges": [)" + edges + "]}";
    const QString path = folder.filePath("chain.isograph.json");
    {
        QFile file(path);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(json));
    }
    GraphDocument document;
    REQUIRE(document.open(path));
    NodeListModel& nodes = *document.nodes();
    REQUIRE(nodes.rowCount() == 1001);

    QHash<QString, NodeRunState> states;
    for (int row = 0; row < nodes.rowCount(); ++row) states.insert(nodes.index(row).data(NodeListModel::IdRole).toString(), NodeRunState{"running", "0 items in", ""});
    int announcedRows = 0;
    QObject::connect(&nodes, &QAbstractItemModel::dataChanged, [&](const QModelIndex& first, const QModelIndex& last) { announcedRows += last.row() - first.row() + 1; });
    nodes.setRunStates(states);
    CHECK(announcedRows == 1001);  // every node started running

    announcedRows = 0;
    nodes.setRunStates(states);
    CHECK(announcedRows == 0);  // nothing changed

    states["b500"].state = "overloaded";
    states["b501"].detail = "3 items in";
    states["b900"].detail = "7 items in";
    nodes.setRunStates(states);
    CHECK(announcedRows == 3);
    CHECK(nodes.index(501).data(NodeListModel::StatusRole) == "overloaded");  // row 0 is the generator

    announcedRows = 0;
    nodes.setRunStates({});
    CHECK(announcedRows == 1001);  // the run ended: every node leaves its state
}

TEST_CASE("opening a graph of 1 000 nodes without positions lays it out in one move, not one per node", "[ui][document][models]") {
    // Each node placed on its own re-announced the graph (revision), every wire and the canvas's
    // bounds: a thousand redraws of a thousand nodes before the first frame.
    QTemporaryDir folder;
    REQUIRE(folder.isValid());
    std::string json = R"({"format": "isochron-graph/1", "nodes": [{"id": "gen", "type": "generators.signal_generator", "params": {}})";
    std::string edges;
    for (int n = 0; n < 1000; ++n) {
        json += R"(, {"id": "b)" + std::to_string(n) + R"(", "type": "workload.universal_box", "params": {}})";
        edges += (n ? ", " : "") + std::string(R"({"from": ")") + (n ? "b" + std::to_string(n - 1) : std::string("gen")) + R"(.out", "to": "b)" + std::to_string(n) + R"(.in0"})";
    }
    json += R"(], "edges": [)" + edges + "]}";
    const QString path = folder.filePath("chain.isograph.json");
    {
        QFile file(path);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(json));
    }
    GraphDocument document;
    int revisions = 0, wireChanges = 0, movedRowNotices = 0;
    QObject::connect(&document, &GraphDocument::revisionChanged, [&] { ++revisions; });
    QObject::connect(document.edges(), &EdgeListModel::geometryChanged, [&] { ++wireChanges; });
    QObject::connect(document.nodes(), &QAbstractItemModel::dataChanged, [&](const QModelIndex&, const QModelIndex&, const QList<int>& roles) {
        if (roles.contains(NodeListModel::XRole)) ++movedRowNotices;
    });
    REQUIRE(document.open(path));
    CHECK(document.nodes()->get("b999")["posX"].toDouble() != document.nodes()->get("gen")["posX"].toDouble());  // laid out
    INFO(revisions << " revisions, " << wireChanges << " wire changes, " << movedRowNotices << " moved-row notices");
    CHECK(revisions < 10);
    CHECK(wireChanges < 10);
    CHECK(movedRowNotices <= 1);

    // A selection dragged, and the move undone, announce the nodes once per step, not once per node.
    revisions = movedRowNotices = 0;
    document.selection()->selectNodes({"b1", "b2", "b3"});
    document.beginMove();
    document.dragSelection(40, 40);
    CHECK(movedRowNotices == 1);
    document.endMove(0);
    movedRowNotices = 0;
    document.undo();
    CHECK(movedRowNotices == 1);
}
