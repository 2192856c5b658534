#include "engine/plugins/descriptor_json.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "engine/plugins/json_fields.h"

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

PortSpec portFromJson(const json& in, const std::string& where) {
    if (!in.is_object()) throw std::invalid_argument(where + ": must be an object");
    PortSpec port;
    port.name = jsonField<std::string>(in, "name", where);
    const std::string typeText = jsonField<std::string>(in, "type", where);
    auto type = PortType::parse(typeText);
    if (!type) throw std::invalid_argument(where + ".type: '" + typeText + "' is not a port type");
    port.type = *type;
    port.doc = jsonField<std::string>(in, "doc", where, std::string());
    port.optional = jsonField<bool>(in, "optional", where, false);
    port.countParam = jsonField<std::string>(in, "count_param", where, std::string());
    port.typeFrom = jsonField<std::string>(in, "type_from", where, std::string());
    port.typeParam = jsonField<std::string>(in, "type_param", where, std::string());
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
    param.name = jsonField<std::string>(in, "name", where);
    param.kind = kindFromName(jsonField<std::string>(in, "kind", where), where);
    if (in.contains("min")) param.minimum = jsonField<double>(in, "min", where);
    if (in.contains("max")) param.maximum = jsonField<double>(in, "max", where);
    param.unit = jsonField<std::string>(in, "unit", where, std::string());
    param.doc = jsonField<std::string>(in, "doc", where, std::string());
    param.choices = jsonField<std::vector<std::string>>(in, "choices", where, std::vector<std::string>());
    param.live = jsonField<bool>(in, "live", where, false);
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

// Differences between two flat JSON objects (a port, a parameter or the descriptor's own fields),
// one sentence per key, each starting with `prefix`.
void objectDifferences(const ordered_json& declared, const ordered_json& actual, const std::string& prefix,
                       std::vector<std::string>& differences) {
    for (const auto& [key, value] : declared.items()) {
        if (value.is_array() && (key == "inputs" || key == "outputs" || key == "params")) continue;
        if (!actual.contains(key)) differences.push_back(prefix + key + ": the manifest says " + value.dump() + ", the binary has none");
        else if (actual.at(key) != value) differences.push_back(prefix + key + ": the manifest says " + value.dump() + ", the binary " + actual.at(key).dump());
    }
    for (const auto& [key, value] : actual.items()) {
        if (value.is_array() && (key == "inputs" || key == "outputs" || key == "params")) continue;
        if (!declared.contains(key)) differences.push_back(prefix + key + ": the binary says " + value.dump() + ", the manifest has none");
    }
}

std::vector<std::string> namesIn(const ordered_json& list) {
    std::vector<std::string> names;
    for (const auto& entry : list) names.push_back(entry.value("name", std::string()));
    return names;
}

std::string joinedNames(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
    return text;
}

// Ports or parameters matched by name: missing on either side, differing fields, and for ports
// (which the ABI numbers by position) another order; parameters are read by name, in any order.
enum class Order { Matters, Free };
void groupDifferences(const ordered_json& declared, const ordered_json& actual, const std::string& group, const std::string& what, Order order,
                      std::vector<std::string>& differences) {
    const std::vector<std::string> declaredNames = namesIn(declared), actualNames = namesIn(actual);
    std::vector<std::string> declaredCommon, actualCommon;
    for (std::size_t i = 0; i < declared.size(); ++i) {
        auto match = std::find(actualNames.begin(), actualNames.end(), declaredNames[i]);
        if (match == actualNames.end()) {
            differences.push_back(what + " '" + declaredNames[i] + "' is in the manifest but not in the binary");
            continue;
        }
        declaredCommon.push_back(declaredNames[i]);
        objectDifferences(declared[i], actual[static_cast<std::size_t>(match - actualNames.begin())], what + " '" + declaredNames[i] + "', ",
                          differences);
    }
    for (const auto& name : actualNames) {
        if (std::find(declaredNames.begin(), declaredNames.end(), name) == declaredNames.end()) {
            differences.push_back(what + " '" + name + "' is in the binary but not in the manifest");
        } else {
            actualCommon.push_back(name);
        }
    }
    if (order == Order::Matters && declaredCommon != actualCommon) {
        differences.push_back(group + " are in another order: the manifest lists [" + joinedNames(declaredCommon) + "], the binary [" +
                              joinedNames(actualCommon) + "]");
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
    d.typeName = jsonField<std::string>(in, "type", "operator");
    const std::string where = "operator '" + d.typeName + "'";
    d.category = jsonField<std::string>(in, "category", where);
    d.summary = jsonField<std::string>(in, "summary", where);
    d.documentation = jsonField<std::string>(in, "documentation", where, std::string());
    d.inputs = listFromJson<PortSpec>(in, "inputs", where, portFromJson);
    d.outputs = listFromJson<PortSpec>(in, "outputs", where, portFromJson);
    d.params = listFromJson<ParamSpec>(in, "params", where, paramFromJson);
    // Ports and parameters are addressed by name: a second one of a name could never be reached
    // (found by fuzz_plugin_manifest: a manifest with it did not read back to itself).
    auto requireUniqueNames = [&](const auto& list, const char* field) {
        std::set<std::string> seen;
        for (const auto& entry : list) {
            if (!seen.insert(entry.name).second) throw std::invalid_argument(where + "." + field + ": '" + entry.name + "' appears twice");
        }
    };
    requireUniqueNames(d.inputs, "inputs");
    requireUniqueNames(d.outputs, "outputs");
    requireUniqueNames(d.params, "params");
    return d;
}

std::vector<std::string> descriptorDifferences(const OperatorDescriptor& declared, const OperatorDescriptor& actual) {
    std::vector<std::string> differences;
    const ordered_json declaredJson = descriptorToJson(declared), actualJson = descriptorToJson(actual);
    objectDifferences(declaredJson, actualJson, "", differences);
    groupDifferences(declaredJson["inputs"], actualJson["inputs"], "inputs", "input", Order::Matters, differences);
    groupDifferences(declaredJson["outputs"], actualJson["outputs"], "outputs", "output", Order::Matters, differences);
    groupDifferences(declaredJson["params"], actualJson["params"], "parameters", "parameter", Order::Free, differences);
    return differences;
}

}  // namespace isochron
