// Custom items: payloads are shared by reference and destroyed with their last item; ports typed
// custom<name> accept only that name; the registry counts its changes.
#include <catch2/catch.hpp>

#include "engine/items/item.h"
#include "engine/operators/port_type.h"
#include "engine/operators/registry.h"
#include "engine/operators/operator.h"

using namespace isochron;

namespace {

int liveNotes = 0;

// A payload that counts its instances.
class Note final : public CustomPayload {
public:
    explicit Note(double pitch) : pitch(pitch) { ++liveNotes; }
    ~Note() override { --liveNotes; }
    std::string_view typeName() const noexcept override { return "test.note"; }
    void visitFields(CustomFieldVisitor& visitor) const override {
        visitor.number("pitch", pitch);
        visitor.text("name", "la");
    }
    const double pitch;
};

class Other final : public CustomPayload {
public:
    std::string_view typeName() const noexcept override { return "test.other"; }
    void visitFields(CustomFieldVisitor&) const override {}
};

}  // namespace

TEST_CASE("custom payloads live as long as an item refers to them", "[items][custom]") {
    const Timebase& timebase = Timebase::get(1000);
    {
        Item first = Item::custom(new Note(440), SampleRange{&timebase, 10, 5}, 0.5);
        CHECK(liveNotes == 1);
        CHECK(first.kind() == ItemKind::Custom);
        CHECK(first.value() == 0.5);
        CHECK(first.range() == SampleRange{&timebase, 10, 5});
        CHECK(first.event() == nullptr);
        REQUIRE(first.customAs<Note>() != nullptr);
        CHECK(first.customAs<Note>()->pitch == 440);
        CHECK(first.customAs<Other>() == nullptr);
        Item copy = first;
        Item assigned = Item::scalar(1, SampleRange{});
        assigned = copy;
        Item moved = std::move(first);
        CHECK(first.custom() == nullptr);
        CHECK(moved.custom() == copy.custom());
        CHECK(liveNotes == 1);
        copy = Item::scalar(2, SampleRange{});
        assigned = Item::custom(new Note(220), SampleRange{&timebase, 0, 1});
        CHECK(liveNotes == 2);
    }
    CHECK(liveNotes == 0);
    // Events still hold their records in the shared slot.
    EventRecord* record = EventRecord::create("bang");
    Item event = Item::event(record, SampleRange{&timebase, 0, 1}, 1.0);
    Item eventCopy = event;
    CHECK(eventCopy.event() == record);
    CHECK(eventCopy.custom() == nullptr);
}

TEST_CASE("custom port types: spelled custom<name>, matched by name", "[items][custom]") {
    const auto note = PortType::parse("custom<test.note>");
    REQUIRE(note);
    CHECK(*note == PortType::custom("test.note"));
    CHECK(note->isConcrete());
    CHECK(note->toString() == "custom<test.note>");
    CHECK_FALSE(note->carriesSamples());
    const auto anyCustom = PortType::parse("custom");
    REQUIRE(anyCustom);
    CHECK(*anyCustom == PortType::anyCustom());
    CHECK_FALSE(anyCustom->isConcrete());
    CHECK(PortType::parse("custom<any>") == PortType::anyCustom());
    CHECK(anyCustom->toString() == "custom<any>");

    CHECK(note->accepts(PortType::custom("test.note")));
    CHECK_FALSE(note->accepts(PortType::custom("test.other")));
    CHECK_FALSE(note->accepts(PortType::scalar()));
    CHECK(anyCustom->accepts(PortType::custom("test.other")));
    CHECK_FALSE(anyCustom->accepts(PortType::event()));
    CHECK(PortType::any().accepts(*note));
    CHECK_FALSE(PortType::scalar().accepts(*note));

    CHECK_FALSE(PortType::parse("custom<has space>"));
    CHECK_FALSE(PortType::parse("custom<a<b>"));
    CHECK_FALSE(PortType::parse("custom<>"));
}

TEST_CASE("the registry's generation rises with every change", "[registry]") {
    OperatorRegistry registry;
    const std::uint64_t start = registry.generation();
    OperatorDescriptor d;
    d.typeName = "test.nothing";
    d.category = "test";
    d.create = [] { return std::unique_ptr<Operator>(); };
    registry.add(d);
    CHECK(registry.generation() == start + 1);
    CHECK_THROWS(registry.add(d));
    CHECK(registry.generation() == start + 1);
    CHECK(registry.remove("test.nothing"));
    CHECK_FALSE(registry.remove("test.nothing"));
    CHECK(registry.generation() == start + 2);
}
