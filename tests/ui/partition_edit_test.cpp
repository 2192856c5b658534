// Partitions in the editor (docs/scale-out.md): setting the selection's rank is one undo step that
// the saved file carries, and the document lists the partitions in use for the canvas legend.
#include <catch2/catch.hpp>

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
