// The biquad plugin's entry point: one operator, and settings for isochron-plugin-check.
#include <string_view>

#include <isochron/plugin.h>

#include "biquad_filter.h"

namespace {

constexpr isochron::DescribeOperator kOperators[] = {&biquad::filterDescriptor};

// A sharp bandpass rings longest, so it shows best whether state survives segment boundaries.
constexpr isochron::OperatorCheckSettings kCheckSettings[] = {
    {"biquad.filter", R"({"response": "bandpass", "frequency_hz": 700, "q": 8})", true, 0.0},
};
constexpr isochron::CheckCapability kCheck{1, kCheckSettings};

const void* findCapability(const char* id) {
    return std::string_view(id) == isochron::kCheckCapabilityId ? &kCheck : nullptr;
}

constexpr isochron::PluginTable kTable{
    .abiVersion = ISOCHRON_PLUGIN_ABI_VERSION,
    .toolchain = ISOCHRON_PLUGIN_TOOLCHAIN,
    .name = "biquad",
    .version = "1.0.0",
    .operatorCount = 1,
    .operators = kOperators,
    .capability = &findCapability,
};

}  // namespace

ISOCHRON_PLUGIN_ENTRY(kTable)
