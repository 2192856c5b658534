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
    /// Every file read so far, canonical, in path order.
    std::vector<fs::path> paths() const {
        std::vector<fs::path> paths;
        for (const auto& [path, graph] : files_) paths.push_back(path);
        return paths;
    }

private:
    std::map<fs::path, GraphSpec> files_;
};

// How many operator nodes expanding `graph` gives, counted per file once (a file used twice per
// level, 29 levels deep, stands for 2^29 nodes: counted in 29 steps, refused before it is built).
// Counts saturate just past kMaxExpandedNodes; cycles and unreadable files count as one node here
// and are reported by the expansion. Nested files are walked with an explicit stack, so the nesting
// depth is not bounded by the thread's stack.
class ExpandedSize {
public:
    explicit ExpandedSize(GraphFiles& files) : files_(files) {}

    std::uint64_t of(const GraphSpec& top) {
        std::vector<Counting> stack{{&top, {}}};
        std::set<fs::path> open;  // files on the stack: meeting one again is a cycle
        while (true) {
            Counting& counting = stack.back();
            if (counting.next < counting.graph->nodes.size()) {
                const NodeSpec& node = counting.graph->nodes[counting.next++];
                if (!isSubgraphNode(node)) {
                    counting.add(1);
                    continue;
                }
                std::error_code ec;
                fs::path canonical = fs::weakly_canonical(subgraphFile(*counting.graph, node), ec);
                if (auto known = sizes_.find(canonical); known != sizes_.end()) {
                    counting.add(known->second);
                } else if (const GraphSpec* inner = open.count(canonical) ? nullptr : tryLoad(canonical)) {
                    open.insert(canonical);
                    stack.push_back({inner, std::move(canonical)});
                } else {
                    counting.add(1);
                }
                continue;
            }
            const std::uint64_t total = counting.total;
            if (stack.size() == 1) return total;
            sizes_[counting.file] = total;
            open.erase(counting.file);
            stack.pop_back();
            stack.back().add(total);
        }
    }

    /// The nodes `node` of `graph` stands for once expanded (1 for an operator, or a subgraph file
    /// that cannot be read), at most kMaxExpandedNodes + 1.
    std::uint64_t ofNode(const GraphSpec& graph, const NodeSpec& node) {
        if (!isSubgraphNode(node)) return 1;
        std::error_code ec;
        const fs::path canonical = fs::weakly_canonical(subgraphFile(graph, node), ec);
        if (auto known = sizes_.find(canonical); known != sizes_.end()) return known->second;
        const GraphSpec* inner = tryLoad(canonical);
        return inner ? of(*inner) : 1;
    }

private:
    // One file whose nodes are being counted.
    struct Counting {
        const GraphSpec* graph;
        fs::path file;  // canonical ("" for the top graph)
        std::size_t next = 0;
        std::uint64_t total = 0;
        void add(std::uint64_t nodes) { total = std::min(total + nodes, kMaxExpandedNodes + 1); }
    };

    const GraphSpec* tryLoad(const fs::path& canonical) {
        try {
            return &files_.load(canonical);
        } catch (const GraphException&) {
            return nullptr;
        }
    }

    GraphFiles& files_;
    std::map<fs::path, std::uint64_t> sizes_;
};

// One graph file being inlined. Its nodes are appended one at a time; a subgraph node opens a new
// level above it, and a level is finished (its edges connected, its interface mapped to flat ids)
// once all its nodes are in, which is when the level below can use what it exposes.
struct Level {
    GraphSpec graph;  // parameters already overridden by the node it stands for
    SubgraphInterface interface;
    std::string prefix;      // prefix of its nodes' flat ids ("" at the top, "filt/" inside filt)
    std::string owner;       // flat id of the subgraph node it stands for ("" at the top)
    std::string idOutside;   // that node's id in the level below
    fs::path file;           // canonical path ("" at the top)
    std::string where;       // " (in FILE)" for messages ("" at the top)
    std::optional<int> partition;  // the subgraph node's partition, or the one it inherited: for nodes that name none
    std::map<std::string, std::map<std::string, json>> written;  // inner parameter values before overrides
    Overrides overrides;
    std::size_t next = 0;  // index of the next node to inline
    std::map<std::string, ExpandedSubgraph> nested;
    std::set<std::string> failed;  // subgraph nodes left out (reported), with their edges
};

// Inlines graph files into one flat graph, level by level, with an explicit stack of levels (a file
// nesting another thousands deep neither overflows the thread's stack nor is refused).
class Expander {
public:
    Expander(const OperatorRegistry& registry, std::vector<GraphError>& errors, GraphSpec& flat, GraphFiles& files)
        : registry_(registry), errors_(errors), flat_(flat), files_(files) {}

