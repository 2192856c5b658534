#include "engine/graph/validated_graph.h"

#include "engine/graph/channel_layouts.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/graph_paths.h"
#include "engine/graph/input_checks.h"
#include "engine/graph/node_surroundings.h"
#include "engine/graph/subgraph.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace isochron {
namespace {

std::string listNames(const std::vector<ResolvedPort>& ports) {
    std::string text;
    for (const auto& p : ports) text += (text.empty() ? "" : ", ") + p.name;
    return text.empty() ? "none" : text;
}

int findPort(const std::vector<ResolvedPort>& ports, const std::string& name) {
    for (std::size_t i = 0; i < ports.size(); ++i) {
        if (ports[i].name == name) return static_cast<int>(i);
    }
    return -1;
}

// Edit distance between two names (insertions, deletions, substitutions).
std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// The closest registered type name, to suggest on a typo.
std::string closestTypeName(const OperatorRegistry& registry, const std::string& name) {
    std::string best;
    std::size_t bestDistance = 4;
    for (const auto* d : registry.all()) {
        std::size_t dist = editDistance(name, d->typeName);
        std::string shortName = d->typeName.substr(d->typeName.find('.') + 1);
        dist = std::min(dist, editDistance(name, shortName));
        if (dist < bestDistance) {
            bestDistance = dist;
            best = d->typeName;
        }
    }
    return best;
}

// Why `name` is not a parameter of `type`: the names it has, and the nearest one on a typo.
std::string unknownParameterMessage(const OperatorDescriptor& d, const std::string& type, const std::string& name) {
    std::string known, nearest;
    std::size_t nearestDistance = 3;
    for (const auto& q : d.params) {
        known += (known.empty() ? "" : ", ") + q.name;
        if (const std::size_t dist = editDistance(name, q.name); dist < nearestDistance) nearestDistance = dist, nearest = q.name;
    }
    return "'" + type + "' has no such parameter" + (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)") +
           " (it has: " + (known.empty() ? "none" : known) + ")";
}

}  // namespace

