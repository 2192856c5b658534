// How one item travels between ranks: a fixed header (kind, timebases, range, value, arrival time),
// the names it needs (clocks, an event's label and attributes), then a signal's or frame's samples as
// raw bytes, all in one message. Samples are copied as whole runs, never marshalled one by one; a
// receiving rank rebuilds timebases by value (they are interned, so equal timebases stay equal).
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

/// The bytes of one item, progress marker or end of stream (appended to `out`, which is cleared
/// first). Throws std::invalid_argument for items that cannot cross ranks (custom payloads).
/// [engine thread] [allocates only when `out` must grow]
void encodeItem(const Item& item, std::vector<std::byte>& out);
void encodeProgress(TimeNs time, std::vector<std::byte>& out);
void encodeEnd(std::vector<std::byte>& out);

/// A decoded message: its kind and, for an Item or Progress, the item. [value type]
struct DecodedMessage {
    MessageKind kind = MessageKind::End;
    Item item;
};

/// The inverse of encode*; throws std::invalid_argument on bytes that are not a message (a bug or a
/// rank of another build). [engine thread] [pool allocation for samples and event records]
DecodedMessage decodeMessage(std::span<const std::byte> bytes);

/// Whether items of `type` can cross ranks (everything but custom payloads). [any thread]
bool crossesRanks(const PortType& type);

}  // namespace isochron::distributed
