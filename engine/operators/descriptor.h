// What an operator type declares about itself: name, category, docs, typed ports and parameters.
// Built-ins and plugins describe themselves the same way; the editor's palette, the graph validator
// and the runner's --help all read these descriptors.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/operators/channel_layout.h"
#include "engine/operators/parameter.h"
#include "engine/operators/port_type.h"

namespace isochron {

class Operator;

/// One declared port. A port with `countParam` is repeated: parameter `countParam` (an Int) says how
/// many, and they are named name0, name1, ... An output with `typeFrom` takes the resolved type of
/// that input (same index for repeated ports), e.g. a pass-through's output is whatever flows in.
/// A port with `typeParam` has the type named by that String/Choice parameter (e.g. "signal<f64>").
/// In a graph file, "node.group*" names a whole repeated group: an edge between two groups (a bus)
/// connects them index by index, and a count parameter left at 0 takes the size of the bus feeding it.
struct PortSpec {
    std::string name;
    PortType type;
    std::string doc;
    bool optional = false;   ///< inputs only: may be left unconnected (treated as ended)
    std::string countParam;  ///< repeated port: Int parameter giving the count
    std::string typeFrom;    ///< outputs only: copy the type of this input
    std::string typeParam;   ///< the type is the value of this parameter (a PortType name)
};

/// A port of one node after repeated ports are expanded. [value type]
struct ResolvedPort {
    std::string name;
    PortType type;
    int specIndex = 0;   ///< which PortSpec it comes from
    int groupIndex = 0;  ///< index within a repeated group (0 otherwise)
    bool optional = false;
};

struct OperatorDescriptor;

/// A problem with one parameter, thrown by deriveParams or checkUpstream so that the error names it. [value type]
class ParameterError : public std::runtime_error {
public:
    ParameterError(std::string param, const std::string& message) : std::runtime_error(message), param_(std::move(param)) {}
    /// The parameter's name.
    const std::string& param() const { return param_; }

private:
    std::string param_;
};

/// A node with a path to the one being checked, as checkUpstream sees it. [valid during the call]
struct UpstreamNode {
    const std::string* id = nullptr;
    const OperatorDescriptor* descriptor = nullptr;
    const ParamSet* params = nullptr;  ///< validated, derived parameters
};

/// Everything the host needs to list, validate and instantiate an operator type. [immutable once registered]
struct OperatorDescriptor {
    std::string typeName;       ///< unique, "family.name", e.g. "spectral.fft"
    std::string category;       ///< palette group, e.g. "spectral"
    std::string summary;        ///< one line for palettes and --list-operators
    std::string documentation;  ///< longer text for the inspector (may be empty)
    std::vector<PortSpec> inputs;
    std::vector<PortSpec> outputs;
    std::vector<ParamSpec> params;
    /// A fresh, inactive instance; throw to refuse (the message names the node). [setup thread] [may allocate]
    std::function<std::unique_ptr<Operator>()> create;
    /// Optional, at validation: fill parameters that depend on the outside world, e.g. a file
    /// source's channel count when it is 0 ("as in the file"). Throw std::exception with a message
    /// to report a problem on the node. [setup thread]
    std::function<void(ParamSet& params)> deriveParams;
    /// Optional, at validation once the graph is wired: check the parameters against the nodes upstream
    /// (every node with a path to this one, nearest first), e.g. an array geometry against the channels
    /// that reach it. Throw ParameterError (or std::exception) to report a problem on the node. Skipped
    /// when a node upstream could not derive its parameters (that is the problem to report). [setup thread]
    std::function<void(const ParamSet& params, const std::vector<UpstreamNode>& upstream)> checkUpstream;
    /// Optional, for sources: why a source with these (validated) parameters never ends ("duration
    /// is 0"), or "" when it ends by itself. `isochron-run --check` warns that such a run ends only
    /// when stopped. [setup thread]
    std::function<std::string(const ParamSet& params)> endlessBecause;
    /// Optional, for `isochron-run --check`: what starting a node with these (validated) parameters
    /// would say, found without starting it (a sound file that holds a header only, a capture device
    /// that is missing): the warnings its start would give, word for word. Throw std::exception with
    /// the message its start would refuse with. [setup thread]
    std::function<std::vector<std::string>(const ParamSet& params)> checkStart;
    /// Optional: whether, with these parameters, every item received makes at least one item on every
    /// output (true: a pass-through, a universal box of selectivity 1), or whether items may be
    /// dropped (false: a universal box of selectivity below 1), which lets a loop through the node
    /// drain. Absent means "not known": a loop with no node declaring false is warned about by
    /// `isochron-run --check` (see engine/graph/endless_run.h). [setup thread]
    std::function<bool(const ParamSet& params)> passesEveryItem;
    /// Optional: the channels each output carries (one layout per resolved output port, `outputs` of
    /// them), from the parameters and what each resolved input carries (an empty layout: unknown or
    /// unconnected). Sources name and place their channels here. Absent: an output whose type follows
    /// an input ("typeFrom") carries that input's channels, the others are unknown. Throw
    /// ParameterError to report a problem on the node. [setup thread]
    std::function<std::vector<ChannelLayout>(const ParamSet& params, const std::vector<ChannelLayout>& inputs, std::size_t outputs)>
        channelsOut;
    /// Optional, once the channels are known and before checkUpstream: fill parameters from what flows
    /// in (`channels[i]` is what resolved input `inputs[i]` carries), e.g. an array geometry left empty
    /// from the inputs' microphone positions. Throw ParameterError to report a problem on the node. [setup thread]
    std::function<void(ParamSet& params, const std::vector<ResolvedPort>& inputs, const std::vector<ChannelLayout>& channels)> adoptChannels;
    std::string origin = "built-in";  ///< "built-in" or the plugin file it came from

    /// No inputs: the engine calls produce() instead of process(). [any thread] [no allocation]
    bool isSource() const { return inputs.empty(); }
    /// The spec of parameter `name`, or null. [any thread] [no allocation]
    const ParamSpec* findParam(std::string_view name) const;
    /// The node's ports for these (validated) parameters. [any thread] [may allocate]
    std::vector<ResolvedPort> resolveInputs(const ParamSet& params) const;
    std::vector<ResolvedPort> resolveOutputs(const ParamSet& params) const;
    /// The index in `inputs` (this node's resolved inputs) of the input whose type output `out`
    /// follows ("typeFrom"; in a repeated group, the input of the same index), or -1. [may allocate]
    int followedInput(const std::vector<ResolvedPort>& inputs, const ResolvedPort& out) const;
};

/// `descriptor` with channelsOut = channelsPortToPort, for operators whose output k carries the channel
/// of input k (a filter, a gain, a meter). [setup thread]
OperatorDescriptor keepingChannels(OperatorDescriptor descriptor);

}  // namespace isochron
