// A problem found while loading or validating a graph, located by node, port and field.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace isochron {

/// One located problem. Empty location parts mean "not about a particular node/port/field".
struct GraphError {
    std::string node;     ///< node id
    std::string port;     ///< port name
    std::string field;    ///< e.g. "type", "params.size", "edges[3].to"
    std::string message;  ///< what is wrong, as a sentence fragment

    /// e.g. "node 'gen', parameter 'block': 0 is below the minimum 1"
    std::string toString() const;
};

/// Thrown when a graph cannot be loaded or started; carries every problem found.
class GraphException : public std::runtime_error {
public:
    explicit GraphException(std::vector<GraphError> errors);
    const std::vector<GraphError>& errors() const { return errors_; }

private:
    std::vector<GraphError> errors_;
};

}  // namespace isochron
