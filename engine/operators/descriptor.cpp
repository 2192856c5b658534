#include "engine/operators/descriptor.h"

namespace isochron {
namespace {

std::vector<ResolvedPort> resolve(const std::vector<PortSpec>& specs, const ParamSet& params) {
    std::vector<ResolvedPort> ports;
    for (std::size_t s = 0; s < specs.size(); ++s) {
        const PortSpec& spec = specs[s];
        PortType type = spec.type;
        if (!spec.typeParam.empty() && params.has(spec.typeParam)) {
            if (auto named = PortType::parse(params.getString(spec.typeParam))) type = *named;
        }
        if (spec.countParam.empty()) {
            ports.push_back({spec.name, type, static_cast<int>(s), 0, spec.optional});
            continue;
        }
        std::int64_t count = params.has(spec.countParam) ? params.getInt(spec.countParam) : 0;
        for (std::int64_t i = 0; i < count; ++i) {
            ports.push_back({spec.name + std::to_string(i), type, static_cast<int>(s), static_cast<int>(i), spec.optional});
        }
    }
    return ports;
}

}  // namespace

const ParamSpec* OperatorDescriptor::findParam(std::string_view name) const {
    for (const auto& p : params) {
        if (p.name == name) return &p;
    }
    return nullptr;
}

std::vector<ResolvedPort> OperatorDescriptor::resolveInputs(const ParamSet& p) const { return resolve(inputs, p); }
std::vector<ResolvedPort> OperatorDescriptor::resolveOutputs(const ParamSet& p) const { return resolve(outputs, p); }

int OperatorDescriptor::followedInput(const std::vector<ResolvedPort>& resolvedInputs, const ResolvedPort& out) const {
    const PortSpec& spec = outputs[static_cast<std::size_t>(out.specIndex)];
    if (spec.typeFrom.empty()) return -1;
    const PortSpec* inSpec = nullptr;
    for (const auto& candidate : inputs) {
        if (candidate.name == spec.typeFrom) inSpec = &candidate;
    }
    const std::string name = spec.typeFrom + (inSpec && !inSpec->countParam.empty() ? std::to_string(out.groupIndex) : "");
    for (std::size_t i = 0; i < resolvedInputs.size(); ++i) {
        if (resolvedInputs[i].name == name) return static_cast<int>(i);
    }
    return -1;
}

OperatorDescriptor keepingChannels(OperatorDescriptor descriptor) {
    descriptor.channelsOut = channelsPortToPort;
    return descriptor;
}

}  // namespace isochron
