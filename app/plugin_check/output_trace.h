// Outputs reduced to what a split must not change: a signal's samples as one stream, and every
// other item's kind, sample range and numbers (frame values, event attributes, custom fields).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/items/item.h"

namespace isochron::check {

/// One output port's items, split-independent. [value type]
struct OutputTrace {
    std::vector<double> samples;                       ///< signal samples, in order (complex: re, im)
    std::vector<std::pair<std::int64_t, std::int64_t>> coverage;  ///< signal sample runs [start, end), adjacent ones merged
    std::vector<std::string> records;                  ///< other items: kind, range and texts, one line each
    std::vector<std::vector<double>> recordNumbers;    ///< their numbers (value, frame values, attributes, fields)
};

/// The trace of one port's items. [checker thread] [may allocate]
OutputTrace traceOf(const std::vector<Item>& items);

/// The first difference between two traces beyond `tolerance` (absolute), as a sentence naming
/// where it is, or nullopt when they agree. [any thread]
std::optional<std::string> firstDifference(const OutputTrace& reference, const OutputTrace& other, double tolerance);

}  // namespace isochron::check
