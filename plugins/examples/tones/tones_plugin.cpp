// The tones plugin's entry point: two operators and the custom item type they exchange.
#include <string_view>

#include <isochron/plugin.h>

#include "tone_detector.h"
#include "tone_frequency.h"

namespace {

constexpr isochron::DescribeOperator kOperators[] = {&tones::toneDetectorDescriptor, &tones::toneFrequencyDescriptor};

constexpr isochron::CustomItemType kItemTypes[] = {
    {"tones.tone", "a window's dominant tone: frequency_hz (Hz), peak and rms (signal's unit)"},
};
constexpr isochron::ItemTypesCapability kItemTypesCapability{1, kItemTypes};

const void* findCapability(const char* id) {
    return std::string_view(id) == isochron::kItemTypesCapabilityId ? &kItemTypesCapability : nullptr;
}

constexpr isochron::PluginTable kTable{
    .abiVersion = ISOCHRON_PLUGIN_ABI_VERSION,
    .toolchain = ISOCHRON_PLUGIN_TOOLCHAIN,
    .name = "tones",
    .version = "1.0.0",
    .operatorCount = 2,
    .operators = kOperators,
    .capability = &findCapability,
};

}  // namespace

ISOCHRON_PLUGIN_ENTRY(kTable)
