#include "engine/plugins/descriptor_json.h"

#include <stdexcept>

namespace isochron {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json portToJson(const PortSpec& port) {
    ordered_json out;
    out["name"] = port.name;
    out["type"] = port.type.toString();
    out["doc"] = port.doc;
    if (port.optional) out["optional"] = true;
    if (!port.countParam.empty()) out["count_param"] = port.countParam;
    if (!port.typeFrom.empty()) out["type_from"] = port.typeFrom;
    if (!port.typeParam.empty()) out["type_param"] = port.typeParam;
    return out;
}

ordered_json paramToJson(const ParamSpec& param) {
    ordered_json out;
    out["name"] = param.name;
    out["kind"] = paramKindName(param.kind);
    out["default"] = paramValueToJson(param.defaultValue);
    if (param.minimum) out["min"] = *param.minimum;
    if (param.maximum) out["max"] = *param.maximum;
    if (!param.unit.empty()) out["unit"] = param.unit;
    out["doc"] = param.doc;
    if (!param.choices.empty()) out["choices"] = param.choices;
    if (param.live) out["live"] = true;
    return out;
}

// Reads one field, naming it in the error when it is missing or of the wrong type.
template <class T> T field(const json& object, const char* key, const std::string& where, std::optional<T> fallback = {}) {
    if (!object.contains(key)) {
        if (fallback) return *fallback;
        throw std::invalid_argument(where + "." + key + ": missing");
    }
    try {
        return object.at(key).get<T>();
    } catch (const json::exception&) {
        throw std::invalid_argument(where + "." + key + ": has the wrong type (" + object.at(key).dump() + ")");
    }
}

PortSpec portFromJson(const json& in, const std::string& where) {
    if (!in.is_object()) throw std::invalid_argument(where + ": must be an object");
    PortSpec port;
    port.name = field<std::string>(in, "name", where);
    const std::string typeText = field<std::string>(in, "type", where);
    auto type = PortType::parse(typeText);
    if (!type) throw std::invalid_argument(where + ".type: '" + typeText + "' is not a port type");
    port.type = *type;
    port.doc = field<std::string>(in, "doc", where, std::string());
    port.optional = field<bool>(in, "optional", where, false);
    port.countParam = field<std::string>(in, "count_param", where, std::string());
    port.typeFrom = field<std::string>(in, "type_from", where, std::string());
    port.typeParam = field<std::string>(in, "type_param", where, std::string());
    return port;
}

ParamKind kindFromName(const std::string& name, const std::string& where) {
    for (ParamKind kind : {ParamKind::Bool, ParamKind::Int, ParamKind::Real, ParamKind::String, ParamKind::Choice,
                           ParamKind::RealList, ParamKind::Path}) {
        if (paramKindName(kind) == name) return kind;
    }
    throw std::invalid_argument(where + ".kind: '" + name + "' is not a parameter kind");
}

ParamSpec paramFromJson(const json& in, const std::string& where) {
    if (!in.is_object()) throw std::invalid_argument(where + ": must be an object");
    ParamSpec param;
    param.name = field<std::string>(in, "name", where);
    param.kind = kindFromName(field<std::string>(in, "kind", where), where);
    if (in.contains("min")) param.minimum = field<double>(in, "min", where);
    if (in.contains("max")) param.maximum = field<double>(in, "max", where);
    param.unit = field<std::string>(in, "unit", where, std::string());
    param.doc = field<std::string>(in, "doc", where, std::string());
    param.choices = field<std::vector<std::string>>(in, "choices", where, std::vector<std::string>());
    param.live = field<bool>(in, "live", where, false);
    if (!in.contains("default")) throw std::invalid_argument(where + ".default: missing");
    std::string error;
    auto value = param.fromJson(in.at("default"), error);
    if (!value) throw std::invalid_argument(where + ".default: " + error);
    param.defaultValue = *value;
    return param;
}

template <class Spec, class Read>
std::vector<Spec> listFromJson(const json& object, const char* key, const std::string& where, Read read) {
    std::vector<Spec> list;
    if (!object.contains(key)) return list;
    const json& array = object.at(key);
    if (!array.is_array()) throw std::invalid_argument(where + "." + key + ": must be an array");
    for (std::size_t i = 0; i < array.size(); ++i) list.push_back(read(array[i], where + "." + key + "[" + std::to_string(i) + "]"));
    return list;
}

void collectDifferences(const ordered_json& declared, const ordered_json& actual, const std::string& path,
                        std::vector<std::string>& differences) {
    if (declared.is_object() && actual.is_object()) {
        for (const auto& [key, value] : declared.items()) {
            const std::string at = path.empty() ? key : path + "." + key;
            if (!actual.contains(key)) differences.push_back(at + ": the manifest says " + value.dump() + ", the binary has none");
            else collectDifferences(value, actual.at(key), at, differences);
        }
        for (const auto& [key, value] : actual.items()) {
            const std::string at = path.empty() ? key : path + "." + key;
            if (!declared.contains(key)) differences.push_back(at + ": the binary says " + value.dump() + ", the manifest has none");
        }
        return;
    }
    if (declared.is_array() && actual.is_array()) {
        const std::size_t common = std::min(declared.size(), actual.size());
        for (std::size_t i = 0; i < common; ++i) collectDifferences(declared[i], actual[i], path + "[" + std::to_string(i) + "]", differences);
        if (declared.size() != actual.size()) {
            differences.push_back(path + ": the manifest lists " + std::to_string(declared.size()) + ", the binary " +
                                  std::to_string(actual.size()));
        }
        return;
    }
    if (declared != actual) {
        differences.push_back(path + ": the manifest says " + declared.dump() + ", the binary " + actual.dump());
    }
}

}  // namespace

ordered_json descriptorToJson(const OperatorDescriptor& d) {
    ordered_json out;
    out["type"] = d.typeName;
    out["category"] = d.category;
    out["summary"] = d.summary;
    if (!d.documentation.empty()) out["documentation"] = d.documentation;
    out["inputs"] = ordered_json::array();
    for (const auto& port : d.inputs) out["inputs"].push_back(portToJson(port));
    out["outputs"] = ordered_json::array();
    for (const auto& port : d.outputs) out["outputs"].push_back(portToJson(port));
    out["params"] = ordered_json::array();
    for (const auto& param : d.params) out["params"].push_back(paramToJson(param));
    return out;
}

OperatorDescriptor descriptorFromJson(const json& in) {
    if (!in.is_object()) throw std::invalid_argument("an operator must be a JSON object");
    OperatorDescriptor d;
    d.typeName = field<std::string>(in, "type", "operator");
    const std::string where = "operator '" + d.typeName + "'";
    d.category = field<std::string>(in, "category", where);
    d.summary = field<std::string>(in, "summary", where);
    d.documentation = field<std::string>(in, "documentation", where, std::string());
    d.inputs = listFromJson<PortSpec>(in, "inputs", where, portFromJson);
    d.outputs = listFromJson<PortSpec>(in, "outputs", where, portFromJson);
    d.params = listFromJson<ParamSpec>(in, "params", where, paramFromJson);
    return d;
}

std::vector<std::string> descriptorDifferences(const OperatorDescriptor& declared, const OperatorDescriptor& actual) {
    std::vector<std::string> differences;
    collectDifferences(descriptorToJson(declared), descriptorToJson(actual), "", differences);
    return differences;
}

}  // namespace isochron