    // Inline `top` and everything it nests; returns what each of its subgraph nodes became.
    std::map<std::string, ExpandedSubgraph> expand(GraphSpec top) {
        std::vector<Level> levels;
        levels.push_back(open(std::move(top), {}, "", "", "", {}, {}));
        while (true) {
            Level& level = levels.back();
            if (level.next < level.graph.nodes.size()) {
                const NodeSpec& node = level.graph.nodes[level.next++];
                if (!isSubgraphNode(node)) {
                    appendOperator(level, node);
                } else if (std::optional<Level> inner = enter(level, node, levels)) {
                    openFiles_.insert(inner->file);
                    levels.push_back(std::move(*inner));
                } else {
                    level.failed.insert(node.id);
                }
                continue;
            }
            connect(level);
            if (levels.size() == 1) break;
            const bool failed = exposesFailed(level);
            ExpandedSubgraph result = failed ? ExpandedSubgraph{} : flatInterface(level);
            result.file = level.file;
            const std::string idOutside = level.idOutside;
            openFiles_.erase(level.file);
            levels.pop_back();
            if (failed) {
                levels.back().failed.insert(idOutside);
            } else {
                levels.back().nested[idOutside] = std::move(result);
            }
        }
        flat_.edges.insert(flat_.edges.end(), laterEdges_.begin(), laterEdges_.end());
        laterEdges_.clear();
        return std::move(levels.front().nested);
    }

private:
    // A level for `graph` with the node's parameters `overrides` applied (remembering the values it wrote).
    static Level open(GraphSpec graph, SubgraphInterface interface, std::string prefix, std::string owner, std::string idOutside,
                      fs::path file, Overrides overrides) {
        Level level;
        for (NodeSpec& node : graph.nodes) {
            level.written[node.id] = node.params;
            auto given = overrides.find(node.id);
            if (given == overrides.end()) continue;
            for (const auto& [name, value] : given->second) node.params[name] = value.value;
        }
        level.where = file.empty() ? std::string() : " (in " + file.string() + ")";
        level.graph = std::move(graph);
        level.interface = std::move(interface);
        level.prefix = std::move(prefix);
        level.owner = std::move(owner);
        level.idOutside = std::move(idOutside);
        level.file = std::move(file);
        level.overrides = std::move(overrides);
        return level;
    }

    // The folder a parameter of `node` in `level` resolves relative paths from: the file that wrote its value.
    static fs::path folderOf(const Level& level, const std::string& node, const std::string& param) {
        if (auto given = level.overrides.find(node); given != level.overrides.end()) {
            if (auto it = given->second.find(param); it != given->second.end()) return it->second.folder;
        }
        return level.graph.baseDirectory;
    }

    void appendOperator(const Level& level, const NodeSpec& node) {
        NodeSpec copy = node;
        copy.id = level.prefix + node.id;
        if (!copy.partition) copy.partition = level.partition;
        if (!level.prefix.empty()) resolvePaths(copy, [&](const std::string& param) { return folderOf(level, node.id, param); });
        flat_.nodes.push_back(std::move(copy));
    }

