#include "engine/graph/graph_error.h"

namespace isochron {
namespace {

std::string joinErrors(const std::vector<GraphError>& errors) {
    std::string text;
    for (const auto& e : errors) {
        if (!text.empty()) text += '\n';
        text += e.toString();
    }
    return text;
}

}  // namespace

std::string GraphError::toString() const {
    std::string where;
    if (!node.empty()) where += "node '" + node + "'";
    if (!port.empty()) where += (where.empty() ? "" : ", ") + std::string("port '") + port + "'";
    if (!field.empty()) {
        std::string f = field;
        if (f.rfind("params.", 0) == 0) f = "parameter '" + f.substr(7) + "'";
        else f = "field '" + f + "'";
        where += (where.empty() ? "" : ", ") + f;
    }
    return where.empty() ? message : where + ": " + message;
}

GraphException::GraphException(std::vector<GraphError> errors)
    : std::runtime_error(joinErrors(errors)), errors_(std::move(errors)) {}

}  // namespace isochron
