// How one rank's telemetry snapshot travels to rank 0: a header (the rank, sequence, times, state,
// memory), then per node its counters, queue figures and id, then its outputs' figures (counts,
// rates, latency percentiles, utility) as they are. Per input port queues stay on their rank; each
// node's queue totals travel. Built by one build of isochron on every rank, so the fixed parts are
// copied as bytes, as in wire_format.h.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "engine/telemetry/telemetry_snapshot.h"

namespace isochron::distributed {

/// The bytes of `snapshot` taken on its rank, whose nodes `nodeIds` names in order (into `out`,
/// cleared first). Each node's rank is sent as it is. [engine thread] [allocates only when `out` must grow]
void encodeTelemetry(const TelemetrySnapshot& snapshot, const std::vector<std::string>& nodeIds, std::vector<std::byte>& out);

/// The inverse of encodeTelemetry: every node with its id and rank, the outputs, no queues (into
/// `snapshot`, whose buffers are reused). Throws std::invalid_argument on bytes that are not a
/// telemetry message. [engine thread]
void decodeTelemetry(std::span<const std::byte> bytes, TelemetrySnapshot& snapshot);

}  // namespace isochron::distributed
