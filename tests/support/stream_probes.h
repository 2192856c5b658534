// Test operators that look at streams as they flow: a probe sink that checks progress promises and
// memory, and a block source that synthesizes a long signal lazily (so memory use is observable).
// They are added to testRegistry() by registerStreamProbes().
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/items/item.h"

namespace isochron::test {

/// What a "test.probe" node saw on its one input.
struct Probed {
    std::vector<Item> items;            ///< data items, when the node's "keep" parameter is true
    std::int64_t itemCount = 0;         ///< data items received (kept or not)
    std::vector<TimeNs> progress;       ///< progress times, in arrival order
    std::int64_t brokenPromises = 0;    ///< data items whose range starts before progress already received
    std::uint64_t peakLiveBytes = 0;    ///< largest MemoryPool liveBytes seen at any item or progress
    bool finished = false;
};

/// Probes by name (the node's "name" parameter). Reset between tests.
std::map<std::string, Probed>& probes();

/// A "test.blocks" node emits `blocks` float blocks of `block` samples at `rate` Hz, one per produce
/// call, each followed by progress up to its end. Block b holds Gaussian noise of stddev 1 when
/// b % `period` < `loud`, else of stddev `quiet` (seeded by the block index, so runs repeat).
/// Adds "test.probe" and "test.blocks" to testRegistry() once.
void registerStreamProbes();

/// The samples "test.blocks" puts in block `index` (for references in tests).
std::vector<float> blockSamples(std::int64_t index, std::int64_t block, std::int64_t period, std::int64_t loud, double quiet);

}  // namespace isochron::test
