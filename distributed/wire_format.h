// How one item travels between ranks: a message with a fixed header (kind, timebases, range, value,
// arrival time) and the names it needs (clocks, an event's label and attributes). A signal's or
// frame's samples are not in it: they follow as a message of their own, sent straight from the
// segment's storage and received straight into the pooled segment decodeMessage() allocates, so no
// sample is copied or marshalled on either rank (mpi_channels.cpp). A receiving rank rebuilds
// timebases by value (they are interned, so equal timebases stay equal).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/items/item.h"
#include "engine/operators/port_type.h"

namespace isochron::distributed {

/// What a channel message carries: an item, a progress promise, or the end of the stream.
enum class MessageKind : std::uint8_t { Item, Progress, End };

/// The bytes of one item (without its samples: see sampleBytes()), progress marker or end of stream
/// (appended to `out`, which is cleared first). Throws std::invalid_argument for items that cannot
/// cross ranks (custom payloads). [engine thread] [allocates only when `out` must grow]
void encodeItem(const Item& item, std::vector<std::byte>& out);
void encodeProgress(TimeNs time, std::vector<std::byte>& out);
void encodeEnd(std::vector<std::byte>& out);

/// How many bytes of samples follow an item's message: a signal's or frame's, 0 for other items. [no allocation]
std::size_t sampleBytes(const Item& item);

/// A decoded message: its kind and, for an Item or Progress, the item. For a signal or frame,
/// `samples` is the item's new storage, not yet filled: the caller writes the samples message into it
/// before the item goes anywhere (empty for other items). [value type]
struct DecodedMessage {
    MessageKind kind = MessageKind::End;
    Item item;
    std::span<std::byte> samples;
};

/// The inverse of encode*; throws std::invalid_argument on bytes that are not a message (a bug or a
/// rank of another build). [engine thread] [pool allocation for samples and event records]
DecodedMessage decodeMessage(std::span<const std::byte> bytes);

/// Whether items of `type` can cross ranks (everything but custom payloads). [any thread]
bool crossesRanks(const PortType& type);

}  // namespace isochron::distributed