ValidatedGraph resolveGraph(const GraphSpec& graph, const OperatorRegistry& registry, std::vector<GraphError>& errors, const StopPoll& stop) {
    StopPoller poller(stop, "validation");
    if (std::any_of(graph.nodes.begin(), graph.nodes.end(), isSubgraphNode)) {
        poller.unit();
        ExpandedGraph expanded = expandSubgraphs(graph, registry, errors);
        ValidatedGraph result = resolveGraph(expanded.flat, registry, errors, stop);
        result.subgraphFiles = std::move(expanded.files);
        return result;
    }
    ValidatedGraph result;
    result.spec = graph;
    std::map<std::string, int, std::less<>> indexOf;
    // Nodes whose deriveParams failed: their ports and counts are unknown, so what follows from them
    // (an empty bus, a check against them) is not reported; their own error is the cause.
    std::set<int> underived;
    std::set<int> starved;  // fed by a bus from such a node: its inputs are not reported unconnected
    auto error = [&](std::string node, std::string port, std::string field, std::string message) {
        errors.push_back({std::move(node), std::move(port), std::move(field), std::move(message)});
    };

    for (const NodeSpec& spec : graph.nodes) {
        poller.unit();
        ValidatedNode node;
        node.id = spec.id;
        node.descriptor = registry.find(spec.type);
        if (!node.descriptor) {
            std::string hint = closestTypeName(registry, spec.type);
            error(spec.id, "", "type", "unknown operator type '" + spec.type + "'" +
                                           (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
            continue;
        }
        for (const auto& [name, raw] : spec.params) {
            const ParamSpec* p = node.descriptor->findParam(name);
            if (!p) {
                error(spec.id, "", "params." + name, unknownParameterMessage(*node.descriptor, spec.type, name));
                continue;
            }
            std::string why;
            auto value = p->fromJson(raw, why);
            if (!value) {
                error(spec.id, "", "params." + name, why);
                continue;
            }
            node.params.set(name, *value);
        }
        for (const ParamSpec& p : node.descriptor->params) {
            if (!node.params.has(p.name)) node.params.set(p.name, p.defaultValue);
            if (p.kind == ParamKind::Path) {
                const std::string& text = node.params.getString(p.name);
                if (isGraphRelativePath(text) && !graph.baseDirectory.empty()) {
                    node.params.set(p.name, (graph.baseDirectory / text).lexically_normal().string());
                }
            }
        }
        if (node.descriptor->deriveParams) {
            try {
                node.descriptor->deriveParams(node.params);
            } catch (const ParameterError& e) {
                error(spec.id, "", "params." + e.param(), e.what());
                underived.insert(static_cast<int>(result.nodes.size()));
            } catch (const std::exception& e) {
                error(spec.id, "", "", e.what());
                underived.insert(static_cast<int>(result.nodes.size()));
            }
        }
        // After deriveParams: a port type may be derived (io.archive_source's "auto" reads the archive).
        for (const auto* group : {&node.descriptor->inputs, &node.descriptor->outputs}) {
            for (const PortSpec& port : *group) {
                if (port.typeParam.empty() || underived.count(static_cast<int>(result.nodes.size()))) continue;
                const std::string& text = node.params.getString(port.typeParam);
                auto named = PortType::parse(text);
                if (!named || !named->isConcrete()) {
                    error(spec.id, port.name, "params." + port.typeParam, "'" + text + "' is not a concrete port type (e.g. signal<f32>)");
                }
            }
        }
        indexOf[node.id] = static_cast<int>(result.nodes.size());
        result.nodes.push_back(std::move(node));
    }

    // Bus edges ("node.group*") connect two repeated port groups index by index; a group whose count
    // parameter is 0 ("auto") takes the count of the group feeding it.
    auto groupSpec = [](const std::vector<PortSpec>& specs, const std::string& name) -> const PortSpec* {
        for (const auto& spec : specs) {
            if (spec.name == name && !spec.countParam.empty()) return &spec;
        }
        return nullptr;
    };
    auto isBus = [](const std::string& port) { return !port.empty() && port.back() == '*'; };
    auto baseName = [](const std::string& port) { return port.substr(0, port.size() - 1); };
    for (bool changed = true; changed;) {
        changed = false;
        for (const EdgeSpec& e : graph.edges) {
            poller.unit();
            if (!isBus(e.fromPort) || !isBus(e.toPort)) continue;
            auto from = indexOf.find(e.fromNode);
            auto to = indexOf.find(e.toNode);
            if (from == indexOf.end() || to == indexOf.end()) continue;
            ValidatedNode& source = result.nodes[from->second];
            ValidatedNode& target = result.nodes[to->second];
            const PortSpec* out = groupSpec(source.descriptor->outputs, baseName(e.fromPort));
            const PortSpec* in = groupSpec(target.descriptor->inputs, baseName(e.toPort));
            if (!out || !in) continue;
            std::int64_t have = source.params.getInt(out->countParam);
            if (have > 0 && target.params.getInt(in->countParam) == 0) {
                target.params.set(in->countParam, have);
                changed = true;
            }
        }
    }
    // An input group still at 0 ("as many as wired") and fed by ordinary edges ("node.in3") gets as
    // many ports as its highest wired index needs.
    std::map<std::pair<int, std::string>, std::int64_t> wiredCounts;  // (node, count parameter) -> ports needed
    for (const EdgeSpec& e : graph.edges) {
        poller.unit();
        if (isBus(e.toPort)) continue;
        auto to = indexOf.find(e.toNode);
        if (to == indexOf.end()) continue;
        const ValidatedNode& target = result.nodes[to->second];
        for (const PortSpec& spec : target.descriptor->inputs) {
            if (spec.countParam.empty() || !e.toPort.starts_with(spec.name) || e.toPort.size() == spec.name.size()) continue;
            const std::string digits = e.toPort.substr(spec.name.size());
            if (digits.size() > 4 || !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); })) continue;
            if (target.params.getInt(spec.countParam) != 0) continue;
            auto& needed = wiredCounts[{to->second, spec.countParam}];
            needed = std::max<std::int64_t>(needed, std::stoll(digits) + 1);
        }
    }
    for (const auto& [key, count] : wiredCounts) result.nodes[static_cast<std::size_t>(key.first)].params.set(key.second, count);
    for (ValidatedNode& node : result.nodes) {
        poller.unit();
        node.inputs = node.descriptor->resolveInputs(node.params);
        node.outputs = node.descriptor->resolveOutputs(node.params);
    }

    // Expand bus edges into one edge per port, checking that both ends are groups of equal size.
    std::vector<std::pair<EdgeSpec, std::size_t>> edges;  // concrete edge, index in the file
    for (std::size_t i = 0; i < graph.edges.size(); ++i) {
        poller.unit();
        const EdgeSpec& e = graph.edges[i];
        if (!isBus(e.fromPort) && !isBus(e.toPort)) {
            edges.push_back({e, i});
            continue;
        }
        std::string where = "edges[" + std::to_string(i) + "]";
        auto from = indexOf.find(e.fromNode);
        auto to = indexOf.find(e.toNode);
        if (from == indexOf.end() || to == indexOf.end()) {
            edges.push_back({e, i});  // reported as a dangling edge below
            continue;
        }
        const ValidatedNode& source = result.nodes[from->second];
        const ValidatedNode& target = result.nodes[to->second];
        if (!isBus(e.fromPort) || !isBus(e.toPort)) {
            error(target.id, e.toPort, where, "a bus edge joins two port groups: write both ends with '*' (" + e.from() + " -> " + e.to() + ")");
            continue;
        }
        const PortSpec* out = groupSpec(source.descriptor->outputs, baseName(e.fromPort));
        const PortSpec* in = groupSpec(target.descriptor->inputs, baseName(e.toPort));
        if (!out) {
            error(source.id, e.fromPort, where + ".from", "'" + baseName(e.fromPort) + "' is not a repeated output group of '" + source.id + "'");
            continue;
        }
        if (!in) {
            error(target.id, e.toPort, where + ".to", "'" + baseName(e.toPort) + "' is not a repeated input group of '" + target.id + "'");
            continue;
        }
        std::int64_t outCount = source.params.getInt(out->countParam);
        std::int64_t inCount = target.params.getInt(in->countParam);
        if (underived.count(from->second) || underived.count(to->second)) {
            if (underived.count(from->second)) starved.insert(to->second);
            continue;
        }
        if (outCount != inCount || outCount == 0) {
            error(target.id, e.toPort, where,
                  "bus " + e.from() + " has " + std::to_string(outCount) + " ports but " + e.to() + " has " + std::to_string(inCount) +
                      (outCount == 0 ? " (set '" + out->countParam + "' on '" + source.id + "')" : ""));
            starved.insert(to->second);  // its inputs are unconnected because of this, not reported again
            continue;
        }
        for (std::int64_t k = 0; k < outCount; ++k) {
            EdgeSpec one = e;
            one.fromPort = baseName(e.fromPort) + std::to_string(k);
            one.toPort = baseName(e.toPort) + std::to_string(k);
            edges.push_back({one, i});
        }
    }

    // Edges: endpoints must exist; each input is fed at most once.
    std::map<std::pair<int, int>, std::string> feeder;  // (node, input) -> the output feeding it
    for (const auto& [e, fileIndex] : edges) {
        poller.unit();
        std::string where = "edges[" + std::to_string(fileIndex) + "]";
        auto from = indexOf.find(e.fromNode);
        auto to = indexOf.find(e.toNode);
        bool ok = true;
        if (from == indexOf.end()) {
            if (!graph.findNode(e.fromNode)) error("", "", where + ".from", "no node named '" + e.fromNode + "'");
            ok = false;
        }
        if (to == indexOf.end()) {
            if (!graph.findNode(e.toNode)) error("", "", where + ".to", "no node named '" + e.toNode + "'");
            ok = false;
        }
        if (!ok) continue;
        ValidatedNode& source = result.nodes[from->second];
        ValidatedNode& target = result.nodes[to->second];
        int outPort = findPort(source.outputs, e.fromPort);
        int inPort = findPort(target.inputs, e.toPort);
        if ((outPort < 0 && underived.count(from->second)) || (inPort < 0 && underived.count(to->second))) continue;
        if (outPort < 0) {
            error(source.id, e.fromPort, where + ".from",
                  "no output port named '" + e.fromPort + "' (outputs: " + listNames(source.outputs) + ")");
        }
        if (inPort < 0) {
            error(target.id, e.toPort, where + ".to",
                  "no input port named '" + e.toPort + "' (inputs: " + listNames(target.inputs) + ")");
        }
        if (outPort < 0 || inPort < 0) continue;
        auto key = std::make_pair(to->second, inPort);
        if (feeder.count(key)) {
            error(target.id, e.toPort, where + ".to", "input is already fed by " + feeder[key] +
                                                         "; an input takes one edge (use a merge operator)");
            continue;
        }
        feeder[key] = e.from();
        result.edges.push_back({from->second, outPort, to->second, inPort});
    }

    // Output types that follow an input ("typeFrom") settle by propagation along edges.
    std::map<std::pair<int, int>, std::size_t> edgeInto;  // (node, input) -> its edge
    for (std::size_t i = 0; i < result.edges.size(); ++i) edgeInto[{result.edges[i].toNode, result.edges[i].toPort}] = i;
    auto upstreamType = [&](int node, int input) -> std::optional<PortType> {
        auto it = edgeInto.find({node, input});
        if (it == edgeInto.end()) return std::nullopt;
        const ValidatedEdge& e = result.edges[it->second];
        return result.nodes[e.fromNode].outputs[e.fromPort].type;
    };
    auto typeSource = [](const ValidatedNode& node, const ResolvedPort& out) { return node.descriptor->followedInput(node.inputs, out); };
    // A worklist of nodes to look at again: a node's outputs settle once its input's type does, and
    // then its targets may settle (linear in the graph, whatever order the file lists nodes in).
    std::vector<std::vector<int>> targetsOf(result.nodes.size());
    for (const ValidatedEdge& e : result.edges) targetsOf[static_cast<std::size_t>(e.fromNode)].push_back(e.toNode);
    std::vector<int> pending(result.nodes.size());
    for (std::size_t n = 0; n < pending.size(); ++n) pending[n] = static_cast<int>(pending.size() - 1 - n);
    while (!pending.empty()) {
        poller.unit();
        const int n = pending.back();
        pending.pop_back();
        ValidatedNode& node = result.nodes[static_cast<std::size_t>(n)];
        bool settled = false;
        for (ResolvedPort& out : node.outputs) {
            if (out.type.isConcrete()) continue;
            const int in = typeSource(node, out);
            if (in < 0) continue;
            auto type = upstreamType(n, in);
            if (type && type->isConcrete()) {
                out.type = *type;
                settled = true;
            }
        }
        if (settled) pending.insert(pending.end(), targetsOf[static_cast<std::size_t>(n)].begin(), targetsOf[static_cast<std::size_t>(n)].end());
    }

    // Every edge must carry a concrete type its input accepts. An output whose type is unknown is
    // reported once, and not at all when its node was already refused (a source whose type a bad
    // parameter was to give: that parameter's error says it).
    std::set<std::string> refusedNodes;
    for (const GraphError& e : errors) refusedNodes.insert(e.node);
    std::set<std::pair<int, int>> unknownOutputsReported;
    for (std::size_t i = 0; i < result.edges.size(); ++i) {
        poller.unit();
        const ValidatedEdge& e = result.edges[i];
        ValidatedNode& source = result.nodes[e.fromNode];
        ValidatedNode& target = result.nodes[e.toNode];
        const PortType& produced = source.outputs[e.fromPort].type;
        const PortType& accepted = target.inputs[e.toPort].type;
        std::string from = source.id + "." + source.outputs[e.fromPort].name;
        std::string to = target.id + "." + target.inputs[e.toPort].name;
        if (!produced.isConcrete()) {
            if (refusedNodes.count(source.id) || !unknownOutputsReported.insert({e.fromNode, e.fromPort}).second) continue;
            // Its type follows an input: unconnected, or fed by an output of unknown type (a loop).
            const int in = typeSource(source, source.outputs[e.fromPort]);
            const bool fed = in >= 0 && edgeInto.count({e.fromNode, in});
            error(source.id, source.outputs[e.fromPort].name, "",
                  "the type of output '" + from + "' cannot be determined" +
                      (fed ? ": it is the type of input '" + source.id + "." + source.inputs[static_cast<std::size_t>(in)].name +
                                 "', whose feeder has no known type either (a loop with no typed entry, such as a node feeding itself, or an output upstream that cannot be determined)"
                           : " (connect its input)"));
            continue;
        }
        if (!accepted.accepts(produced)) {
            error(target.id, target.inputs[e.toPort].name, "",
                  "cannot connect '" + from + "' (" + produced.toString() + ") to '" + to + "' (" +
                      accepted.toString() + "): the types do not match");
            continue;
        }
        target.inputs[e.toPort].type = produced;
    }

    // QoS graphs belong to outputs: a node's own "qos", else the graph's "qos_default".
    std::optional<QosGraph> defaultQos;
    try {
        double deadline = kDefaultQosDeadlineMs;
        if (graph.extra.contains("qos_default")) {
            const auto& d = graph.extra["qos_default"];
            if (!d.is_object() || !d.contains("deadline_ms") || !d["deadline_ms"].is_number()) {
                throw std::invalid_argument("must be {\"deadline_ms\": number}");
            }
            deadline = d["deadline_ms"].get<double>();
        }
        defaultQos = QosGraph::withDeadline(deadline);
    } catch (const std::exception& e) {
        error("", "", "qos_default", e.what());
    }
    std::map<std::string_view, const NodeSpec*> specOf;
    for (const NodeSpec& spec : graph.nodes) specOf.emplace(spec.id, &spec);
    for (std::size_t n = 0; n < result.nodes.size(); ++n) {
        poller.unit();
        ValidatedNode& node = result.nodes[n];
        const auto found = specOf.find(node.id);
        const NodeSpec* spec = found == specOf.end() ? nullptr : found->second;
        const bool declared = spec && spec->extra.is_object() && spec->extra.contains("qos");
        if (declared && !node.outputs.empty()) {
            error(node.id, "", "qos", "a QoS graph belongs to an output (a node without output ports)");
            continue;
        }
        if (!node.outputs.empty()) continue;
        if (!declared) {
            node.qos = defaultQos;
            continue;
        }
        try {
            node.qos = QosGraph::fromJson(spec->extra["qos"]);
        } catch (const std::exception& e) {
            error(node.id, "", "qos", e.what());
        }
    }

    // Required inputs must be connected.
    for (std::size_t n = 0; n < result.nodes.size(); ++n) {
        poller.unit();
        const ValidatedNode& node = result.nodes[n];
        if (starved.count(static_cast<int>(n))) continue;
        for (std::size_t p = 0; p < node.inputs.size(); ++p) {
            if (node.inputs[p].optional) continue;
            if (!feeder.count({static_cast<int>(n), static_cast<int>(p)})) {
                error(node.id, node.inputs[p].name, "", "required input is not connected");
            }
        }
    }
    assignChannelLayouts(result, underived, errors, poller);
    // Where each node sits, for nodes that keep it (a recorder storing what produced its stream).
    for (std::size_t n = 0; n < result.nodes.size(); ++n) {
        poller.unit();
        ValidatedNode& node = result.nodes[n];
        const SurroundingsHook* adopt = surroundingsHook(node.descriptor->typeName);
        if (!adopt || underived.count(static_cast<int>(n))) continue;
        NodeSurroundings surroundings;
        surroundings.graph = graph.fileName.empty() ? graph.name : graph.fileName;
        surroundings.node = node.id;
        surroundings.inputs = node.inputs;
        surroundings.feeders.resize(node.inputs.size());
        surroundings.channels = node.inputChannels;
        for (const ValidatedEdge& e : result.edges) {
            if (e.toNode != static_cast<int>(n)) continue;
            const ValidatedNode& feeder = result.nodes[static_cast<std::size_t>(e.fromNode)];
            surroundings.feeders[static_cast<std::size_t>(e.toPort)] = {feeder.id, feeder.descriptor->typeName};
        }
        try {
            (*adopt)(node.params, surroundings);
        } catch (const ParameterError& e) {
            error(node.id, "", "params." + e.param(), e.what());
        } catch (const std::exception& e) {
            error(node.id, "", "", e.what());
        }
    }
    // Checks against what flows in, once the graph is wired.
    for (std::size_t n = 0; n < result.nodes.size(); ++n) {
        poller.unit();
        const ValidatedNode& node = result.nodes[n];
        if (!node.descriptor->checkUpstream) continue;
        std::vector<UpstreamNode> upstream;
        std::vector<int> queue{static_cast<int>(n)};
        std::set<int> seen{static_cast<int>(n)};
        for (std::size_t next = 0; next < queue.size(); ++next) {  // breadth first: nearest first
            poller.unit();
            for (const ValidatedEdge& e : result.edges) {
                if (e.toNode != queue[next] || !seen.insert(e.fromNode).second) continue;
                queue.push_back(e.fromNode);
                const ValidatedNode& feeder = result.nodes[static_cast<std::size_t>(e.fromNode)];
                upstream.push_back({&feeder.id, feeder.descriptor, &feeder.params});
            }
        }
        if (std::any_of(queue.begin(), queue.end(), [&](int i) { return underived.count(i) > 0; })) continue;
        try {
            node.descriptor->checkUpstream(node.params, upstream);
        } catch (const ParameterError& e) {
            error(node.id, "", "params." + e.param(), e.what());
        } catch (const std::exception& e) {
            error(node.id, "", "", e.what());
        }
    }
    // Checks of what flows into each input, from its feeder.
    for (std::size_t n = 0; n < result.nodes.size(); ++n) {
        poller.unit();
        const ValidatedNode& node = result.nodes[n];
        const InputCheck* check = inputCheckOf(node.descriptor->typeName);
        if (!check || underived.count(static_cast<int>(n))) continue;
        std::vector<InputFeeder> feeders(node.inputs.size());
        bool feedersDerived = true;
        for (const ValidatedEdge& e : result.edges) {
            if (e.toNode != static_cast<int>(n)) continue;
            const ValidatedNode& feeder = result.nodes[static_cast<std::size_t>(e.fromNode)];
            feeders[static_cast<std::size_t>(e.toPort)] = {&feeder.id, feeder.descriptor, &feeder.params};
            feedersDerived = feedersDerived && !underived.count(e.fromNode);
        }
        if (!feedersDerived) continue;
        try {
            (*check)(node.params, node.inputs, feeders);
        } catch (const InputPortError& e) {
            error(node.id, e.port(), "", e.what());
        } catch (const ParameterError& e) {
            error(node.id, "", "params." + e.param(), e.what());
        } catch (const std::exception& e) {
            error(node.id, "", "", e.what());
        }
    }
    return result;
}

