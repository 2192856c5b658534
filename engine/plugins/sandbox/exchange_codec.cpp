#include "engine/plugins/sandbox/exchange_codec.h"

#include "engine/memory/shared_sample_arena.h"
#include "engine/plugins/abi_values.h"

namespace isochron::sandbox {

std::size_t sampleBytes(std::uint32_t sampleType, std::int64_t length) {
    const std::optional<SampleType> type = engineSampleType(sampleType);
    return type ? sampleSize(*type) * static_cast<std::size_t>(length < 0 ? 0 : length) : 0;
}

namespace {
enum TimebaseOnWire : std::uint32_t { kNoTimebase = 0, kFullTimebase = 1, kRepeatedTimebase = 2 };
}  // namespace

void putTimebase(ExchangeWriter& out, const isochron_timebase* timebase) {
    if (!timebase) return out.put(std::uint32_t{kNoTimebase});
    if (timebase == out.lastTimebase()) return out.put(std::uint32_t{kRepeatedTimebase});
    out.put(std::uint32_t{kFullTimebase});
    out.put(timebase->rate_hz);
    out.put(timebase->zero_time_ns);
    out.putText(timebase->clock);
    out.lastTimebase() = timebase;
}

const isochron_timebase* takeTimebase(ExchangeReader& in) {
    const auto form = in.get<std::uint32_t>();
    if (form == kNoTimebase) return nullptr;
    if (form == kRepeatedTimebase) {
        if (!in.lastTimebase()) throw std::out_of_range("a sandbox message repeats a timebase it never gave");
        return in.lastTimebase();
    }
    const auto rate = in.get<double>();
    const auto zero = in.get<std::int64_t>();
    const char* clock = in.text();
    // Item after item carries the same timebase: skip the interning tables' locks for it.
    thread_local const isochron_timebase* last = nullptr;
    if (!last || last->rate_hz != rate || last->zero_time_ns != zero || std::strcmp(last->clock, clock) != 0) {
        last = abiTimebase(Timebase::get(rate, zero, Clock::named(clock)));
    }
    in.lastTimebase() = last;
    return last;
}

void putItemHead(ExchangeWriter& out, const isochron_item& item) {
    out.put(item.kind);
    putTimebase(out, item.range.timebase);
    out.put(item.range.start);
    out.put(item.range.length);
    out.put(item.value);
    out.put(static_cast<std::uint32_t>(item.record != nullptr));
    if (item.record) {
        out.putText(item.record->label);
        out.put(item.record->field_count);
        for (std::uint32_t i = 0; i < item.record->field_count; ++i) {
            const isochron_field& field = item.record->fields[i];
            out.putText(field.name);
            out.put(field.type);
            out.put(field.number);
            out.putText(field.type == ISOCHRON_FIELD_TEXT ? field.text : "");
        }
    }
    out.put(static_cast<std::uint32_t>(item.segment != nullptr));
    if (item.segment) {
        out.put(item.segment->sample_type);
        out.put(item.segment->start_index);
        out.put(item.segment->length);
        putTimebase(out, item.segment->timebase);
    }
}

void putInlineSamples(ExchangeWriter& out, const isochron_segment& segment) {
    out.put(SamplesAt::Inline);
    const std::size_t bytes = sampleBytes(segment.sample_type, segment.length);
    std::byte* at = out.reserve(bytes, kSampleAlignment);
    if (bytes > 0) std::memcpy(at, segment.samples, bytes);
}

void putArenaOrInlineSamples(ExchangeWriter& out, const isochron_segment& segment, const SharedSampleArena* arena) {
    const std::size_t bytes = sampleBytes(segment.sample_type, segment.length);
    if (!arena || bytes == 0 || !arena->contains(segment.samples, bytes)) return putInlineSamples(out, segment);
    out.put(SamplesAt::Arena);
    out.put(arena->offsetOf(segment.samples));
}

void takeItem(ExchangeReader& in, WireItem& wire) {
    wire.item = {};
    wire.item.kind = in.get<std::uint32_t>();
    wire.item.range.timebase = takeTimebase(in);
    wire.item.range.start = in.get<std::int64_t>();
    wire.item.range.length = in.get<std::int64_t>();
    wire.item.value = in.get<double>();
    if (in.get<std::uint32_t>()) {
        const char* label = in.text();
        const auto count = in.get<std::uint32_t>();
        if (count > ISOCHRON_MAX_CUSTOM_FIELDS) throw std::out_of_range("a sandbox message holds a record with too many fields");
        wire.fields.clear();
        for (std::uint32_t i = 0; i < count; ++i) {
            isochron_field field{};
            field.name = in.text();
            field.type = in.get<std::uint32_t>();
            field.number = in.get<double>();
            field.text = in.text();
            wire.fields.push_back(field);
        }
        wire.record = {label, count, wire.fields.data()};
        wire.item.record = &wire.record;
    }
    if (in.get<std::uint32_t>()) {
        wire.segment = {};
        wire.segment.sample_type = in.get<std::uint32_t>();
        wire.segment.start_index = in.get<std::int64_t>();
        wire.segment.length = in.get<std::int64_t>();
        wire.segment.timebase = takeTimebase(in);
        wire.samplesAt = in.get<SamplesAt>();
        if (wire.samplesAt == SamplesAt::Inline) {
            wire.segment.samples = const_cast<std::byte*>(in.take(sampleBytes(wire.segment.sample_type, wire.segment.length), kSampleAlignment));
        } else if (wire.samplesAt == SamplesAt::Responses || wire.samplesAt == SamplesAt::Arena) {
            wire.offset = in.get<std::uint64_t>();
        }
        wire.item.segment = &wire.segment;
    }
}

}  // namespace isochron::sandbox
