#include "engine/graph/subgraph.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "engine/graph/graph_file.h"
#include "engine/graph/graph_paths.h"

namespace isochron {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// A parameter value and the folder its relative paths are resolved from (the file that wrote it).
struct Override {
    json value;
    fs::path folder;
};
using Overrides = std::map<std::string, std::map<std::string, Override>>;  // node -> param -> value

// Whether an operator declares port `name` (a repeated group's ports are group0, group1, ...).
bool declaresPort(const std::vector<PortSpec>& specs, const std::string& name) {
    for (const PortSpec& spec : specs) {
        if (spec.countParam.empty() ? spec.name == name
                                    : name.size() > spec.name.size() && name.compare(0, spec.name.size(), spec.name) == 0 &&
                                          std::all_of(name.begin() + static_cast<std::ptrdiff_t>(spec.name.size()), name.end(),
                                                      [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
            return true;
        }
    }
    return false;
}

const ExposedEndpoint* findExposed(const std::vector<ExposedEndpoint>& list, const std::string& name) {
    for (const ExposedEndpoint& e : list) {
        if (e.name == name) return &e;
    }
    return nullptr;
}

std::string listExposed(const std::vector<ExposedEndpoint>& list) {
    std::string text;
    for (const ExposedEndpoint& e : list) text += (text.empty() ? "" : ", ") + e.name;
    return text.empty() ? "none" : text;
}

// Graph files by canonical path, each read once however often it is used.
class GraphFiles {
public:
    /// The file's graph; throws GraphException when it cannot be read.
    const GraphSpec& load(const fs::path& canonical) {
        auto it = files_.find(canonical);
        if (it == files_.end()) it = files_.emplace(canonical, loadGraphFile(canonical)).first;
        return it->second;
    }

private:
    std::map<fs::path, GraphSpec> files_;
};

// How many operator nodes expanding `graph` gives, counted per file once (a file used twice per
// level, 29 levels deep, stands for 2^29 nodes: counted in 29 steps, refused before it is built).
// Counts saturate just past kMaxExpandedNodes; cycles, unreadable files and too deep nesting count
// as one node here and are reported by the expansion.
class ExpandedSize {
public:
    explicit ExpandedSize(GraphFiles& files) : files_(files) {}

    std::uint64_t of(const GraphSpec& graph, std::vector<fs::path>& chain) {
        std::uint64_t total = 0;
        for (const NodeSpec& node : graph.nodes) {
            total = std::min(total + nodesOf(graph, node, chain), kMaxExpandedNodes + 1);
        }
        return total;
    }

private:
    std::uint64_t nodesOf(const GraphSpec& graph, const NodeSpec& node, std::vector<fs::path>& chain) {
        if (!isSubgraphNode(node)) return 1;
        std::error_code ec;
        const fs::path canonical = fs::weakly_canonical(subgraphFile(graph, node), ec);
        if (auto known = sizes_.find(canonical); known != sizes_.end()) return known->second;
        if (chain.size() >= kMaxSubgraphDepth || std::find(chain.begin(), chain.end(), canonical) != chain.end()) return 1;
        const GraphSpec* inner = nullptr;
        try {
            inner = &files_.load(canonical);
        } catch (const GraphException&) {
            return 1;
        }
        chain.push_back(canonical);
        const std::uint64_t size = of(*inner, chain);
        chain.pop_back();
        sizes_[canonical] = size;
        return size;
    }

    GraphFiles& files_;
    std::map<fs::path, std::uint64_t> sizes_;
};

// Inlines graph files into one flat graph, level by level.
class Expander {
public:
    Expander(const OperatorRegistry& registry, std::vector<GraphError>& errors, GraphSpec& flat, GraphFiles& files)
        : registry_(registry), errors_(errors), flat_(flat), files_(files) {}

    // After the top file: append the edges inside subgraphs.
    void finish() {
        flat_.edges.insert(flat_.edges.end(), laterEdges_.begin(), laterEdges_.end());
        laterEdges_.clear();
    }

    // Append `graph`'s nodes and edges with ids prefixed by `prefix`; `owner` is the flat id of the
    // subgraph node it stands for ("" at the top). Returns its interface in flat ids.
    ExpandedSubgraph inlineGraph(GraphSpec graph, const SubgraphInterface& interface, const std::string& prefix, const std::string& owner, const Overrides& overrides,
                                 std::vector<fs::path>& chain, std::map<std::string, ExpandedSubgraph>* topLevel) {
        const std::string where = chain.empty() ? std::string() : " (in " + chain.back().string() + ")";
        std::map<std::string, ExpandedSubgraph> nested;
        std::set<std::string> failed;
        std::map<std::string, std::map<std::string, json>> written;  // inner values before overrides
        for (NodeSpec& node : graph.nodes) {
            written[node.id] = node.params;
            auto given = overrides.find(node.id);
            if (given == overrides.end()) continue;
            for (const auto& [name, value] : given->second) node.params[name] = value.value;
        }
        for (const NodeSpec& node : graph.nodes) {
            const std::string flatId = prefix + node.id;
            auto given = overrides.find(node.id);
            auto folderOf = [&](const std::string& param) {
                if (given != overrides.end()) {
                    auto it = given->second.find(param);
                    if (it != given->second.end()) return it->second.folder;
                }
                return graph.baseDirectory;
            };
            if (!isSubgraphNode(node)) {
                NodeSpec copy = node;
                copy.id = flatId;
                if (!prefix.empty()) resolvePaths(copy, folderOf);
                flat_.nodes.push_back(std::move(copy));
                continue;
            }
            auto inner = expandNode(graph, node, flatId, folderOf, chain, where);
            if (!inner) {
                failed.insert(node.id);
                continue;
            }
            nested[node.id] = std::move(*inner);
        }

        // The top file's edges keep their indices (errors name them); inner edges and the further
        // targets of exposed inputs follow.
        std::vector<EdgeSpec>& edges = prefix.empty() ? flat_.edges : laterEdges_;
        for (std::size_t i = 0; i < graph.edges.size(); ++i) {
            const EdgeSpec& e = graph.edges[i];
            if (failed.count(e.fromNode) || failed.count(e.toNode)) continue;
            const std::string field = "edges[" + std::to_string(i) + "]";
            Endpoint from{prefix + e.fromNode, e.fromPort};
            if (auto it = nested.find(e.fromNode); it != nested.end()) {
                const ExposedEndpoint* out = findExposed(it->second.flat.outputs, e.fromPort);
                if (!out) {
                    error(prefix + e.fromNode, e.fromPort, field + ".from",
                          "the subgraph exposes no output named '" + e.fromPort + "' (outputs: " + listExposed(it->second.flat.outputs) + ")" + where);
                    continue;
                }
                from = out->inner.front();
            }
            std::vector<Endpoint> targets{{prefix + e.toNode, e.toPort}};
            if (auto it = nested.find(e.toNode); it != nested.end()) {
                const ExposedEndpoint* in = findExposed(it->second.flat.inputs, e.toPort);
                if (!in) {
                    error(prefix + e.toNode, e.toPort, field + ".to",
                          "the subgraph exposes no input named '" + e.toPort + "' (inputs: " + listExposed(it->second.flat.inputs) + ")" + where);
                    continue;
                }
                targets = in->inner;
            }
            for (std::size_t t = 0; t < targets.size(); ++t) {
                EdgeSpec edge{from.node, from.name, targets[t].node, targets[t].name};
                (t == 0 ? edges : laterEdges_).push_back(std::move(edge));
            }
        }
        if (topLevel) *topLevel = nested;
        if (owner.empty()) return {};
        return flatInterface(graph, interface, prefix, owner, nested, written, where);
    }

private:
    // Resolve one subgraph node: read its file, check for cycles, pass its parameters down and inline it.
    template <typename FolderOf>
    std::optional<ExpandedSubgraph> expandNode(const GraphSpec& graph, const NodeSpec& node, const std::string& flatId, FolderOf folderOf,
                                               std::vector<fs::path>& chain, const std::string& where) {
        if (!node.type.empty()) {
            error(flatId, "", kSubgraphField, "a node has either a 'type' or a 'subgraph', not both" + where);
            return std::nullopt;
        }
        const fs::path file = subgraphFile(graph, node);
        std::error_code ec;
        const fs::path canonical = fs::weakly_canonical(file, ec);
        if (std::find(chain.begin(), chain.end(), canonical) != chain.end()) {
            std::string cycle;
            for (const fs::path& p : chain) cycle += p.filename().string() + " -> ";
            error(flatId, "", kSubgraphField,
                  "'" + subgraphReference(node) + "' refers back to a file that contains it (a cycle of subgraph files: " + cycle +
                      canonical.filename().string() + ")" + where);
            return std::nullopt;
        }
        if (chain.size() >= kMaxSubgraphDepth) {
            tooDeep_ = true;
            error(flatId, "", kSubgraphField,
                  "'" + subgraphReference(node) + "' nests subgraph files more than " + std::to_string(kMaxSubgraphDepth) +
                      " levels deep (from " + chain.front().filename().string() + ")" + where);
            return std::nullopt;
        }
        GraphSpec inner;
        try {
            inner = files_.load(canonical);
        } catch (const GraphException& e) {
            error(flatId, "", kSubgraphField, "cannot read '" + subgraphReference(node) + "': " + e.what());
            return std::nullopt;
        }
        std::vector<GraphError> interfaceErrors;
        SubgraphInterface interface = parseInterface(inner, flatId, interfaceErrors);
        for (GraphError& e : interfaceErrors) e.message += " (in " + canonical.string() + ")";
        errors_.insert(errors_.end(), interfaceErrors.begin(), interfaceErrors.end());

        Overrides passed;
        for (const auto& [name, value] : node.params) {
            const ExposedEndpoint* param = findExposed(interface.params, name);
            if (!param) {
                error(flatId, "", "params." + name, "'" + subgraphReference(node) + "' exposes no such parameter (it exposes: " +
                                                        listExposed(interface.params) + ")" + where);
                continue;
            }
            passed[param->inner.front().node][param->inner.front().name] = Override{value, folderOf(name)};
        }
        chain.push_back(canonical);
        ExpandedSubgraph result = inlineGraph(std::move(inner), interface, flatId + "/", flatId, passed, chain, nullptr);
        chain.pop_back();
        if (tooDeep_) return std::nullopt;  // every level above is left out too: one error, not one per level
        result.file = canonical;
        return result;
    }

    enum class Kind { Input, Output, Param };

    // The interface of an inlined file, checked against its nodes and mapped to flat ids.
    ExpandedSubgraph flatInterface(const GraphSpec& graph, const SubgraphInterface& interface, const std::string& prefix,
                                   const std::string& owner, const std::map<std::string, ExpandedSubgraph>& nested,
                                   const std::map<std::string, std::map<std::string, json>>& written, const std::string& where) {
        ExpandedSubgraph result;
        auto map = [&](const std::vector<ExposedEndpoint>& list, Kind kind) {
            static const char* const kFields[] = {"inputs", "outputs", "params"};
            static const char* const kWhat[] = {"input port", "output port", "parameter"};
            const auto k = static_cast<std::size_t>(kind);
            auto pick = [&](SubgraphInterface& i) -> std::vector<ExposedEndpoint>& {
                return kind == Kind::Input ? i.inputs : kind == Kind::Output ? i.outputs : i.params;
            };
            for (const ExposedEndpoint& exposed : list) {
                ExposedEndpoint flat{exposed.name, {}};
                const std::string field = std::string(kInterfaceField) + "." + kFields[k] + "." + exposed.name;
                for (const Endpoint& e : exposed.inner) {
                    const NodeSpec* node = graph.findNode(e.node);
                    if (!node) {
                        error(owner, "", field, "no node named '" + e.node + "' in the subgraph" + where);
                        continue;
                    }
                    std::optional<json> innerDefault;
                    if (auto value = written.at(e.node).find(e.name); value != written.at(e.node).end()) innerDefault = value->second;
                    if (auto it = nested.find(e.node); it != nested.end()) {
                        SubgraphInterface deeperInterface = it->second.flat;
                        const ExposedEndpoint* deeper = findExposed(pick(deeperInterface), e.name);
                        if (!deeper) {
                            error(owner, "", field, "subgraph node '" + e.node + "' exposes no " + kWhat[k] + " named '" + e.name + "'" + where);
                            continue;
                        }
                        flat.inner.insert(flat.inner.end(), deeper->inner.begin(), deeper->inner.end());
                        if (auto d = it->second.paramDefaults.find(e.name); !innerDefault && d != it->second.paramDefaults.end()) innerDefault = d->second;
                    } else {
                        const OperatorDescriptor* d = registry_.find(node->type);
                        const bool known = !d || (kind == Kind::Input    ? declaresPort(d->inputs, e.name)
                                                  : kind == Kind::Output ? declaresPort(d->outputs, e.name)
                                                                         : d->findParam(e.name) != nullptr);
                        if (!known) {
                            error(owner, "", field, "'" + e.node + "' (" + node->type + ") has no " + kWhat[k] + " named '" + e.name + "'" + where);
                            continue;
                        }
                        flat.inner.push_back({prefix + e.node, e.name});
                    }
                    if (kind == Kind::Param && innerDefault) result.paramDefaults[exposed.name] = *innerDefault;
                }
                if (!flat.inner.empty()) pick(result.flat).push_back(std::move(flat));
            }
        };
        map(interface.inputs, Kind::Input);
        map(interface.outputs, Kind::Output);
        map(interface.params, Kind::Param);
        return result;
    }

    // Relative path parameters of a node inlined from another file point next to the file that wrote them.
    template <typename FolderOf>
    void resolvePaths(NodeSpec& node, FolderOf folderOf) {
        const OperatorDescriptor* d = registry_.find(node.type);
        if (!d) return;
        for (auto& [name, value] : node.params) {
            const ParamSpec* p = d->findParam(name);
            if (!p || p->kind != ParamKind::Path || !value.is_string()) continue;
            const std::string text = value.template get<std::string>();
            const fs::path folder = folderOf(name);
            if (!isGraphRelativePath(text) || folder.empty()) continue;
            value = (folder / text).lexically_normal().string();
        }
    }

    void error(std::string node, std::string port, std::string field, std::string message) {
        errors_.push_back({std::move(node), std::move(port), std::move(field), std::move(message)});
    }

    const OperatorRegistry& registry_;
    std::vector<GraphError>& errors_;
    GraphSpec& flat_;
    GraphFiles& files_;
    std::vector<EdgeSpec> laterEdges_;
    bool tooDeep_ = false;  // a nesting beyond kMaxSubgraphDepth was refused
};

}  // namespace

bool isSubgraphNode(const NodeSpec& node) {
    return node.extra.is_object() && node.extra.contains(kSubgraphField);
}

std::string subgraphReference(const NodeSpec& node) {
    if (!isSubgraphNode(node) || !node.extra[kSubgraphField].is_string()) return {};
    return node.extra[kSubgraphField].get<std::string>();
}

fs::path subgraphFile(const GraphSpec& graph, const NodeSpec& node) {
    const fs::path reference = subgraphReference(node);
    if (reference.is_absolute() || graph.baseDirectory.empty()) return reference;
    return (graph.baseDirectory / reference).lexically_normal();
}

SubgraphInterface parseInterface(const GraphSpec& graph, const std::string& node, std::vector<GraphError>& errors) {
    SubgraphInterface interface;
    if (!graph.extra.is_object() || !graph.extra.contains(kInterfaceField)) return interface;
    const json& root = graph.extra[kInterfaceField];
    if (!root.is_object()) {
        errors.push_back({node, "", kInterfaceField, "must be {\"inputs\": {...}, \"outputs\": {...}, \"params\": {...}}"});
        return interface;
    }
    auto read = [&](const char* kind, std::vector<ExposedEndpoint>& out, bool several) {
        if (!root.contains(kind)) return;
        const std::string field = std::string(kInterfaceField) + "." + kind;
        const json& list = root[kind];
        if (!list.is_object()) {
            errors.push_back({node, "", field, "must be an object of name: \"node.name\""});
            return;
        }
        for (const auto& [name, target] : list.items()) {
            ExposedEndpoint exposed{name, {}};
            std::vector<json> texts = target.is_array() && several ? std::vector<json>(target.begin(), target.end()) : std::vector<json>{target};
            for (const json& text : texts) {
                Endpoint e;
                if (!text.is_string() || !splitEndpoint(text.get<std::string>(), e.node, e.name)) {
                    errors.push_back({node, "", field + "." + name,
                                      std::string("must be \"node.") + (std::string(kind) == "params" ? "parameter" : "port") + "\"" +
                                          (several ? " or a list of them" : "") + ", got " + text.dump()});
                    continue;
                }
                exposed.inner.push_back(std::move(e));
            }
            if (!exposed.inner.empty()) out.push_back(std::move(exposed));
        }
    };
    read("inputs", interface.inputs, true);
    read("outputs", interface.outputs, false);
    read("params", interface.params, false);
    return interface;
}

json interfaceToJson(const SubgraphInterface& interface) {
    json root = json::object();
    auto write = [&](const char* kind, const std::vector<ExposedEndpoint>& list) {
        if (list.empty()) return;
        json object = json::object();
        for (const ExposedEndpoint& e : list) {
            if (e.inner.size() == 1) {
                object[e.name] = e.inner.front().node + "." + e.inner.front().name;
                continue;
            }
            json targets = json::array();
            for (const Endpoint& inner : e.inner) targets.push_back(inner.node + "." + inner.name);
            object[e.name] = std::move(targets);
        }
        root[kind] = std::move(object);
    };
    write("inputs", interface.inputs);
    write("outputs", interface.outputs);
    write("params", interface.params);
    return root;
}

ExpandedGraph expandSubgraphs(const GraphSpec& graph, const OperatorRegistry& registry, std::vector<GraphError>& errors) {
    ExpandedGraph result;
    result.flat.name = graph.name;
    result.flat.description = graph.description;
    result.flat.scheduler = graph.scheduler;
    result.flat.extra = graph.extra;
    result.flat.baseDirectory = graph.baseDirectory;
    GraphFiles files;
    std::vector<fs::path> chain;
    const std::uint64_t size = ExpandedSize(files).of(graph, chain);
    if (size > kMaxExpandedNodes) {
        errors.push_back({"", "", "", "expanding the subgraphs would give more than " + std::to_string(kMaxExpandedNodes) +
                                          " nodes (a file used several times per level multiplies the count with each level)"});
        return result;
    }
    Expander expander(registry, errors, result.flat, files);
    expander.inlineGraph(graph, {}, "", "", {}, chain, &result.subgraphs);
    expander.finish();
    return result;
}

}  // namespace isochron
