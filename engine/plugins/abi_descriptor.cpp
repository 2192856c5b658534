#include "engine/plugins/abi_descriptor.h"

#include <stdexcept>
#include <string>

namespace isochron {
namespace {

std::string text(const char* value) { return value ? value : ""; }

PortSpec portFromAbi(const isochron_port& port, const std::string& where) {
    if (!port.name || !*port.name) throw std::invalid_argument(where + ": has no name");
    const std::string at = where + " '" + port.name + "'";
    const std::string typeText = text(port.type);
    std::optional<PortType> type = PortType::parse(typeText);
    if (!type) throw std::invalid_argument(at + ": '" + typeText + "' is not a port type");
    PortSpec spec;
    spec.name = port.name;
    spec.type = *type;
    spec.doc = text(port.doc);
    spec.optional = (port.flags & ISOCHRON_PORT_OPTIONAL) != 0;
    spec.countParam = text(port.count_param);
    spec.typeFrom = text(port.type_from);
    spec.typeParam = text(port.type_param);
    return spec;
}

ParamSpec paramFromAbi(const isochron_param& param, const std::string& where) {
    if (!param.name || !*param.name) throw std::invalid_argument(where + ": has no name");
    const std::string at = where + " '" + param.name + "'";
    if (param.kind > ISOCHRON_PARAM_PATH) throw std::invalid_argument(at + ": kind " + std::to_string(param.kind) + " is not a parameter kind");
    ParamSpec spec;
    spec.name = param.name;
    spec.kind = static_cast<ParamKind>(param.kind);  // the ABI numbers the kinds as ParamKind does
    if (param.flags & ISOCHRON_PARAM_HAS_MINIMUM) spec.minimum = param.minimum;
    if (param.flags & ISOCHRON_PARAM_HAS_MAXIMUM) spec.maximum = param.maximum;
    spec.unit = text(param.unit);
    spec.doc = text(param.doc);
    spec.live = (param.flags & ISOCHRON_PARAM_LIVE) != 0;
    for (std::uint32_t i = 0; i < param.choice_count; ++i) spec.choices.push_back(text(param.choices[i]));
    ParamValue byDefault;
    switch (spec.kind) {
        case ParamKind::Bool: byDefault = param.default_number != 0; break;
        case ParamKind::Int: byDefault = static_cast<std::int64_t>(param.default_number); break;
        case ParamKind::Real: byDefault = param.default_number; break;
        case ParamKind::String:
        case ParamKind::Choice:
        case ParamKind::Path: byDefault = text(param.default_text); break;
        case ParamKind::RealList: byDefault = std::vector<double>(param.default_list, param.default_list + param.default_list_length); break;
    }
    std::string error;
    std::optional<ParamValue> valid = spec.validate(byDefault, error);
    if (!valid) throw std::invalid_argument(at + ": the default " + paramValueToText(byDefault) + " is not valid: " + error);
    spec.defaultValue = *valid;
    return spec;
}

}  // namespace

static_assert(static_cast<int>(ParamKind::Path) == ISOCHRON_PARAM_PATH && static_cast<int>(ParamKind::RealList) == ISOCHRON_PARAM_REAL_LIST,
              "the ABI numbers parameter kinds as ParamKind does");

OperatorDescriptor descriptorFromAbi(const isochron_operator_type& type) {
    if (!type.type_name || !*type.type_name) throw std::invalid_argument("an operator type has no type_name");
    OperatorDescriptor d;
    d.typeName = type.type_name;
    const std::string where = "operator '" + d.typeName + "'";
    if (!type.create) throw std::invalid_argument(where + ": has no create function");
    d.category = text(type.category);
    d.summary = text(type.summary);
    d.documentation = text(type.documentation);
    for (std::uint32_t i = 0; i < type.input_count; ++i) d.inputs.push_back(portFromAbi(type.inputs[i], where + ", inputs[" + std::to_string(i) + "]"));
    for (std::uint32_t i = 0; i < type.output_count; ++i) d.outputs.push_back(portFromAbi(type.outputs[i], where + ", outputs[" + std::to_string(i) + "]"));
    for (std::uint32_t i = 0; i < type.param_count; ++i) d.params.push_back(paramFromAbi(type.params[i], where + ", params[" + std::to_string(i) + "]"));
    return d;
}

}  // namespace isochron
