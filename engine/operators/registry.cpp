#include "engine/operators/registry.h"

#include <algorithm>
#include <stdexcept>

namespace isochron {
namespace {

void checkDescriptor(const OperatorDescriptor& d) {
    auto fail = [&](const std::string& why) {
        throw std::invalid_argument("operator type '" + d.typeName + "': " + why);
    };
    if (d.typeName.empty()) throw std::invalid_argument("operator type with an empty name");
    if (!d.create) fail("no factory");
    for (const auto& group : {&d.inputs, &d.outputs}) {
        for (const auto& port : *group) {
            if (port.name.empty()) fail("a port without a name");
            if (!port.typeParam.empty()) {
                const ParamSpec* named = d.findParam(port.typeParam);
                if (!named || (named->kind != ParamKind::String && named->kind != ParamKind::Choice)) {
                    fail("port '" + port.name + "' takes its type from '" + port.typeParam + "', which is not a string parameter");
                }
            }
            if (!port.countParam.empty()) {
                const ParamSpec* count = d.findParam(port.countParam);
                if (!count || count->kind != ParamKind::Int) {
                    fail("port '" + port.name + "' is repeated by '" + port.countParam + "', which is not an int parameter");
                }
            }
        }
    }
    for (const auto& port : d.outputs) {
        if (port.typeFrom.empty()) continue;
        bool found = std::any_of(d.inputs.begin(), d.inputs.end(), [&](const PortSpec& in) { return in.name == port.typeFrom; });
        if (!found) fail("output '" + port.name + "' takes its type from unknown input '" + port.typeFrom + "'");
    }
    for (const auto& param : d.params) {
        std::string error;
        if (!param.validate(param.defaultValue, error)) fail("parameter '" + param.name + "' default: " + error);
    }
}

}  // namespace

void OperatorRegistry::add(OperatorDescriptor descriptor) {
    checkDescriptor(descriptor);
    if (types_.count(descriptor.typeName)) {
        throw std::invalid_argument("operator type '" + descriptor.typeName + "' is already registered (by " +
                                    types_[descriptor.typeName]->origin + ")");
    }
    std::string name = descriptor.typeName;
    types_.emplace(std::move(name), std::make_unique<OperatorDescriptor>(std::move(descriptor)));
    ++generation_;
}

bool OperatorRegistry::remove(std::string_view typeName) {
    auto it = types_.find(typeName);
    if (it == types_.end()) return false;
    types_.erase(it);
    ++generation_;
    return true;
}

const OperatorDescriptor* OperatorRegistry::find(std::string_view typeName) const {
    auto it = types_.find(typeName);
    return it == types_.end() ? nullptr : it->second.get();
}

std::vector<const OperatorDescriptor*> OperatorRegistry::all() const {
    std::vector<const OperatorDescriptor*> list;
    for (const auto& [name, d] : types_) list.push_back(d.get());
    std::sort(list.begin(), list.end(), [](auto* a, auto* b) {
        return std::tie(a->category, a->typeName) < std::tie(b->category, b->typeName);
    });
    return list;
}

}  // namespace isochron
