#include "engine/plugins/abi_items.h"

#include <cstring>
#include <stdexcept>

#include "engine/plugins/record_payload.h"

namespace isochron {
namespace {

// Collects a foreign payload's fields, copying the texts (the visitor's views end with each call).
class FieldCollector final : public CustomFieldVisitor {
public:
    FieldCollector(std::vector<isochron_field>& fields, std::vector<std::string>& texts) : fields_(fields), texts_(texts) {}
    void number(std::string_view name, double value) override {
        if (fields_.size() < ISOCHRON_MAX_CUSTOM_FIELDS) fields_.push_back({keep(name), ISOCHRON_FIELD_NUMBER, value, nullptr});
    }
    void text(std::string_view name, std::string_view value) override {
        if (fields_.size() < ISOCHRON_MAX_CUSTOM_FIELDS) fields_.push_back({keep(name), ISOCHRON_FIELD_TEXT, 0.0, keep(value)});
    }

private:
    const char* keep(std::string_view text) {
        std::string& slot = texts_.emplace_back(text);
        return slot.c_str();
    }
    std::vector<isochron_field>& fields_;
    std::vector<std::string>& texts_;
};

template <class T> SegmentHandle typedCopy(const isochron_segment& segment, const Timebase* timebase) {
    const auto* samples = static_cast<const T*>(segment.samples);
    return SigSeg<T>::copyOf(std::span<const T>(samples, static_cast<std::size_t>(segment.length)), segment.start_index, timebase);
}

template <class T> SegmentHandle subsegTyped(const SegmentHandle& whole, std::int64_t startIndex, std::int64_t length) {
    return SigSeg<T>::fromHandle(whole).subseg(startIndex, length);
}

template <class T> const void* typedMaterialize(const SegmentHandle& segment) {
    return SigSeg<T>::fromHandle(segment).materialize().data();
}

const Timebase* timebaseOf(const isochron_timebase* timebase, const char* what) {
    if (!timebase) return nullptr;
    if (!isEngineTimebase(timebase)) throw std::invalid_argument(std::string(what) + " has a timebase the host did not make (use get_timebase)");
    return &engineTimebase(*timebase);
}

// The SegmentHandle for an emitted segment: its handle's samples, or a pooled copy of plugin memory.
SegmentHandle segmentFromAbi(const isochron_segment& segment, SampleType expected) {
    const std::optional<SampleType> type = engineSampleType(segment.sample_type);
    if (!type) throw std::invalid_argument("sample type " + std::to_string(segment.sample_type) + " is not one the ABI defines");
    if (*type != expected) {
        throw std::invalid_argument(std::string("the segment holds ") + std::string(sampleTypeName(*type)) + " samples, the port carries " +
                                    std::string(sampleTypeName(expected)));
    }
    if (segment.length < 0) throw std::invalid_argument("the segment's length is negative");
    const Timebase* timebase = timebaseOf(segment.timebase, "the segment");
    if (segment.handle) {
        const auto& shared = *static_cast<const SegmentHandle*>(segment.handle);
        if (shared.startIndex() == segment.start_index && shared.length() == segment.length) return shared;
        throw std::invalid_argument("the segment's start or length was changed after the host made it (use subsegment)");
    }
    if (segment.length > 0 && !segment.samples) throw std::invalid_argument("the segment has no samples");
    switch (*type) {
        case SampleType::Float32: return typedCopy<float>(segment, timebase);
        case SampleType::Float64: return typedCopy<double>(segment, timebase);
        case SampleType::Int16: return typedCopy<std::int16_t>(segment, timebase);
        case SampleType::ComplexFloat32: return typedCopy<std::complex<float>>(segment, timebase);
        case SampleType::None: break;
    }
    throw std::invalid_argument("the segment has no sample type");
}

template <class T> Item typedSignal(SegmentHandle handle, bool frame, SampleRange covered) {
    SigSeg<T> samples = SigSeg<T>::fromHandle(std::move(handle));
    return frame ? Item::frame(std::move(samples), covered) : Item::signal(std::move(samples));
}

Item samplesItem(SegmentHandle handle, bool frame, SampleRange covered) {
    switch (handle.sampleType()) {
        case SampleType::Float32: return typedSignal<float>(std::move(handle), frame, covered);
        case SampleType::Float64: return typedSignal<double>(std::move(handle), frame, covered);
        case SampleType::Int16: return typedSignal<std::int16_t>(std::move(handle), frame, covered);
        case SampleType::ComplexFloat32: return typedSignal<std::complex<float>>(std::move(handle), frame, covered);
        case SampleType::None: break;
    }
    return typedSignal<float>(std::move(handle), frame, covered);  // an empty segment: any element type will do
}

}  // namespace

SegmentHandle shareSubsegment(const SegmentHandle& whole, std::int64_t startIndex, std::int64_t length) {
    switch (whole.sampleType()) {
        case SampleType::Float32: return subsegTyped<float>(whole, startIndex, length);
        case SampleType::Float64: return subsegTyped<double>(whole, startIndex, length);
        case SampleType::Int16: return subsegTyped<std::int16_t>(whole, startIndex, length);
        case SampleType::ComplexFloat32: return subsegTyped<std::complex<float>>(whole, startIndex, length);
        case SampleType::None: break;
    }
    return {};
}

void AbiItemView::reserve() {
    fields_.reserve(ISOCHRON_MAX_CUSTOM_FIELDS);
    texts_.reserve(2 * ISOCHRON_MAX_CUSTOM_FIELDS);
}

constinit __attribute__((tls_model("initial-exec"))) thread_local AbiItemView::HandedOver AbiItemView::handedOver;

const isochron_item& AbiItemView::viewSlowly(const Item& item) {
    if (item.kind() == ItemKind::Signal) {  // the common case: a signal's range is its segment's
        viewSamples(item.segment());
        item_ = {ISOCHRON_ITEM_SIGNAL, {segment_.timebase, segment_.start_index, segment_.length}, 0.0, &segment_, nullptr};
        return item_;
    }
    const SampleRange range = item.range();
    item_ = {abiItemKind(item.kind()), {timebases_(range.timebase), range.start, range.length}, item.value(), nullptr, nullptr};
    switch (item.kind()) {
        case ItemKind::Signal:
        case ItemKind::Frame: viewSamples(item.segment()); break;
        case ItemKind::Event: viewEvent(*item.event()); break;
        case ItemKind::Custom: viewCustom(*item.custom()); break;
        case ItemKind::Scalar:
        case ItemKind::TimeRange:
        case ItemKind::Progress: break;
    }
    return item_;
}

void AbiItemView::viewSamples(const SegmentHandle& segment) {
    const void* samples = nullptr;
    int runs = 0;
    segment.forEachRun([&](const std::byte* data, std::int64_t) {
        if (runs++ == 0) samples = data;
    });
    if (runs > 1) {  // several pieces: made contiguous once, cached with the storage
        switch (segment.sampleType()) {
            case SampleType::Float32: samples = typedMaterialize<float>(segment); break;
            case SampleType::Float64: samples = typedMaterialize<double>(segment); break;
            case SampleType::Int16: samples = typedMaterialize<std::int16_t>(segment); break;
            case SampleType::ComplexFloat32: samples = typedMaterialize<std::complex<float>>(segment); break;
            case SampleType::None: break;
        }
    }
    segment_ = {abiSampleType(segment.sampleType()), segment.startIndex(), segment.length(), timebases_(segment.timebase()),
                const_cast<void*>(samples), &segment};  // the plugin may not write through it: the ABI says so
    item_.segment = &segment_;
}

void AbiItemView::viewEvent(const EventRecord& record) {
    fields_.clear();
    for (const EventAttribute& attribute : record.attributes()) fields_.push_back({attribute.name, ISOCHRON_FIELD_NUMBER, attribute.value, nullptr});
    record_ = {record.label(), static_cast<std::uint32_t>(fields_.size()), fields_.data()};
    item_.record = &record_;
}

void AbiItemView::viewCustom(const CustomPayload& payload) {
    if (const auto* own = dynamic_cast<const RecordPayload*>(&payload)) {
        item_.record = &own->record();
        return;
    }
    fields_.clear();
    texts_.clear();
    FieldCollector collector(fields_, texts_);
    payload.visitFields(collector);
    texts_.emplace_back(payload.typeName());
    record_ = {texts_.back().c_str(), static_cast<std::uint32_t>(fields_.size()), fields_.data()};
    item_.record = &record_;
}

void checkFits(ItemKind kind, SampleType sampleType, const ResolvedPort& port) {
    const bool kindFits = !port.type.kind || *port.type.kind == kind;
    const bool samplesFit = !port.type.sampleType || sampleType == SampleType::None || *port.type.sampleType == sampleType;
    if (!kindFits || !samplesFit) {
        throw std::invalid_argument("a " + std::string(itemKindName(kind)) + " item does not fit output '" + port.name + "' (" + port.type.toString() + ")");
    }
}

std::vector<std::uint8_t> alwaysFitsTable(const std::vector<ResolvedPort>& inputs, const std::vector<ResolvedPort>& outputs) {
    std::vector<std::uint8_t> fits(inputs.size() * outputs.size(), 0);
    for (std::size_t in = 0; in < inputs.size(); ++in) {
        const PortType& arriving = inputs[in].type;
        const bool carriesSamples = arriving.kind == ItemKind::Signal || arriving.kind == ItemKind::Frame;
        if (!arriving.kind || (carriesSamples && !arriving.sampleType)) continue;  // only each item can tell
        for (std::size_t out = 0; out < outputs.size(); ++out) {
            try {
                checkFits(*arriving.kind, arriving.sampleType.value_or(SampleType::None), outputs[out]);
                fits[in * outputs.size() + out] = 1;
            } catch (const std::invalid_argument&) {
                // left 0: the items are checked one by one, and a mismatch is named then
            }
        }
    }
    return fits;
}

namespace {

// Every field of an event named, and each name once: a repeated name would silently keep one
// value (an event's fields are a map, and so is each JSON line written of it).
void checkEventFieldNames(const isochron_record& record) {
    for (std::uint32_t i = 0; i < record.field_count; ++i) {
        const char* name = record.fields[i].name;
        if (!name || name[0] == '\0') {
            throw std::invalid_argument("event '" + std::string(record.label) + "': field #" + std::to_string(i) + " has no name (name every field)");
        }
        for (std::uint32_t earlier = 0; earlier < i; ++earlier) {
            if (std::strcmp(record.fields[earlier].name, name) == 0) {
                throw std::invalid_argument("event '" + std::string(record.label) + "': field '" + name +
                                            "' is given twice (give each field once: only one value would be kept)");
            }
        }
    }
}

}  // namespace

Item engineItemFromAbi(const isochron_item& item, const ResolvedPort& port) {
    const std::optional<ItemKind> kind = engineItemKind(item.kind);
    if (!kind) throw std::invalid_argument("item kind " + std::to_string(item.kind) + " is not one the ABI defines");
    if (port.type.kind && *port.type.kind != *kind) {
        throw std::invalid_argument("a " + std::string(itemKindName(*kind)) + " item does not fit output '" + port.name + "' (" + port.type.toString() + ")");
    }
    if (*kind == ItemKind::Signal && item.segment && item.segment->handle) {
        // The common case first: samples the host made, sent on (shared, not copied).
        const auto& shared = *static_cast<const SegmentHandle*>(item.segment->handle);
        if (shared.startIndex() == item.segment->start_index && shared.length() == item.segment->length &&
            (!port.type.sampleType || *port.type.sampleType == shared.sampleType() || shared.empty())) {
            return samplesItem(shared, false, {});
        }
    }
    const SampleRange range{timebaseOf(item.range.timebase, "the item's range"), item.range.start, item.range.length};
    auto needRecord = [&] {
        if (!item.record || !item.record->label) throw std::invalid_argument(std::string("a ") + std::string(itemKindName(*kind)) + " item needs a record with a label");
        if (item.record->field_count > 0 && !item.record->fields) throw std::invalid_argument("the record lists fields but gives none");
        return *item.record;
    };
    switch (*kind) {
        case ItemKind::Signal:
        case ItemKind::Frame: {
            if (!item.segment) throw std::invalid_argument(std::string("a ") + std::string(itemKindName(*kind)) + " item needs a segment");
            const SampleType expected = port.type.sampleType.value_or(engineSampleType(item.segment->sample_type).value_or(SampleType::None));
            return samplesItem(segmentFromAbi(*item.segment, expected), *kind == ItemKind::Frame, range);
        }
        case ItemKind::Scalar: return Item::scalar(item.value, range);
        case ItemKind::TimeRange: return Item::timeRange(range);
        case ItemKind::Event: {
            const isochron_record& record = needRecord();
            if (record.field_count > ISOCHRON_MAX_EVENT_FIELDS) {
                throw std::invalid_argument("an event has " + std::to_string(record.field_count) + " fields, more than the " +
                                            std::to_string(ISOCHRON_MAX_EVENT_FIELDS) + " allowed");
            }
            if (record.label[0] == '\0') throw std::invalid_argument("an event needs a label (it names what happened)");
            checkEventFieldNames(record);
            EventRecord* event = EventRecord::create(record.label);
            for (std::uint32_t i = 0; i < record.field_count; ++i) {
                const isochron_field& field = record.fields[i];
                if (field.type != ISOCHRON_FIELD_NUMBER) {
                    event->release();
                    throw std::invalid_argument(std::string("event field '") + field.name + "': events carry named numbers only");
                }
                event->set(field.name, field.number);
            }
            return Item::event(event, range, item.value);
        }
        case ItemKind::Custom: {
            const isochron_record& record = needRecord();
            const char* type = port.type.customType;
            if (!type || std::strcmp(type, record.label) != 0) {
                throw std::invalid_argument(std::string("a custom<") + record.label + "> item does not fit output '" + port.name + "' (" + port.type.toString() + ")");
            }
            return Item::custom(RecordPayload::create(type, record), range, item.value);
        }
        case ItemKind::Progress: break;
    }
    throw std::invalid_argument("progress is not an item (use emit_progress)");
}

}  // namespace isochron
