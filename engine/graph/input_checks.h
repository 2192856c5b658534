// Input checks: an operator type's check, at validation, of what flows into each of its inputs (the
// type each feeder produces, and which node feeds it), so that `isochron-run --check` refuses what the
// operator would refuse only at its start or at its first items (io.archive_sink: a frame input, two
// rates in one stream). OperatorDescriptor::checkUpstream sees the nodes upstream, not which input
// each feeds; these checks are kept by type name and run by the validator after it.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/operators/descriptor.h"

namespace isochron {

/// A problem with one input port, thrown by an InputCheck so that the error names it. [value type]
class InputPortError : public std::runtime_error {
public:
    InputPortError(std::string port, const std::string& message) : std::runtime_error(message), port_(std::move(port)) {}
    /// The input port's name.
    const std::string& port() const { return port_; }

private:
    std::string port_;
};

/// The node feeding one input of the node being checked. [valid during the call]
struct InputFeeder {
    const std::string* id = nullptr;  ///< null: the input is not connected
    const OperatorDescriptor* descriptor = nullptr;
    const ParamSet* params = nullptr;  ///< validated, derived parameters
};

/// Checks a node's inputs: `inputs` are its resolved inputs, each typed as its feeder produces (a
/// wildcard when unconnected), `feeders[i]` the node feeding inputs[i]. Throws InputPortError (or
/// ParameterError, std::exception) to report a problem on the node. [setup thread]
using InputCheck = std::function<void(const ParamSet& params, const std::vector<ResolvedPort>& inputs, const std::vector<InputFeeder>& feeders)>;

/// Makes `check` the input check of operator type `typeName` (replacing one set before). [setup thread]
void setInputCheck(std::string typeName, InputCheck check);
/// The input check of `typeName`, or null. [setup thread]
const InputCheck* inputCheckOf(std::string_view typeName);

}  // namespace isochron
