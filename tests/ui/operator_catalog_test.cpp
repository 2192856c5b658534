// The palette lists every registered operator by category and filters as the user types.
#include <catch2/catch.hpp>

#include "nodes/register_builtin_nodes.h"
#include "ui/model/operator_catalog.h"

using namespace isochron;
using namespace isochron::ui;

TEST_CASE("the palette lists every registered operator, grouped by category", "[ui][palette]") {
    OperatorCatalog catalog;
    REQUIRE(catalog.rowCount() == static_cast<int>(builtinRegistry().all().size()));
    QString previous;
    for (int row = 0; row < catalog.rowCount(); ++row) {
        const QString category = catalog.index(row).data(OperatorCatalog::CategoryRole).toString();
        CHECK(category >= previous);
        previous = category;
        CHECK_FALSE(catalog.index(row).data(OperatorCatalog::SummaryRole).toString().isEmpty());
    }
}

TEST_CASE("search matches every word against name, category and summary", "[ui][palette]") {
    OperatorCatalog catalog;
    catalog.setFilter("fft");
    REQUIRE(catalog.rowCount() >= 1);
    bool foundFft = false;
    for (int row = 0; row < catalog.rowCount(); ++row) foundFft |= catalog.typeAt(row) == "spectral.fft";
    CHECK(foundFft);
    catalog.setFilter("silence detector");
    REQUIRE(catalog.rowCount() == 1);
    CHECK(catalog.typeAt(0) == "detect.silence_detector");
    catalog.setFilter("SPECTRAL");
    for (int row = 0; row < catalog.rowCount(); ++row) CHECK(catalog.index(row).data(OperatorCatalog::CategoryRole) == "spectral");
    catalog.setFilter("zzzz-nothing");
    CHECK(catalog.rowCount() == 0);
    CHECK(catalog.typeAt(0).isEmpty());
}
