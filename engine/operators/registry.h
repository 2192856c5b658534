// The registry of operator types. Built-ins register through the same call plugins use.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/operators/descriptor.h"

namespace isochron {

/// Operator types by type name. [ui/engine setup thread; not for concurrent mutation]
class OperatorRegistry {
public:
    /// Register a type; throws std::invalid_argument if the name is taken or the descriptor is
    /// malformed (empty name, no factory, a repeated port whose count parameter is not an Int, ...).
    void add(OperatorDescriptor descriptor);
    /// Remove a type (used when a plugin is unloaded). Returns whether it existed.
    bool remove(std::string_view typeName);
    const OperatorDescriptor* find(std::string_view typeName) const;
    /// All types, sorted by category then name.
    std::vector<const OperatorDescriptor*> all() const;
    /// Counts changes: every add() and remove() raises it. Descriptor pointers and graphs validated
    /// under an older generation may refer to removed types and must be validated again.
    std::uint64_t generation() const { return generation_; }

private:
    std::map<std::string, std::unique_ptr<OperatorDescriptor>, std::less<>> types_;
    std::uint64_t generation_ = 0;
};

}  // namespace isochron
