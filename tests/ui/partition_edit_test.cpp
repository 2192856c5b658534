// Partitions in the editor (docs/scale-out.md): setting the selection's rank is one undo step that
// the saved file carries, the document lists the partitions in use for the canvas legend, and what
// mpirun would refuse about them is a warning.
#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QDir>

#include <filesystem>

#include "engine/graph/graph_file.h"
#include "ui/model/graph_document.h"

using namespace isochron;
using namespace isochron::ui;

namespace {

const QString kSample = QStringLiteral(ISOCHRON_SOURCE_DIR "/samples/scale-out-three-ranks.isograph.json");

std::optional<int> partitionOf(const GraphDocument& document, const std::string& id) {
    for (const NodeSpec& node : document.spec().nodes) {
        if (node.id == id) return node.partition;
    }
    FAIL("no node " << id);
    return std::nullopt;
}

// {partition: nodes} as GraphDocument::partitions lists them.
std::map<int, int> legend(const GraphDocument& document) {
    std::map<int, int> counts;
    for (const QVariant& row : document.partitions()) counts[row.toMap()["partition"].toInt()] = row.toMap()["nodes"].toInt();
    return counts;
}

}  // namespace

TEST_CASE("the selection's partition is one undo step, saved in the file and listed for the legend", "[ui][document][partition]") {
    GraphDocument document;
    REQUIRE(document.open(kSample));
    // As the sample has it: clicks on 0, four nodes on 1, four sinks on 2.
    CHECK(legend(document) == std::map<int, int>{{0, 1}, {1, 4}, {2, 4}});
    CHECK(document.nodes()->get("highpass")["partition"] == 1);

    document.selection()->selectNodes({"highpass", "onsets"});
    CHECK(document.setPartitionOfSelection(3).isEmpty());
    CHECK(partitionOf(document, "highpass") == 3);
    CHECK(partitionOf(document, "onsets") == 3);
    CHECK(document.undoText() == "Partition 3 for 2 nodes");
    CHECK(document.nodes()->get("onsets")["partition"] == 3);
    CHECK(legend(document) == std::map<int, int>{{0, 1}, {1, 2}, {2, 4}, {3, 2}});

    document.undo();
    CHECK(partitionOf(document, "highpass") == 1);
    CHECK(partitionOf(document, "onsets") == 1);
    document.redo();
    CHECK(partitionOf(document, "onsets") == 3);

    // None: the field goes, the node counts in rank 0.
    document.selection()->selectNodes({"clicks"});
    CHECK(document.setPartitionOfSelection(-1).isEmpty());
    CHECK(partitionOf(document, "clicks") == std::nullopt);
    CHECK(document.nodes()->get("clicks")["partition"] == -1);
    CHECK(document.undoText() == "No partition for clicks");
    CHECK(legend(document)[0] == 1);

    // Setting what a node already has adds no step; a rank out of range is refused and changes nothing.
    const QString before = document.undoText();
    CHECK(document.setPartitionOfSelection(-1).isEmpty());
    CHECK(document.undoText() == before);
    document.selection()->selectNodes({"level"});
    CHECK(document.setPartitionOfSelection(5000).contains("from 0 to 1023"));
    CHECK(partitionOf(document, "level") == 1);

    // Saved (to another folder: the history starts again there).
    const QString saved = QDir::temp().filePath("isochron-partition-edit.isograph.json");
    REQUIRE(document.saveAs(saved));
    const GraphSpec reread = loadGraphFile(saved.toStdString());
    CHECK(reread.findNode("highpass")->partition == 3);
    CHECK(reread.findNode("level")->partition == 1);
    CHECK(!reread.findNode("clicks")->partition);
    std::filesystem::remove(saved.toStdString());
}

TEST_CASE("a graph without partitions lists none, so the canvas shows no legend", "[ui][document][partition]") {
    GraphDocument document;
    REQUIRE(document.open(QStringLiteral(ISOCHRON_SOURCE_DIR "/samples/two-bands.isograph.json")));
    CHECK(document.partitions().isEmpty());
    CHECK(document.nodes()->get("low")["partition"] == -1);
}

TEST_CASE("partitions feeding each other in a cycle are a warning in the Problems tab, not a problem keeping F5 from running", "[ui][document][partition]") {
    // gen on rank 0 -> there on rank 1 -> back on rank 0 -> sink on rank 1: mpirun refuses it, the
    // status bar said "valid".
    GraphDocument document;
    document.addNode("generators.signal_generator", 0, 0);
    document.addNode("segments.pass_through", 240, 0);
    document.addNode("segments.pass_through", 480, 0);
    document.addNode("io.null_sink", 720, 0);
    REQUIRE(document.setParameter("signal_generator", "duration", 0.1).isEmpty());
    REQUIRE(document.connectPorts("signal_generator", "out", "pass_through", "in").isEmpty());
    REQUIRE(document.connectPorts("pass_through", "out", "pass_through_2", "in").isEmpty());
    REQUIRE(document.connectPorts("pass_through_2", "out", "null_sink", "in").isEmpty());
    document.selection()->selectNodes({"pass_through", "null_sink"});
    REQUIRE(document.setPartitionOfSelection(1).isEmpty());
    QCoreApplication::processEvents();

    REQUIRE(document.problems()->rowCount() == 1);
    const QModelIndex row = document.problems()->index(0);
    CHECK(row.data(ProblemListModel::SeverityRole) == "warning");
    CHECK(row.data(ProblemListModel::FieldRole) == "partition");
    const QString message = row.data(ProblemListModel::MessageRole).toString();
    CHECK(message.startsWith("on MPI ranks (mpirun) this is refused: partitions 0, 1 feed each other in a cycle"));
    CHECK(message.contains("put node 'pass_through_2' in partition 1"));  // the fix isochron-run --check names
    CHECK(document.problems()->warningCount() == 1);
    CHECK(document.valid());  // F5 runs the graph whole in one process, where partitions do not matter

    // Following the advice leaves a pipeline of partitions: no warning.
    document.selection()->selectNodes({"pass_through_2"});
    REQUIRE(document.setPartitionOfSelection(1).isEmpty());
    QCoreApplication::processEvents();
    CHECK(document.problems()->rowCount() == 0);
}
