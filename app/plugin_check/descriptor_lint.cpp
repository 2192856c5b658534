#include "app/plugin_check/descriptor_lint.h"

namespace isochron::check {

std::vector<std::string> descriptorShortcomings(const OperatorDescriptor& d) {
    std::vector<std::string> problems;
    const auto dot = d.typeName.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == d.typeName.size()) {
        problems.push_back("type name '" + d.typeName + "' is not of the form family.name");
    }
    if (d.category.empty()) problems.push_back("no category (the palette groups by it)");
    if (d.summary.empty()) problems.push_back("no summary (the palette shows it)");
    for (const auto* group : {&d.inputs, &d.outputs}) {
        const char* side = group == &d.inputs ? "input" : "output";
        for (const PortSpec& port : *group) {
            if (port.doc.empty()) problems.push_back(std::string(side) + " '" + port.name + "' has no doc");
        }
    }
    for (const ParamSpec& param : d.params) {
        if (param.doc.empty()) problems.push_back("parameter '" + param.name + "' has no doc");
        const bool numeric = param.kind == ParamKind::Int || param.kind == ParamKind::Real || param.kind == ParamKind::RealList;
        if (numeric && (!param.minimum || !param.maximum)) {
            problems.push_back("parameter '" + param.name + "' has no range (set minimum and maximum, so the UI can validate)");
        }
    }
    return problems;
}

}  // namespace isochron::check
