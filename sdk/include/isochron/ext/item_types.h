// Capability "isochron.item-types/1": the custom item types a plugin defines.
//
// A port typed "custom<name>" carries items whose payload is a CustomPayload subclass reporting
// typeName() == name. Declaring the type lets the host document it (palette, --list-operators) and
// refuse ports that name a custom type nobody declared, which is nearly always a typo. Types are
// global: another plugin loaded later may consume a type this plugin declares.
#pragma once

#include <cstdint>

namespace isochron {

/// The versioned id to pass to PluginTable::capability.
inline constexpr char kItemTypesCapabilityId[] = "isochron.item-types/1";

/// One custom item type. [immutable, static storage]
struct CustomItemType {
    const char* name;  ///< dotted name, e.g. "tones.tone"; ports spell it "custom<tones.tone>"
    const char* doc;   ///< one line: what one item stands for and its fields, with units
};

/// What the capability pointer points to. [immutable, static storage]
struct ItemTypesCapability {
    std::uint32_t typeCount;       ///< entries in `types`
    const CustomItemType* types;
};

}  // namespace isochron
