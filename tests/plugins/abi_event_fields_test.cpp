// An event a plugin emits must name every field, each once: a repeated name would keep one of the
// values without a word (events are maps, and so are their JSON lines).
#include <catch2/catch.hpp>

#include "engine/plugins/abi_items.h"
#include "engine/plugins/abi_values.h"

using namespace isochron;
using Catch::Matchers::Contains;

namespace {

Item emitEvent(const char* label, std::vector<isochron_field> fields) {
    const isochron_record record{label, static_cast<std::uint32_t>(fields.size()), fields.data()};
    isochron_item item{};
    item.kind = ISOCHRON_ITEM_EVENT;
    item.range = {abiTimebase(Timebase::get(8000)), 0, 10};
    item.record = &record;
    ResolvedPort port;
    port.name = "out";
    port.type = PortType::parse("event").value();
    return engineItemFromAbi(item, port);
}

isochron_field number(const char* name, double value) { return {name, ISOCHRON_FIELD_NUMBER, value, nullptr}; }

}  // namespace

TEST_CASE("an event with distinct field names is taken with every field", "[plugins][events]") {
    const Item event = emitEvent("onset", {number("a", 1), number("b", 2)});
    CHECK(event.kind() == ItemKind::Event);
}

TEST_CASE("an event that gives a field name twice is refused, naming the event and the field", "[plugins][events]") {
    CHECK_THROWS_WITH(emitEvent("onset", {number("a", 1), number("b", 2), number("a", 3)}),
                      Contains("event 'onset': field 'a' is given twice"));
}

TEST_CASE("an event with a field without a name, or without a label, is refused", "[plugins][events]") {
    CHECK_THROWS_WITH(emitEvent("onset", {number("a", 1), number("", 2)}), Contains("event 'onset': field #1 has no name"));
    CHECK_THROWS_WITH(emitEvent("", {number("a", 1)}), Contains("an event needs a label"));
}
