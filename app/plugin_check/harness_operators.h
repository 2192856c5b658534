// The operators isochron-plugin-check wraps around an operator under test: "check.feed" sources
// that replay prepared batches of items, and "check.capture" sinks that keep (or just count) what
// comes out. They exchange data with the checker through HarnessState, one graph at a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/items/item.h"
#include "engine/operators/registry.h"

namespace isochron::check {

/// What one check.feed node replays: one produce() call per batch, each followed by progress up to
/// the batch's end. [checker thread]
struct FeedScript {
    std::vector<std::vector<Item>> batches;
    std::vector<TimeNs> progressAfter;  ///< per batch: progress promised after it
};

/// Malloc counts around the steady part of a run (the second half of feed 0's batches, or a
/// source's items after the first 64). [checker thread]
struct AllocationWindow {
    bool enabled = false;
    std::uint64_t atStart = 0, atEnd = 0;
    std::uint64_t steps = 0;  ///< batches fed (or items captured) inside the window
    bool opened = false, closed = false;
};

/// Shared by the harness operators and the checker during one run. [checker thread]
struct HarnessState {
    std::vector<FeedScript> feeds;                ///< by the feed node's "slot" parameter
    std::vector<std::vector<Item>> captured;      ///< by the capture node's "slot" parameter
    bool keepOutputs = true;                      ///< false: captures drop items (allocation runs)
    std::vector<std::string> inputWrites;         ///< what the operator wrote into the samples it was fed
    AllocationWindow allocations;
};

/// The state the harness operators of the current run use. [checker thread]
HarnessState& harnessState();

/// Register check.feed (params: slot, type) and check.capture (param: slot). [setup thread]
void registerHarnessOperators(OperatorRegistry& registry);

}  // namespace isochron::check
