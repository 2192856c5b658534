// Test inputs for isochron-plugin-check: a deterministic signal (two tones and noise), the items of
// other kinds derived from it, and the ways of cutting a stream into segments (the split matrix).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/plugin_check/harness_operators.h"
#include "engine/operators/port_type.h"

namespace isochron::check {

/// One way of cutting `total` samples into consecutive segments. [value type]
struct Split {
    std::string name;                   ///< "whole", "segments of 64", "random #2", ...
    std::vector<std::int64_t> lengths;  ///< sums to the stream's length; every entry >= 1
};

/// The whole stream in one segment first (the reference), then segments of 1, 64, 1000 and 4096
/// samples, then `randomSplits` random cuts (lengths 1..2000, seeded by their number). [any thread]
std::vector<Split> splitMatrix(std::int64_t total, int randomSplits);

/// A concrete type to feed a port of (possibly wildcard) type `accepted`: signal<any> and any
/// become signal<f32>, frame<any> frame<f32>; nullopt for custom items (they come from a producer).
std::optional<PortType> feedableType(const PortType& accepted);

/// `total` samples at `rateHz` of type `type` (signal, frame, scalar, time_range or event),
/// cut by `split`: one batch per segment, with progress at each segment's end. [checker thread]
FeedScript generateInput(const PortType& type, double rateHz, std::int64_t total, const Split& split);

/// Items already made (e.g. custom items from a producer), grouped into the batches of `split` by
/// where their sample range starts. [checker thread]
FeedScript batchItems(const std::vector<Item>& items, double rateHz, std::int64_t total, const Split& split);

}  // namespace isochron::check
