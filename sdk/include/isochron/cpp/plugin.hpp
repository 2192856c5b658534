// Plugin: a plugin's name, version, operator types and declarations for the host's extensions
// (custom item types, checker settings), and ISOCHRON_PLUGIN, which exports the entry point.
//
//   isochron::sdk::Plugin describePlugin() {
//       return isochron::sdk::Plugin("peak", "1.0.0").add(peakType());
//   }
//   ISOCHRON_PLUGIN(describePlugin)
#pragma once

#include <cstring>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "isochron/cpp/describe.hpp"
#include "isochron/ext/check.h"
#include "isochron/ext/item_types.h"

namespace isochron::sdk {

/// Everything a plugin offers. Built once by the function given to ISOCHRON_PLUGIN. [setup thread]
class Plugin {
public:
    /// `name` must be the file's name without ".so"; `version` is the plugin's own ("1.2.0").
    Plugin(std::string name, std::string version) : name_(std::move(name)), version_(std::move(version)) {}

    /// Add an operator type.
    Plugin& add(OperatorType type) {
        types_.push_back(std::move(type));
        return *this;
    }
    /// Declare a custom item type, so ports can carry "custom<name>" (extension isochron.item-types/1).
    Plugin& itemType(std::string name, std::string doc) {
        itemTypes_.emplace_back(std::move(name), std::move(doc));
        return *this;
    }
    /// Tell isochron-plugin-check how to exercise `typeName` (extension isochron.check/1):
    /// parameters as a JSON object, whether outputs must not depend on the split, and the largest
    /// difference between splits in the output's unit.
    Plugin& check(std::string typeName, std::string paramsJson, bool splitInvariant, double tolerance) {
        checks_.push_back({std::move(typeName), std::move(paramsJson), splitInvariant, tolerance});
        return *this;
    }

    /// The ABI table, built on the first call (this object must not move afterwards).
    const isochron_plugin* table(const void* (*getExtension)(const char* id)) {
        if (built_) return &table_;
        for (OperatorType& type : types_) cTypes_.push_back(type.toAbi());
        for (const auto& [name, doc] : itemTypes_) cItemTypes_.push_back({name.c_str(), doc.c_str()});
        itemTypesExtension_ = {static_cast<std::uint32_t>(cItemTypes_.size()), cItemTypes_.data()};
        for (const CheckEntry& entry : checks_) {
            cChecks_.push_back({entry.typeName.c_str(), entry.params.empty() ? nullptr : entry.params.c_str(), entry.splitInvariant, entry.tolerance});
        }
        checkExtension_ = {static_cast<std::uint32_t>(cChecks_.size()), cChecks_.data()};
        table_ = {ISOCHRON_ABI_VERSION, name_.c_str(), version_.c_str(), static_cast<std::uint32_t>(cTypes_.size()), cTypes_.data(), getExtension};
        built_ = true;
        return &table_;
    }
    /// The extension `id`, if this plugin declared anything for it. [no allocation]
    const void* extension(const char* id) const {
        if (std::strcmp(id, ISOCHRON_EXT_ITEM_TYPES) == 0 && !cItemTypes_.empty()) return &itemTypesExtension_;
        if (std::strcmp(id, ISOCHRON_EXT_CHECK) == 0 && !cChecks_.empty()) return &checkExtension_;
        return nullptr;
    }

private:
    struct CheckEntry {
        std::string typeName, params;
        bool splitInvariant;
        double tolerance;
    };

    std::string name_, version_;
    std::deque<OperatorType> types_;  // a deque: toAbi() points into elements, which must not move
    std::vector<std::pair<std::string, std::string>> itemTypes_;
    std::vector<CheckEntry> checks_;
    bool built_ = false;
    std::vector<isochron_operator_type> cTypes_;
    std::vector<isochron_item_type> cItemTypes_;
    std::vector<isochron_check_settings> cChecks_;
    isochron_item_types_extension itemTypesExtension_{};
    isochron_check_extension checkExtension_{};
    isochron_plugin table_{};
};

}  // namespace isochron::sdk

/// Exports the plugin's entry point. `describe` is a function returning an isochron::sdk::Plugin;
/// it runs once, when the host loads the plugin. Use once per plugin, in one source file.
#define ISOCHRON_PLUGIN(describe)                                                                   \
    static ::isochron::sdk::Plugin& isochronSdkPlugin() {                                           \
        static ::isochron::sdk::Plugin plugin = (describe)();                                       \
        return plugin;                                                                              \
    }                                                                                               \
    static const void* isochronSdkExtension(const char* id) { return isochronSdkPlugin().extension(id); } \
    extern "C" ISOCHRON_EXPORT const isochron_plugin* isochron_plugin_entry(void) {                 \
        try {                                                                                       \
            return isochronSdkPlugin().table(&isochronSdkExtension);                                \
        } catch (...) {                                                                             \
            return nullptr; /* the host says the plugin could not describe itself */                \
        }                                                                                           \
    }
