// The canvas makes items only for the nodes near its view: on a chain of 1 000 nodes a window's view
// keeps a few dozen rows of the node model (each row is a node item of a dozen objects and more),
// a pan of a few pixels does not filter again, a pan away does, and a selected node off the view
// keeps its item (it may be being dragged).
#include <catch2/catch.hpp>

#include <QFile>
#include <QTemporaryDir>

#include "ui/canvas/viewport_filter.h"
#include "ui/model/graph_document.h"
#include "ui/model/selection.h"

using namespace isochron::ui;

namespace {

QString writeChain(const QTemporaryDir& folder, int length) {
    std::string json = R"({"format": "isochron-graph/1", "nodes": [{"id": "gen", "type": "generators.signal_generator", "params": {}})";
    std::string edges;
    for (int n = 0; n < length; ++n) {
        json += R"(, {"id": "b)" + std::to_string(n) + R"(", "type": "workload.universal_box", "params": {}})";
        edges += (n ? ", " : "") + std::string(R"({"from": ")") + (n ? "b" + std::to_string(n - 1) : std::string("gen")) + R"(.out", "to": "b)" +
                 std::to_string(n) + R"(.in0"})";
    }
    json += R"(], "edges": [)" + edges + "]}";
    const QString path = folder.filePath("chain.isograph.json");
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(QByteArray::fromStdString(json));
    return path;
}

QStringList rowsOf(const ViewportFilter& filter) {
    QStringList ids;
    for (int row = 0; row < filter.rowCount(); ++row) ids.append(filter.index(row, 0).data(NodeListModel::IdRole).toString());
    return ids;
}

}  // namespace

TEST_CASE("of a 1 000-node chain, the canvas keeps the rows of the nodes near its view only", "[ui][canvas][models]") {
    QTemporaryDir folder;
    REQUIRE(folder.isValid());
    GraphDocument document;
    REQUIRE(document.open(writeChain(folder, 1000)));
    NodeListModel& nodes = *document.nodes();
    REQUIRE(nodes.rowCount() == 1001);

    ViewportFilter filter;
    filter.setSourceModel(&nodes);
    CHECK(filter.rowCount() == 1001);  // no view yet: every node
    // A 1 920 x 1 080 window at 80 % (the zoom a large graph opens at) on the graph's first node.
    const QVariantMap first = nodes.get("gen");
    const QRectF view(first["posX"].toDouble() - 60, first["posY"].toDouble() - 60, 1920 / 0.8, 1080 / 0.8);
    filter.setView(view);
    const QStringList shown = rowsOf(filter);
    INFO(shown.size() << " of 1 001 nodes kept");
    CHECK(shown.contains("gen"));
    CHECK(shown.size() < 100);
    for (const QString& id : shown) {
        const QVariantMap node = nodes.get(id);
        CHECK(filter.area().intersects(QRectF(node["posX"].toDouble(), node["posY"].toDouble(), node["boxWidth"].toDouble(), node["boxHeight"].toDouble())));
    }
    CHECK(filter.refilters() == 1);

    // A pan of a few pixels (as a drag gives, every frame) keeps the rows without filtering again.
    for (int step = 1; step <= 50; ++step) filter.setView(view.translated(step * 2, step));
    CHECK(filter.refilters() == 1);
    CHECK(rowsOf(filter) == shown);

    // A pan to the other end of the chain: those nodes instead.
    const QVariantMap last = nodes.get("b999");
    filter.setView(QRectF(last["posX"].toDouble() - 600, last["posY"].toDouble() - 600, 1920 / 0.8, 1080 / 0.8));
    CHECK(filter.refilters() == 2);
    CHECK(rowsOf(filter).contains("b999"));
    CHECK_FALSE(rowsOf(filter).contains("gen"));
    CHECK(filter.rowCount() < 100);

    // A selected node far from the view keeps its row.
    document.selection()->selectNode("gen");
    CHECK(rowsOf(filter).contains("gen"));
    document.selection()->clear();
    CHECK_FALSE(rowsOf(filter).contains("gen"));
}
