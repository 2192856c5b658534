#include "distributed/wire_format.h"

#include <complex>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace isochron::distributed {
namespace {

constexpr std::uint32_t kMagic = 0x32534943;  // "CIS2": version 2, samples in a message of their own

/// A timebase by value: rate, zero time and the length of its clock's name (0 = no timebase).
struct TimebaseWire {
    double rateHz = 0;
    std::int64_t zeroTimeNs = 0;
    std::uint32_t clockNameLength = 0;
    std::uint32_t present = 0;
};

/// The fixed part of every message; names follow it.
struct Header {
    std::uint32_t magic = kMagic;
    MessageKind kind = MessageKind::End;
    ItemKind itemKind = ItemKind::Progress;
    SampleType sampleType = SampleType::None;
    std::uint8_t unused = 0;
    std::int64_t word = 0;  // progress time, or a scalar's value / an event's score as double bits
    std::int64_t arrivalNs = 0;
    TimebaseWire segmentTimebase;
    std::int64_t segmentStart = 0, segmentLength = 0;
    TimebaseWire rangeTimebase;
    std::int64_t rangeStart = 0, rangeLength = 0;
    std::uint32_t labelLength = 0, attributeCount = 0;
    std::uint32_t namesBytes = 0, padding = 0;
};

TimebaseWire wireOf(const Timebase* timebase) {
    if (!timebase) return {};
    return {timebase->rateHz(), timebase->zeroTimeNs(), static_cast<std::uint32_t>(timebase->clock().name().size()), 1};
}

void appendBytes(std::vector<std::byte>& out, const void* data, std::size_t size) {
    const std::size_t at = out.size();
    out.resize(at + size);
    if (size > 0) std::memcpy(out.data() + at, data, size);
}

void appendName(std::vector<std::byte>& out, std::string_view name) { appendBytes(out, name.data(), name.size()); }

/// Reads the names area in order; throws on reading past it.
class NameReader {
public:
    explicit NameReader(std::span<const std::byte> area) : area_(area) {}
    std::string_view take(std::size_t length) {
        if (length > area_.size() - used_) throw std::invalid_argument("channel message: names run past the message");
        std::string_view name(reinterpret_cast<const char*>(area_.data() + used_), length);
        used_ += length;
        return name;
    }
    template <class T> T takeValue() {
        std::string_view raw = take(sizeof(T));
        T value;
        std::memcpy(&value, raw.data(), sizeof(T));
        return value;
    }

private:
    std::span<const std::byte> area_;
    std::size_t used_ = 0;
};

const Timebase* timebaseOf(const TimebaseWire& wire, NameReader& names) {
    if (!wire.present) return nullptr;
    std::string_view clock = names.take(wire.clockNameLength);
    return &Timebase::get(wire.rateHz, wire.zeroTimeNs, Clock::named(clock));
}

/// A signal or frame whose samples are still to be received into the returned span.
template <class T> Item sampleItem(const Header& header, const Timebase* segmentTimebase, SampleRange range, std::span<std::byte>& toFill) {
    SigSeg<T> samples = SigSeg<T>::allocate(header.segmentLength, header.segmentStart, segmentTimebase);
    if (header.segmentLength > 0) toFill = std::as_writable_bytes(samples.writable());
    return header.itemKind == ItemKind::Signal ? Item::signal(std::move(samples)) : Item::frame(std::move(samples), range);
}

}  // namespace

bool crossesRanks(const PortType& type) { return type.kind.has_value() && *type.kind != ItemKind::Custom; }

void encodeItem(const Item& item, std::vector<std::byte>& out) {
    if (item.isProgress()) return encodeProgress(item.progressTime(), out);
    if (item.kind() == ItemKind::Custom) throw std::invalid_argument("custom items cannot be sent to another rank");
    out.clear();
    Header header;
    header.kind = MessageKind::Item;
    header.itemKind = item.kind();
    header.arrivalNs = item.arrivalNs();
    header.word = std::bit_cast<std::int64_t>(item.value());
    const SegmentHandle& segment = item.segment();
    const bool carriesSamples = item.kind() == ItemKind::Signal || item.kind() == ItemKind::Frame;
    if (carriesSamples) {
        header.sampleType = segment.sampleType();
        header.segmentTimebase = wireOf(segment.timebase());
        header.segmentStart = segment.startIndex();
        header.segmentLength = segment.length();
    }
    const SampleRange range = item.range();
    if (item.kind() != ItemKind::Signal) {
        header.rangeTimebase = wireOf(range.timebase);
        header.rangeStart = range.start;
        header.rangeLength = range.length;
    }
    const EventRecord* event = item.event();
    if (event) {
        header.labelLength = static_cast<std::uint32_t>(std::strlen(event->label()));
        header.attributeCount = static_cast<std::uint32_t>(event->attributes().size());
    }
    appendBytes(out, &header, sizeof header);
    const std::size_t namesStart = out.size();
    if (header.segmentTimebase.present) appendName(out, segment.timebase()->clock().name());
    if (header.rangeTimebase.present) appendName(out, range.timebase->clock().name());
    if (event) {
        appendName(out, event->label());
        for (const EventAttribute& attribute : event->attributes()) {
            const auto nameLength = static_cast<std::uint32_t>(std::strlen(attribute.name));
            appendBytes(out, &nameLength, sizeof nameLength);
            appendName(out, attribute.name);
            appendBytes(out, &attribute.value, sizeof attribute.value);
        }
    }
    reinterpret_cast<Header*>(out.data())->namesBytes = static_cast<std::uint32_t>(out.size() - namesStart);
}

