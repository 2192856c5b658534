// The checks isochron-plugin-check runs on one operator: each sample rate of the plan, the whole
// stream once as the reference and then every other split of the matrix, comparing outputs,
// catching faults, and counting system allocations in the steady state of two splits per rate.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/operators/registry.h"
#include "engine/plugins/plugin_library.h"

namespace isochron::check {

/// What to run. [value type]
struct CheckPlan {
    std::vector<double> ratesHz{8000, 44100, 48000, 96000};
    std::int64_t samples = 32768;  ///< stream length per run
    int randomSplits = 3;
};

/// Where findings go, line by line as they come (so a crash loses nothing already found).
class CheckReport {
public:
    /// About to run `cell` (e.g. "48000 Hz, segments of 64"): a crash from here on happened in it.
    virtual void startCell(const std::string& cell) = 0;
    /// Something the plugin author must fix.
    virtual void problem(const std::string& text) = 0;
    /// Something worth knowing that is not wrong.
    virtual void note(const std::string& text) = 0;

protected:
    ~CheckReport() = default;
};

/// Check operator `type` of `library` (already registered in `registry`). [checker thread]
void checkOperator(const OperatorRegistry& registry, const PluginLibrary& library, const std::string& type,
                   const CheckPlan& plan, CheckReport& report);

}  // namespace isochron::check