std::vector<GraphError> checkGraph(const GraphSpec& graph, const OperatorRegistry& registry) {
    std::vector<GraphError> errors;
    resolveGraph(graph, registry, errors);
    return errors;
}

ValidatedGraph validateGraph(const GraphSpec& graph, const OperatorRegistry& registry, const StopPoll& stop) {
    std::vector<GraphError> errors;
    ValidatedGraph result = resolveGraph(graph, registry, errors, stop);
    if (!errors.empty()) throw GraphException(std::move(errors));
    return result;
}

namespace {

/// "geometry, pace, path": the parameters a subgraph node exposes, for error messages.
std::string exposedParameterList(const ExpandedSubgraph& subgraph) {
    std::string list;
    for (const auto& p : subgraph.flat.params) list += (list.empty() ? "" : ", ") + p.name;
    return list.empty() ? "none" : list;
}

}  // namespace

void setParameterFromText(GraphSpec& graph, const OperatorRegistry& registry, const std::string& assignment) {
    auto equals = assignment.find('=');
    std::string target = assignment.substr(0, equals);
    std::string nodeId, paramName;
    if (equals == std::string::npos || !splitEndpoint(target, nodeId, paramName)) {
        throw GraphException({{"", "", "", "'" + assignment + "' is not node.param=value"}});
    }
    NodeSpec* node = graph.findNode(nodeId);
    if (!node) {
        // "part/inner" (or "part.inner"): a node inside a subgraph is reached only through what the subgraph exposes.
        const auto slash = nodeId.find_first_of("/.");
        const NodeSpec* outer = slash == std::string::npos ? nullptr : graph.findNode(nodeId.substr(0, slash));
        std::string hint;
        if (outer && isSubgraphNode(*outer)) {
            std::vector<GraphError> ignored;
            const ExpandedGraph expanded = expandSubgraphs(graph, registry, ignored);
            const auto part = expanded.subgraphs.find(outer->id);
            if (part != expanded.subgraphs.end()) {
                hint = " (a node inside subgraph '" + outer->id + "' is set through the parameters it exposes: " + exposedParameterList(part->second) + ")";
            }
        }
        throw GraphException({{"", "", "", "--set " + assignment + ": no node named '" + nodeId + "'" + hint}});
    }
    std::string type = node->type;
    std::string innerName = paramName;
    if (isSubgraphNode(*node)) {
        // An exposed parameter is parsed as the inner parameter it stands for.
        std::vector<GraphError> ignored;
        ExpandedGraph expanded = expandSubgraphs(graph, registry, ignored);
        const ExpandedSubgraph& subgraph = expanded.subgraphs[nodeId];
        auto exposed = std::find_if(subgraph.flat.params.begin(), subgraph.flat.params.end(), [&](const auto& p) { return p.name == paramName; });
        if (exposed == subgraph.flat.params.end()) {
            throw GraphException({{nodeId, "", "params." + paramName, "the subgraph exposes no such parameter (it exposes: " + exposedParameterList(subgraph) + ")"}});
        }
        const NodeSpec* inner = expanded.flat.findNode(exposed->inner.front().node);
        type = inner ? inner->type : std::string();
        innerName = exposed->inner.front().name;
    }
    const OperatorDescriptor* d = registry.find(type);
    if (!d) throw GraphException({{nodeId, "", "type", "unknown operator type '" + node->type + "'"}});
    const ParamSpec* p = d->findParam(innerName);
    if (!p) throw GraphException({{nodeId, "", "params." + paramName, unknownParameterMessage(*d, node->type, innerName)}});
    std::string why;
    auto value = p->parseText(assignment.substr(equals + 1), why);
    if (!value) throw GraphException({{nodeId, "", "params." + paramName, why}});
    node->params[paramName] = paramValueToJson(*value);
    if (p->kind == ParamKind::Path) {
        // Paths given on the command line are relative to the working directory, not the graph file.
        auto text = std::get<std::string>(*value);
        if (!text.empty() && text != "-") node->params[paramName] = std::filesystem::absolute(text).lexically_normal().string();
    }
    // A value the operator's own check refuses (an expression that does not compile, low above high)
    // is refused now, as validation would refuse it; problems with other parameters are validation's.
    if (!isSubgraphNode(*node) && d->deriveParams) {
        ParamSet params;
        for (const ParamSpec& spec : d->params) {
            const auto written = node->params.find(spec.name);
            std::string ignored;
            const auto given = written == node->params.end() ? std::nullopt : spec.fromJson(written->second, ignored);
            params.set(spec.name, given ? *given : spec.defaultValue);
        }
        try {
            d->deriveParams(params);
        } catch (const ParameterError& e) {
            if (e.param() == paramName) throw GraphException({{nodeId, "", "params." + paramName, e.what()}});
        } catch (const std::exception&) {
            // not about this parameter: validation reports it
        }
    }
}

}  // namespace isochron
