// A node's warning about data it already wrote that needs the user's action to stay whole (a
// recording whole only together with a file beside it). Such a warning starts with
// kDataAtRiskPrefix, and isochron-run prints it also under --quiet, where other warnings are not shown:
// a batch or field recorder must not see exit status 0 and nothing while a copy of its file alone is
// damaged.
#pragma once

#include <string>
#include <string_view>

namespace isochron {

/// How a warning about data at risk starts.
inline constexpr std::string_view kDataAtRiskPrefix = "data at risk: ";

/// `message` as a warning about data at risk (for Operator::warn). [any thread]
inline std::string dataAtRiskWarning(std::string_view message) { return std::string(kDataAtRiskPrefix) + std::string(message); }

/// Whether `warning` is about data at risk. [any thread]
inline bool isDataAtRiskWarning(std::string_view warning) { return warning.starts_with(kDataAtRiskPrefix); }

}  // namespace isochron
