// Helpers to run a graph given as JSON text through the real engine in tests.
#pragma once

#include <string>
#include <vector>

#include "engine/runtime/engine.h"
#include "tests/support/test_operators.h"

namespace isochron::test {

/// Validate `graphJson` against testRegistry(), apply "node.param=value" overrides and run it to the
/// end under `scheduler` ("df", "fifo-slice:slice_us=5,burst=2", ...). Throws on graph errors.
RunOutcome runGraph(const std::string& graphJson, const std::string& scheduler = "df",
                    const std::vector<std::string>& overrides = {});

/// Scheduler specs every equivalence test covers: each scheduler with and without rate control.
std::vector<std::string> schedulerMatrix();

/// Whether two data items carry the same kind, range, samples/values, scalar and event content.
bool sameData(const Item& a, const Item& b, std::string* why = nullptr);

/// A float signal segment with a copy of `samples`.
SigSeg<float> makeSignal(const std::vector<float>& samples, std::int64_t startIndex, const Timebase& timebase);

/// All samples of a signal/frame item, in order (any pieces), as floats.
std::vector<float> samplesOf(const Item& item);

}  // namespace isochron::test
