// Items: what the host hands to process() and what an operator emits. An Item is either a view
// of a host item (valid until the hook returns) or one the operator builds to emit, holding its
// segment, record and up to ISOCHRON_MAX_CUSTOM_FIELDS fields inline, so emitting never allocates.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "isochron/cpp/segment.hpp"

namespace isochron::sdk {

/// The kinds of item, as in isochron_item_kind.
enum class ItemKind : std::uint32_t {
    Signal = ISOCHRON_ITEM_SIGNAL,
    Frame = ISOCHRON_ITEM_FRAME,
    Scalar = ISOCHRON_ITEM_SCALAR,
    TimeRange = ISOCHRON_ITEM_TIME_RANGE,
    Event = ISOCHRON_ITEM_EVENT,
    Custom = ISOCHRON_ITEM_CUSTOM,
};

/// One named value for an event or custom item: a number, or (custom items only) a text. Names
/// and texts must outlive the emit call; the host copies them. [value type]
struct Field {
    Field(const char* name, double number) : raw{name, ISOCHRON_FIELD_NUMBER, number, nullptr} {}
    Field(const char* name, const char* text) : raw{name, ISOCHRON_FIELD_TEXT, 0.0, text} {}
    isochron_field raw;
};

/// The label (event) or type name (custom item) and fields of an item. [view, valid with its item]
class Record {
public:
    explicit Record(const isochron_record* raw) : raw_(raw) {}

    std::string_view label() const { return raw_->label ? raw_->label : ""; }
    std::uint32_t size() const { return raw_->field_count; }
    const isochron_field& operator[](std::uint32_t i) const { return raw_->fields[i]; }
    const isochron_field* begin() const { return raw_->fields; }
    const isochron_field* end() const { return raw_->fields + raw_->field_count; }
    /// The number field `name`, if there is one. [no allocation]
    std::optional<double> number(std::string_view name) const {
        for (const isochron_field& field : *this) {
            if (field.type == ISOCHRON_FIELD_NUMBER && name == field.name) return field.number;
        }
        return std::nullopt;
    }
    /// The text field `name`, if there is one. [no allocation]
    std::optional<std::string_view> text(std::string_view name) const {
        for (const isochron_field& field : *this) {
            if (field.type == ISOCHRON_FIELD_TEXT && name == field.name) return std::string_view(field.text ? field.text : "");
        }
        return std::nullopt;
    }

private:
    const isochron_record* raw_;
};

/// A value on an edge. [value type; no allocation]
class Item {
public:
    /// A view of an item the host handed in (raw() then gives the host's own struct back, so the
    /// host knows the item when it is forwarded).
    /// A view reads the host's struct where it is (no copy: the host has just written it, and
    /// reading a fresh copy of it back costs more than the pointer).
    explicit Item(const isochron_item& raw) : raw_(&raw) {}
    Item(const Item& other) { *this = other; }
    Item& operator=(const Item& other) {
        if (other.raw_ != &other.own_) {  // a view: the copy views the same host item
            raw_ = other.raw_;
            return *this;
        }
        // An item built here points at its own storage: the copy points at the copy's.
        own_ = other.own_;
        raw_ = &own_;
        if (other.own_.segment == &other.segment_) {
            segment_ = other.segment_;
            own_.segment = &segment_;
        }
        if (other.own_.record == &other.record_) {
            record_ = other.record_;
            std::copy_n(other.fields_.begin(), other.record_.field_count, fields_.begin());
            own_.record = &record_;
            record_.fields = fields_.data();
        }
        return *this;
    }

    /// One number describing `covered`.
    static Item scalar(double value, Range covered) { return Item(ISOCHRON_ITEM_SCALAR, covered, value); }
    /// A range of interest.
    static Item timeRange(Range range) { return Item(ISOCHRON_ITEM_TIME_RANGE, range, 0.0); }
    /// A signal: the segment's samples (shared, not copied, when the host made the segment).
    template <class T> static Item signal(const Segment<T>& samples) {
        Item item(ISOCHRON_ITEM_SIGNAL, samples.range(), 0.0);
        item.segment_ = samples.raw();
        item.own_.segment = &item.segment_;
        return item;
    }
    /// A frame: values (e.g. spectrum bins) computed from the samples `covered`.
    template <class T> static Item frame(const Segment<T>& values, Range covered) {
        Item item(ISOCHRON_ITEM_FRAME, covered, 0.0);
        item.segment_ = values.raw();
        item.own_.segment = &item.segment_;
        return item;
    }
    /// An event over `range` with a label, a score and numeric fields (at most
    /// ISOCHRON_MAX_EVENT_FIELDS; the host refuses more).
    static Item event(const char* label, double score, Range range, std::initializer_list<Field> fields = {}) {
        return Item(ISOCHRON_ITEM_EVENT, range, score, label, fields);
    }
    /// A custom item of the declared type `typeName` (the output port's "custom<typeName>").
    static Item custom(const char* typeName, double value, Range range, std::initializer_list<Field> fields = {}) {
        return Item(ISOCHRON_ITEM_CUSTOM, range, value, typeName, fields);
    }

    ItemKind kind() const { return static_cast<ItemKind>(raw_->kind); }
    /// The samples the item is about (a signal's own range).
    Range range() const { return Range::of(raw_->range); }
    /// Scalar value, event score or custom item value.
    double value() const { return raw_->value; }
    /// The samples of a signal or values of a frame; throws Error for another kind or type.
    template <class T> Segment<T> signal() const {
        if (!raw_->segment) throw Error("the item carries no samples (it is not a signal or a frame)");
        return Segment<T>(*raw_->segment);
    }
    /// The label or type name and fields of an event or custom item; throws Error for other kinds.
    Record record() const {
        if (!raw_->record) throw Error("the item carries no record (it is not an event or a custom item)");
        return Record(raw_->record);
    }

    const isochron_item& raw() const { return *raw_; }

private:
    Item(std::uint32_t kind, Range range, double value) : raw_(&own_), own_{} {
        own_.kind = kind;
        own_.range = range.raw();
        own_.value = value;
    }
    Item(std::uint32_t kind, Range range, double value, const char* label, std::initializer_list<Field> fields) : Item(kind, range, value) {
        if (fields.size() > fields_.size()) throw Error("an item holds at most " + std::to_string(fields_.size()) + " fields");
        std::uint32_t count = 0;
        for (const Field& field : fields) fields_[count++] = field.raw;
        record_ = {label, count, fields_.data()};
        own_.record = &record_;
    }

    const isochron_item* raw_;  // the host's item this one views, or own_ for one built here
    // What an item built here holds; a view of a host item never touches them, so they stay
    // uninitialized (a view is made for every item a hook gets).
    isochron_item own_;
    isochron_segment segment_;
    isochron_record record_;
    std::array<isochron_field, ISOCHRON_MAX_CUSTOM_FIELDS> fields_;
};

}  // namespace isochron::sdk
