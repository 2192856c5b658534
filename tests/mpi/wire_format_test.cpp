// Items survive the trip through the channel wire format unchanged: every kind, every sample type,
// segments of several storage pieces, frames without a timebase, events with attributes.
#include <catch2/catch.hpp>

#include <complex>
#include <cstring>

#include "distributed/wire_format.h"

using namespace isochron;
using namespace isochron::distributed;

namespace {

// What a channel does, without MPI: the item's message, then its samples (the message of their own
// that follows it) written into the storage decoding allocated.
Item roundTrip(const Item& item) {
    std::vector<std::byte> bytes;
    encodeItem(item, bytes);
    DecodedMessage message = decodeMessage(bytes);
    REQUIRE(message.kind == (item.isProgress() ? MessageKind::Progress : MessageKind::Item));
    REQUIRE(message.samples.size() == sampleBytes(item));
    std::byte* to = message.samples.data();
    if (sampleBytes(item) > 0) {
        item.segment().forEachRun([&](const std::byte* data, std::int64_t count) {
            const std::size_t size = static_cast<std::size_t>(count) * sampleSize(item.segment().sampleType());
            std::memcpy(to, data, size);
            to += size;
        });
    }
    return std::move(message.item);
}

template <class T> std::vector<T> samplesOf(const Item& item) {
    const SigSeg<T> samples = item.signal<T>();
    const auto span = samples.materialize();
    return {span.begin(), span.end()};
}

template <class T> void checkSignalRoundTrip(std::int64_t length) {
    const Timebase* timebase = &Timebase::get(44100.0, 1'234'567, Clock::named("device:test"));
    std::vector<T> values(static_cast<std::size_t>(length));
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<T>(static_cast<int>(i % 300) - 150);
    Item item = Item::signal(SigSeg<T>::copyOf(values, 1000, timebase));
    item.setArrivalNs(987654321);
    const Item back = roundTrip(item);
    CHECK(back.kind() == ItemKind::Signal);
    CHECK(back.sampleType() == SigSeg<T>::kType);
    CHECK(back.range() == item.range());  // same start, length and (interned) timebase
    CHECK(back.arrivalNs() == 987654321);
    CHECK(samplesOf<T>(back) == values);
}

}  // namespace

TEST_CASE("signals of every sample type and length cross the wire sample-exact on their timebase", "[wire]") {
    for (std::int64_t length : {0, 1, 7, 4096, 100'001}) {
        INFO("length " << length);
        checkSignalRoundTrip<float>(length);
        checkSignalRoundTrip<double>(length);
        checkSignalRoundTrip<std::int16_t>(length);
        checkSignalRoundTrip<std::complex<float>>(length);
    }
}

TEST_CASE("only samples-carrying items announce samples, in bytes of their sample type", "[wire]") {
    const Timebase* timebase = &Timebase::get(48000.0);
    CHECK(sampleBytes(Item::signal(SigSeg<double>::allocate(5, 0, timebase))) == 5 * sizeof(double));
    CHECK(sampleBytes(Item::frame(SigSeg<std::complex<float>>::allocate(3, 0, nullptr), SampleRange{timebase, 0, 3})) == 3 * sizeof(std::complex<float>));
    CHECK(sampleBytes(Item::scalar(1.0, SampleRange{timebase, 0, 1})) == 0);
    CHECK(sampleBytes(Item::progress(5)) == 0);
}

TEST_CASE("a segment made of several storage pieces arrives as one contiguous segment", "[wire]") {
    const Timebase* timebase = &Timebase::get(48000.0);
    const std::vector<float> first{1, 2, 3}, second{4, 5};
    SigSeg<float> joined = SigSeg<float>::concat(SigSeg<float>::copyOf(first, 10, timebase), SigSeg<float>::copyOf(second, 13, timebase));
    REQUIRE(joined.pieceCount() == 2);
    const Item back = roundTrip(Item::signal(joined.subseg(11, 4)));
    CHECK(back.range().start == 11);
    CHECK(samplesOf<float>(back) == std::vector<float>{2, 3, 4, 5});
}

TEST_CASE("frames, scalars, time ranges, events and progress keep what they describe", "[wire]") {
    const Timebase* timebase = &Timebase::get(16000.0, 5);
    const SampleRange covered{timebase, 4096, 1024};

    const std::vector<std::complex<float>> bins{{1, -1}, {0.5f, 2}, {-3, 0}};
    const Item frame = roundTrip(Item::frame(SigSeg<std::complex<float>>::copyOf(bins, 0, nullptr), covered));
    CHECK(frame.kind() == ItemKind::Frame);
    CHECK(frame.range() == covered);
    CHECK(frame.segment().timebase() == nullptr);
    CHECK(samplesOf<std::complex<float>>(frame) == bins);

    const Item scalar = roundTrip(Item::scalar(-42.25, covered));
    CHECK(scalar.kind() == ItemKind::Scalar);
    CHECK(scalar.value() == -42.25);
    CHECK(scalar.range() == covered);

    const Item span = roundTrip(Item::timeRange(covered));
    CHECK(span.kind() == ItemKind::TimeRange);
    CHECK(span.range() == covered);

    EventRecord* record = EventRecord::create("bearing");
    record->set("azimuth_deg", 42.5);
    record->set("elevation_deg", -3.0);
    const Item event = roundTrip(Item::event(record, covered, 0.875));
    REQUIRE(event.event() != nullptr);
    CHECK(std::string(event.event()->label()) == "bearing");
    CHECK(event.event()->get("azimuth_deg") == 42.5);
    CHECK(event.event()->get("elevation_deg") == -3.0);
    CHECK(event.event()->attributes().size() == 2);
    CHECK(event.value() == 0.875);
    CHECK(event.range() == covered);

    const Item progress = roundTrip(Item::progress(123'456'789));
    CHECK(progress.isProgress());
    CHECK(progress.progressTime() == 123'456'789);
}

TEST_CASE("the end of a stream is a message of its own, and bytes that are no message are refused", "[wire]") {
    std::vector<std::byte> bytes;
    encodeEnd(bytes);
    CHECK(decodeMessage(bytes).kind == MessageKind::End);

    encodeItem(Item::scalar(1.0, SampleRange{&Timebase::get(100.0), 0, 1}), bytes);
    CHECK_THROWS_AS(decodeMessage(std::span(bytes).first(bytes.size() - 1)), std::invalid_argument);
    bytes[0] = std::byte{0};
    CHECK_THROWS_AS(decodeMessage(bytes), std::invalid_argument);
    CHECK_THROWS_AS(decodeMessage({}), std::invalid_argument);
}

TEST_CASE("custom items cannot cross ranks", "[wire]") {
    CHECK_FALSE(crossesRanks(PortType::anyCustom()));
    CHECK(crossesRanks(PortType::signal(SampleType::Float32)));
    CHECK(crossesRanks(PortType::event()));
}
