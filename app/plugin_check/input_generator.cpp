#include "app/plugin_check/input_generator.h"

#include <cmath>
#include <complex>
#include <numbers>
#include <random>

namespace isochron::check {
namespace {

constexpr std::int64_t kDerivedItemSpan = 256;  // samples covered by one frame, scalar, range or event

// Two tones and white noise, a function of the sample index alone (so every split sees the same stream).
double sampleAt(std::int64_t index, double rateHz) {
    const double t = static_cast<double>(index) / rateHz;
    std::uint64_t hash = static_cast<std::uint64_t>(index) * 0x9E3779B97F4A7C15ull;
    hash ^= hash >> 31;
    hash *= 0xBF58476D1CE4E5B9ull;
    hash ^= hash >> 29;
    const double noise = static_cast<double>(hash >> 11) / static_cast<double>(1ull << 53) * 2 - 1;
    return 0.5 * std::sin(2 * std::numbers::pi * 440 * t) + 0.25 * std::sin(2 * std::numbers::pi * 1234.5 * t) + 0.1 * noise;
}

template <class T> T convertSample(double value, std::int64_t index, double rateHz);
template <> float convertSample<float>(double v, std::int64_t, double) { return static_cast<float>(v); }
template <> double convertSample<double>(double v, std::int64_t, double) { return v; }
template <> std::int16_t convertSample<std::int16_t>(double v, std::int64_t, double) { return static_cast<std::int16_t>(std::lround(v * 16384)); }
template <> std::complex<float> convertSample<std::complex<float>>(double v, std::int64_t index, double rateHz) {
    return {static_cast<float>(v), static_cast<float>(sampleAt(index + 7919, rateHz))};
}

template <class T> SigSeg<T> makeSegment(std::int64_t start, std::int64_t length, const Timebase& timebase) {
    SigSeg<T> segment = SigSeg<T>::allocate(length, start, &timebase);
    std::span<T> out = segment.writable();
    for (std::int64_t i = 0; i < length; ++i) out[static_cast<std::size_t>(i)] = convertSample<T>(sampleAt(start + i, timebase.rateHz()), start + i, timebase.rateHz());
    return segment;
}

Item makeSamples(ItemKind kind, SampleType type, std::int64_t start, std::int64_t length, const Timebase& timebase) {
    const SampleRange covered{&timebase, start, length};
    auto wrap = [&](auto segment) { return kind == ItemKind::Signal ? Item::signal(std::move(segment)) : Item::frame(std::move(segment), covered); };
    switch (type) {
        case SampleType::Float64: return wrap(makeSegment<double>(start, length, timebase));
        case SampleType::Int16: return wrap(makeSegment<std::int16_t>(start, length, timebase));
        case SampleType::ComplexFloat32: return wrap(makeSegment<std::complex<float>>(start, length, timebase));
        case SampleType::Float32:
        case SampleType::None: break;
    }
    return wrap(makeSegment<float>(start, length, timebase));
}

// One non-signal item covering [start, start + kDerivedItemSpan).
Item derivedItem(const PortType& type, std::int64_t start, const Timebase& timebase) {
    const SampleRange range{&timebase, start, kDerivedItemSpan};
    const double value = sampleAt(start, timebase.rateHz());
    switch (*type.kind) {
        case ItemKind::Frame: return makeSamples(ItemKind::Frame, type.sampleType.value_or(SampleType::Float32), start, kDerivedItemSpan, timebase);
        case ItemKind::Scalar: return Item::scalar(value, range);
        case ItemKind::TimeRange: return Item::timeRange(range);
        case ItemKind::Event: {
            EventRecord* record = EventRecord::create("check");
            record->set("value", value);
            return Item::event(record, range, std::fabs(value));
        }
        case ItemKind::Signal:
        case ItemKind::Progress:
        case ItemKind::Custom: break;
    }
    return Item::scalar(value, range);
}

}  // namespace

std::vector<Split> splitMatrix(std::int64_t total, int randomSplits) {
    std::vector<Split> splits{{"whole", {total}}};
    for (std::int64_t size : {1, 64, 1000, 4096}) {
        Split split{"segments of " + std::to_string(size), {}};
        for (std::int64_t done = 0; done < total; done += size) split.lengths.push_back(std::min(size, total - done));
        splits.push_back(std::move(split));
    }
    for (int r = 1; r <= randomSplits; ++r) {
        std::mt19937 random(static_cast<std::uint32_t>(r));
        std::uniform_int_distribution<std::int64_t> length(1, 2000);
        Split split{"random #" + std::to_string(r), {}};
        for (std::int64_t done = 0; done < total;) {
            const std::int64_t next = std::min(length(random), total - done);
            split.lengths.push_back(next);
            done += next;
        }
        splits.push_back(std::move(split));
    }
    return splits;
}

std::optional<PortType> feedableType(const PortType& accepted) {
    if (!accepted.kind) return PortType::signal(SampleType::Float32);
    if (*accepted.kind == ItemKind::Custom || *accepted.kind == ItemKind::Progress) return std::nullopt;
    PortType type = accepted;
    if (type.carriesSamples() && !type.sampleType) type.sampleType = SampleType::Float32;
    return type;
}

FeedScript generateInput(const PortType& type, double rateHz, std::int64_t total, const Split& split) {
    const Timebase& timebase = Timebase::get(rateHz);
    if (type.kind == ItemKind::Signal) {
        FeedScript script;
        std::int64_t start = 0;
        for (std::int64_t length : split.lengths) {
            script.batches.push_back({});
            script.batches.back().push_back(makeSamples(ItemKind::Signal, type.sampleType.value_or(SampleType::Float32), start, length, timebase));
            start += length;
            script.progressAfter.push_back(timebase.timeOf(start));
        }
        return script;
    }
    std::vector<Item> items;
    for (std::int64_t start = 0; start + kDerivedItemSpan <= total; start += kDerivedItemSpan) items.push_back(derivedItem(type, start, timebase));
    return batchItems(items, rateHz, total, split);
}

FeedScript batchItems(const std::vector<Item>& items, double rateHz, std::int64_t total, const Split& split) {
    const Timebase& timebase = Timebase::get(rateHz);
    FeedScript script;
    std::size_t next = 0;
    std::int64_t end = 0;
    for (std::size_t s = 0; s < split.lengths.size(); ++s) {
        end += split.lengths[s];
        const bool last = s + 1 == split.lengths.size();
        script.batches.push_back({});
        while (next < items.size() && (last || items[next].range().start < end)) script.batches.back().push_back(items[next++]);
        // Progress may not pass an item still to come, which starts at or after `end`.
        script.progressAfter.push_back(last ? timebase.timeOf(std::max(end, total)) : timebase.timeOf(end));
    }
    return script;
}

}  // namespace isochron::check
