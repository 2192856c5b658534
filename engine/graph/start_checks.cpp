#include "engine/graph/start_checks.h"

#include <exception>
#include <string>

namespace isochron {

std::vector<GraphError> startWarnings(const ValidatedGraph& graph) {
    std::vector<GraphError> warnings;
    std::vector<GraphError> refusals;
    for (const ValidatedNode& node : graph.nodes) {
        if (!node.descriptor->checkStart) continue;
        const std::string origin = node.descriptor->origin == "built-in" ? "" : " [plugin " + node.descriptor->origin + "]";
        try {
            for (std::string& warning : node.descriptor->checkStart(node.params)) warnings.push_back({node.id, "", "", std::move(warning)});
        } catch (const std::exception& e) {
            refusals.push_back({node.id, "", "", std::string("cannot start: ") + e.what() + origin});
        }
    }
    if (!refusals.empty()) throw GraphException(std::move(refusals));
    return warnings;
}

}  // namespace isochron
