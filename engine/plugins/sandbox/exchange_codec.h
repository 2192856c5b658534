// Writing and reading the sandbox's messages in an exchange area: plain values, texts, sample
// blocks (64-byte aligned, so a hook gets its samples in place), and the wire form of timebases
// and items shared by both directions.
//
// An item on the wire: kind, range (timebase, start, length), value; then for a signal or frame its
// segment (sample type, start, length, timebase, and where the samples are: in this message, in
// the response area at an offset, in the host's shared sample arena at an offset, or "the samples
// of the item being processed" from an index on),
// for an event or custom item its record (label, fields). Timebases travel as (rate, zero time,
// clock) and are interned again on arrival; one that repeats the last in the same message is a flag.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "isochron/isochron.h"

namespace isochron {
class SharedSampleArena;
}

namespace isochron::sandbox {

/// Appends to an area of `capacity` bytes. Throws std::length_error when a message does not fit.
/// [one thread] [no allocation]
class ExchangeWriter {
public:
    ExchangeWriter(std::byte* area, std::size_t capacity) : area_(area), capacity_(capacity) {}

    /// Room for `bytes`, aligned to `alignment`; returns where to write them.
    std::byte* reserve(std::size_t bytes, std::size_t alignment) {
        const std::size_t at = (used_ + alignment - 1) & ~(alignment - 1);
        if (at + bytes > capacity_ - tail_) {
            throw std::length_error("a sandbox message needs more than its " + std::to_string(capacity_ >> 20) + " MiB exchange area");
        }
        used_ = at + bytes;
        return area_ + at;
    }
    /// Room for `bytes` at the end of the area, below what was reserved there before (segments a
    /// hook allocates live there, out of the way of the records written from the start).
    std::byte* reserveFromEnd(std::size_t bytes, std::size_t alignment) {
        const std::size_t top = capacity_ - tail_;
        if (bytes > top) throw std::length_error("a sandbox message needs more than its " + std::to_string(capacity_ >> 20) + " MiB exchange area");
        const std::size_t at = (top - bytes) & ~(alignment - 1);
        if (at < used_) throw std::length_error("a sandbox message needs more than its " + std::to_string(capacity_ >> 20) + " MiB exchange area");
        tail_ = capacity_ - at;
        return area_ + at;
    }
    /// Forget what was written after `mark` (a record that could not be finished).
    void rewind(std::size_t mark) {
        used_ = mark;
        lastTimebase_ = nullptr;  // it may have been written in full after the mark only
    }
    template <class T> void put(const T& value) {
        static_assert(std::is_trivially_copyable_v<T>);
        std::memcpy(reserve(sizeof(T), alignof(T)), &value, sizeof(T));
    }
    void putText(std::string_view text) {
        put(static_cast<std::uint32_t>(text.size()));
        std::byte* at = reserve(text.size() + 1, 1);
        std::memcpy(at, text.data(), text.size());
        at[text.size()] = std::byte{0};
    }
    void putText(const char* text) { putText(std::string_view(text ? text : "")); }
    std::size_t used() const { return used_; }
    std::byte* area() const { return area_; }
    /// The timebase written in full last in this message (putTimebase then writes a repeat as a flag).
    const isochron_timebase*& lastTimebase() { return lastTimebase_; }

private:
    std::byte* area_;
    std::size_t capacity_;
    std::size_t used_ = 0;  // from the start: records
    std::size_t tail_ = 0;  // from the end: reserveFromEnd
    const isochron_timebase* lastTimebase_ = nullptr;
};

/// Reads what an ExchangeWriter wrote, in the same order. Throws std::out_of_range past the end.
/// [one thread] [no allocation]
class ExchangeReader {
public:
    ExchangeReader(const std::byte* area, std::size_t size) : area_(area), size_(size) {}

    const std::byte* take(std::size_t bytes, std::size_t alignment) {
        const std::size_t at = (at_ + alignment - 1) & ~(alignment - 1);
        if (at + bytes > size_) throw std::out_of_range("a sandbox message ended early");
        at_ = at + bytes;
        return area_ + at;
    }
    template <class T> T get() {
        T value;
        std::memcpy(&value, take(sizeof(T), alignof(T)), sizeof(T));
        return value;
    }
    /// Whether everything was read.
    bool atEnd() const { return at_ >= size_; }
    /// The timebase read in full last in this message (what a repeat flag stands for).
    const isochron_timebase*& lastTimebase() { return lastTimebase_; }
    /// A text written by putText; points into the area (NUL-terminated).
    const char* text() {
        const auto length = get<std::uint32_t>();
        return reinterpret_cast<const char*>(take(std::size_t{length} + 1, 1));
    }

private:
    const std::byte* area_;
    std::size_t size_;
    std::size_t at_ = 0;
    const isochron_timebase* lastTimebase_ = nullptr;
};

/// Alignment of sample blocks in a message.
inline constexpr std::size_t kSampleAlignment = 64;

/// Where a segment's samples are on the wire.
enum class SamplesAt : std::uint32_t {
    Inline = 0,      ///< right here in the message
    Responses = 1,   ///< in the response area at an offset (a segment the child allocated for this hook)
    InputItem = 2,   ///< the samples of the item being processed (the host shares them again)
    Arena = 3,       ///< in the host's SharedSampleArena at an offset (host -> child only; read-only there)
};

/// Write `timebase` (null allowed) as rate, zero time and clock, or as a flag when it is the one
/// written in full last in this message (a batch's items share one: no clock name per item).
void putTimebase(ExchangeWriter& out, const isochron_timebase* timebase);
/// Read a timebase and intern it (the ABI's view of the engine's Timebase). [may allocate on first use]
const isochron_timebase* takeTimebase(ExchangeReader& in);

/// Write an item's kind, range, value and record, and its segment's header when it has one; the
/// caller then says where the samples are (putSamplesAt and what that needs).
void putItemHead(ExchangeWriter& out, const isochron_item& item);
/// Write a segment's samples into the message (SamplesAt::Inline).
void putInlineSamples(ExchangeWriter& out, const isochron_segment& segment);
/// Write where a segment's samples are in the host's shared sample arena (SamplesAt::Arena) when
/// they lie there, else the samples themselves (putInlineSamples). [no allocation]
void putArenaOrInlineSamples(ExchangeWriter& out, const isochron_segment& segment, const SharedSampleArena* arena);

/// An item read from a message: views into the message and into its own storage. [one thread]
struct WireItem {
    isochron_item item{};
    isochron_segment segment{};
    isochron_record record{};
    std::vector<isochron_field> fields;
    SamplesAt samplesAt = SamplesAt::Inline;
    std::uint64_t offset = 0;  ///< SamplesAt::Responses and SamplesAt::Arena: where the samples start

    WireItem() { fields.reserve(ISOCHRON_MAX_CUSTOM_FIELDS); }
    WireItem(const WireItem&) = delete;
    WireItem& operator=(const WireItem&) = delete;
};
/// Read an item written by putItemHead and its samples' location; inline samples are pointed to
/// in place, the other locations are left for the caller to resolve. [no allocation after the
/// first items]
void takeItem(ExchangeReader& in, WireItem& wire);

/// Bytes of `length` samples of `sampleType`.
std::size_t sampleBytes(std::uint32_t sampleType, std::int64_t length);

}  // namespace isochron::sandbox