    // Open the level a subgraph node of `level` stands for: read its file, check for cycles and pass its
    // parameters down. Nothing when it cannot be inlined (reported).
    std::optional<Level> enter(const Level& level, const NodeSpec& node, const std::vector<Level>& levels) {
        const std::string flatId = level.prefix + node.id;
        if (!node.type.empty()) {
            error(flatId, "", kSubgraphField, "a node has either a 'type' or a 'subgraph', not both" + level.where);
            return std::nullopt;
        }
        const fs::path file = subgraphFile(level.graph, node);
        std::error_code ec;
        fs::path canonical = fs::weakly_canonical(file, ec);
        if (openFiles_.count(canonical)) {
            error(flatId, "", kSubgraphField,
                  "'" + subgraphReference(node) + "' refers back to a file that contains it (a cycle of subgraph files: " +
                      describeCycle(levels, canonical) + ")" + level.where);
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
                                                        listExposed(interface.params) + ")" + level.where);
                continue;
            }
            passed[param->inner.front().node][param->inner.front().name] = Override{value, folderOf(level, node.id, name)};
        }
        Level opened = open(std::move(inner), std::move(interface), flatId + "/", flatId, node.id, std::move(canonical), std::move(passed));
        opened.partition = node.partition ? node.partition : level.partition;
        return opened;
    }

    // The files of the levels from `again` up, then `again`: "a -> b -> a"; a cycle of thousands of
    // files shows its first and last three.
    static std::string describeCycle(const std::vector<Level>& levels, const fs::path& again) {
        auto first = std::find_if(levels.begin(), levels.end(), [&](const Level& l) { return l.file == again; });
        const auto length = static_cast<std::size_t>(levels.end() - first);
        constexpr std::size_t kShown = 3;
        std::string text;
        for (auto it = first; it != levels.end(); ++it) {
            const auto index = static_cast<std::size_t>(it - first);
            if (length > 2 * kShown + 1 && index == kShown) {
                text += "... (" + std::to_string(length - 2 * kShown) + " more) -> ";
                it += static_cast<std::ptrdiff_t>(length - 2 * kShown - 1);
                continue;
            }
            text += it->file.filename().string() + " -> ";
        }
        return text + again.filename().string();
    }

    // Whether `level`'s interface exposes a port or parameter of a subgraph node that was left out
    // (already reported): then the level is left out too, and the levels below it, with one error.
    static bool exposesFailed(const Level& level) {
        for (const auto* list : {&level.interface.inputs, &level.interface.outputs, &level.interface.params}) {
            for (const ExposedEndpoint& exposed : *list) {
                for (const Endpoint& e : exposed.inner) {
                    if (level.failed.count(e.node)) return true;
                }
            }
        }
        return false;
    }

    // Append `level`'s edges in flat ids, through the interfaces of the subgraphs it nests. The top
    // file's edges keep their indices (errors name them); inner edges and the further targets of
    // exposed inputs follow.
    void connect(const Level& level) {
        const std::string& prefix = level.prefix;
        std::vector<EdgeSpec>& edges = prefix.empty() ? flat_.edges : laterEdges_;
        for (std::size_t i = 0; i < level.graph.edges.size(); ++i) {
            const EdgeSpec& e = level.graph.edges[i];
            if (level.failed.count(e.fromNode) || level.failed.count(e.toNode)) continue;
            const std::string field = "edges[" + std::to_string(i) + "]";
            Endpoint from{prefix + e.fromNode, e.fromPort};
            if (auto it = level.nested.find(e.fromNode); it != level.nested.end()) {
                const ExposedEndpoint* out = findExposed(it->second.flat.outputs, e.fromPort);
                if (!out) {
                    error(prefix + e.fromNode, e.fromPort, field + ".from",
                          "the subgraph exposes no output named '" + e.fromPort + "' (outputs: " + listExposed(it->second.flat.outputs) + ")" + level.where);
                    continue;
                }
                from = out->inner.front();
            }
            std::vector<Endpoint> targets{{prefix + e.toNode, e.toPort}};
            if (auto it = level.nested.find(e.toNode); it != level.nested.end()) {
                const ExposedEndpoint* in = findExposed(it->second.flat.inputs, e.toPort);
                if (!in) {
                    error(prefix + e.toNode, e.toPort, field + ".to",
                          "the subgraph exposes no input named '" + e.toPort + "' (inputs: " + listExposed(it->second.flat.inputs) + ")" + level.where);
                    continue;
                }
                targets = in->inner;
            }
            for (std::size_t t = 0; t < targets.size(); ++t) {
                EdgeSpec edge{from.node, from.name, targets[t].node, targets[t].name};
                (t == 0 ? edges : laterEdges_).push_back(std::move(edge));
            }
        }
    }

    enum class Kind { Input, Output, Param };

    // The interface of an inlined file, checked against its nodes and mapped to flat ids.
    ExpandedSubgraph flatInterface(const Level& level) {
        const GraphSpec& graph = level.graph;
        const std::string& owner = level.owner;
        const std::string& where = level.where;
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
                    const auto& written = level.written.at(e.node);
                    if (auto value = written.find(e.name); value != written.end()) innerDefault = value->second;
                    if (auto it = level.nested.find(e.node); it != level.nested.end()) {
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
                        flat.inner.push_back({level.prefix + e.node, e.name});
                    }
                    if (kind == Kind::Param && innerDefault) result.paramDefaults[exposed.name] = *innerDefault;
                }
                if (!flat.inner.empty()) pick(result.flat).push_back(std::move(flat));
            }
        };
        map(level.interface.inputs, Kind::Input);
        map(level.interface.outputs, Kind::Output);
        map(level.interface.params, Kind::Param);
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
    std::set<fs::path> openFiles_;  // canonical files of the levels being inlined: meeting one again is a cycle
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
    result.flat.fileName = graph.fileName;
    GraphFiles files;
    ExpandedSize sizes(files);
    if (sizes.of(graph) > kMaxExpandedNodes) {
        // Named at the subgraph node that brings the most nodes (the runner adds the graph file).
        const NodeSpec* largest = nullptr;
        std::uint64_t largestSize = 0;
        for (const NodeSpec& node : graph.nodes) {
            const std::uint64_t nodes = sizes.ofNode(graph, node);
            if (!isSubgraphNode(node) || nodes <= largestSize) continue;
            largest = &node;
            largestSize = nodes;
        }
        const std::string limit = std::to_string(kMaxExpandedNodes);
        const std::string why = " (a file used several times per level multiplies the count with each level): use fewer levels or fewer uses per level";
        if (largest && largestSize > kMaxExpandedNodes) {
            errors.push_back({largest->id, "", kSubgraphField,
                              "'" + subgraphFile(graph, *largest).string() + "' would expand to more than " + limit + " nodes" + why});
        } else if (largest) {
            errors.push_back({largest->id, "", kSubgraphField,
                              "expanding the subgraphs would give more than " + limit + " nodes, " + std::to_string(largestSize) +
                                  " of them from this node's '" + subgraphFile(graph, *largest).string() + "'" + why});
        } else {
            errors.push_back({"", "", "", "expanding the subgraphs would give more than " + limit + " nodes" + why});
        }
        return result;
    }
    result.subgraphs = Expander(registry, errors, result.flat, files).expand(graph);
    result.files = files.paths();
    return result;
}

}  // namespace isochron