std::size_t sampleBytes(const Item& item) {
    if (item.isProgress() || (item.kind() != ItemKind::Signal && item.kind() != ItemKind::Frame)) return 0;
    const SegmentHandle& segment = item.segment();
    return static_cast<std::size_t>(segment.length()) * sampleSize(segment.sampleType());
}

void encodeProgress(TimeNs time, std::vector<std::byte>& out) {
    out.clear();
    Header header;
    header.kind = MessageKind::Progress;
    header.word = time;
    appendBytes(out, &header, sizeof header);
}

void encodeEnd(std::vector<std::byte>& out) {
    out.clear();
    Header header;
    header.kind = MessageKind::End;
    appendBytes(out, &header, sizeof header);
}

DecodedMessage decodeMessage(std::span<const std::byte> bytes) {
    Header header;
    if (bytes.size() < sizeof header) throw std::invalid_argument("channel message shorter than its header");
    std::memcpy(&header, bytes.data(), sizeof header);
    if (header.magic != kMagic) throw std::invalid_argument("channel message of an unknown format (another Isochron version on the other rank?)");
    if (header.namesBytes > bytes.size() - sizeof header) throw std::invalid_argument("channel message: names run past the message");
    if (header.segmentLength < 0) throw std::invalid_argument("channel message: a negative sample count");
    DecodedMessage message;
    message.kind = header.kind;
    if (header.kind == MessageKind::End) return message;
    if (header.kind == MessageKind::Progress) {
        message.item = Item::progress(header.word);
        return message;
    }
    if (header.kind != MessageKind::Item) throw std::invalid_argument("channel message of an unknown kind");
    NameReader names(bytes.subspan(sizeof header, header.namesBytes));
    const Timebase* segmentTimebase = timebaseOf(header.segmentTimebase, names);
    const SampleRange range{timebaseOf(header.rangeTimebase, names), header.rangeStart, header.rangeLength};
    const double value = std::bit_cast<double>(header.word);
    switch (header.itemKind) {
        case ItemKind::Signal:
        case ItemKind::Frame:
            switch (header.sampleType) {
                case SampleType::Float32: message.item = sampleItem<float>(header, segmentTimebase, range, message.samples); break;
                case SampleType::Float64: message.item = sampleItem<double>(header, segmentTimebase, range, message.samples); break;
                case SampleType::Int16: message.item = sampleItem<std::int16_t>(header, segmentTimebase, range, message.samples); break;
                case SampleType::ComplexFloat32: message.item = sampleItem<std::complex<float>>(header, segmentTimebase, range, message.samples); break;
                case SampleType::None: throw std::invalid_argument("channel message: samples without a sample type");
            }
            break;
        case ItemKind::Scalar: message.item = Item::scalar(value, range); break;
        case ItemKind::TimeRange: message.item = Item::timeRange(range); break;
        case ItemKind::Event: {
            EventRecord* record = EventRecord::create(names.take(header.labelLength));
            Item event = Item::event(record, range, value);  // owns the record from here on
            for (std::uint32_t i = 0; i < header.attributeCount; ++i) {
                const auto nameLength = names.takeValue<std::uint32_t>();
                const std::string_view name = names.take(nameLength);
                record->set(name, names.takeValue<double>());
            }
            message.item = std::move(event);
            break;
        }
        case ItemKind::Progress:
        case ItemKind::Custom: throw std::invalid_argument("channel message: an item kind that cannot cross ranks");
    }
    message.item.setArrivalNs(header.arrivalNs);
    return message;
}

}  // namespace isochron::distributed
