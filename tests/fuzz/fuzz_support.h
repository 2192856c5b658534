// What the libFuzzer targets of tests/fuzz share: a scratch folder for inputs that must be files,
// the split of one fuzzer input into several files, running a small graph, and property checks.
// A target defines LLVMFuzzerTestOneInput; libFuzzer (clang -fsanitize=fuzzer) provides main().
// See docs/fuzzing.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/graph/graph_spec.h"

namespace isochron::fuzz {

/// This process's own empty folder for input files, created on first use and removed at exit
/// (several fuzzers may run side by side). [one thread]
const std::filesystem::path& scratchDirectory();

/// Replace `path` with a regular file holding `bytes`. Aborts if it cannot (the fuzzer's own fault).
void writeFile(const std::filesystem::path& path, std::string_view bytes);

/// `data` cut at every NUL byte into at most `maxParts` parts (the last part keeps the rest, NULs
/// included). Fuzzer inputs that stand for several files hold them this way.
std::vector<std::string_view> splitAtNul(const std::uint8_t* data, std::size_t size, std::size_t maxParts);

/// Abort with `what` when a property the code promises does not hold (libFuzzer then saves the
/// input as a crash). [no return on failure]
void require(bool holds, std::string_view what);

/// What runGraph() saw. [value type]
struct GraphRun {
    std::string error;  ///< the first problem (validation, activation or run time); empty if none
    std::map<std::string, std::uint64_t> itemsIn;    ///< data items each node received, by node id
    std::map<std::string, std::uint64_t> samplesIn;  ///< samples each node received, by node id
};

/// Validate `graph` against the built-in operators and run it under `scheduler` ("df" unless
/// given) to its end. Never throws for graph content; an error always has a message. Graphs given
/// here must be finite and write no files.
GraphRun runGraph(const GraphSpec& graph, const std::string& scheduler = "df");

}  // namespace isochron::fuzz
