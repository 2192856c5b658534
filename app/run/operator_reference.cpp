#include "app/run/operator_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace isochron::run {
namespace {

/// A range bound as short text ("0", "1e+06", "0.5"), in full when the short form would round it
/// ("16777216", not "1.67772e+07").
std::string bound(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    if (std::strtod(buffer, nullptr) != value) std::snprintf(buffer, sizeof buffer, "%.15g", value);
    return buffer;
}

std::string rangeText(const ParamSpec& spec) {
    if (!spec.choices.empty()) {
        std::string text;
        for (const std::string& choice : spec.choices) text += (text.empty() ? "" : ", ") + ("`" + choice + "`");
        return text;
    }
    if (!spec.minimum && !spec.maximum) return "";
    if (spec.minimum && spec.maximum) return bound(*spec.minimum) + " .. " + bound(*spec.maximum);
    return spec.minimum ? "≥ " + bound(*spec.minimum) : "≤ " + bound(*spec.maximum);
}

/// Text safe inside a Markdown table cell.
std::string cell(std::string text) {
    std::string escaped;
    for (char c : text) {
        if (c == '|') escaped += "\\|";
        else if (c == '\n') escaped += ' ';
        else escaped += c;
    }
    return escaped;
}

std::string portName(const PortSpec& port) {
    return port.countParam.empty() ? port.name : port.name + "0, " + port.name + "1, ... (`" + port.countParam + "` of them)";
}

std::string portType(const PortSpec& port) {
    if (!port.typeParam.empty()) return "set by `" + port.typeParam + "`";
    if (!port.typeFrom.empty()) return "same as `" + port.typeFrom + "`";
    return "`" + port.type.toString() + "`";
}

void writeOperator(const OperatorDescriptor& d, std::ostream& out) {
    out << "### `" << d.typeName << "`\n\n" << d.summary << (d.summary.ends_with('.') ? "\n\n" : ".\n\n");
    if (!d.documentation.empty()) out << d.documentation << "\n\n";
    if (!d.inputs.empty() || !d.outputs.empty()) {
        out << "| port | type | what |\n| --- | --- | --- |\n";
        for (const PortSpec& port : d.inputs) {
            out << "| in: " << portName(port) << " | " << portType(port) << " | " << cell(port.doc) << (port.optional ? " (optional)" : "") << " |\n";
        }
        for (const PortSpec& port : d.outputs) out << "| out: " << portName(port) << " | " << portType(port) << " | " << cell(port.doc) << " |\n";
        out << "\n";
    }
    if (!d.params.empty()) {
        out << "| parameter | type | unit | range | default | live | what |\n| --- | --- | --- | --- | --- | --- | --- |\n";
        for (const ParamSpec& p : d.params) {
            const std::string defaultText = paramValueToText(p.defaultValue);
            out << "| `" << p.name << "` | " << paramKindName(p.kind) << " | " << p.unit << " | " << cell(rangeText(p)) << " | "
                << (defaultText.empty() ? "" : "`" + cell(defaultText) + "`") << " | " << (p.live ? "yes" : "") << " | " << cell(p.doc) << " |\n";
        }
        out << "\n";
    }
}

}  // namespace

void writeOperatorReference(const OperatorRegistry& registry, std::ostream& out) {
    std::vector<std::string> families;
    std::vector<const OperatorDescriptor*> builtIn;
    for (const OperatorDescriptor* d : registry.all()) {
        if (d->origin != "built-in") continue;
        builtIn.push_back(d);
        if (std::find(families.begin(), families.end(), d->category) == families.end()) families.push_back(d->category);
    }
    out << "# Operator reference\n\n"
        << "Generated from the operators' descriptors by `cmake --build --preset release --target operator-reference`\n"
        << "(`isochron-run --operator-reference docs/operators.md`); do not edit by hand. " << builtIn.size()
        << " built-in operators in " << families.size() << " families.\n\n";
    for (const std::string& family : families) out << "- [" << family << "](#" << family << ")\n";
    for (const std::string& family : families) {
        out << "\n## " << family << "\n\n";
        for (const OperatorDescriptor* d : builtIn) {
            if (d->category == family) writeOperator(*d, out);
        }
    }
}

}  // namespace isochron::run
