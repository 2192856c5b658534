#include "engine/graph/graph_file.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

#include "engine/graph/graph_spec.h"
#include "engine/graph/json_duplicate_keys.h"
#include "engine/graph/json_nesting.h"

namespace isochron {
namespace {

using nlohmann::json;

bool isIdentifier(const std::string& id) {
    if (id.empty()) return false;
    for (char c : id) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
    }
    return true;
}

// Field names every node/graph object understands; anything else is kept in `extra`.
const std::set<std::string> kNodeFields = {"id", "type", "params", "position", "partition"};

// The largest partition a graph may name: far beyond any rank count, small enough to print and compare.
constexpr std::int64_t kMaxPartition = 1'000'000;
const std::set<std::string> kGraphFields = {"format", "name", "description", "scheduler", "nodes", "edges"};

}  // namespace

NodeSpec* GraphSpec::findNode(std::string_view id) {
    for (auto& n : nodes) {
        if (n.id == id) return &n;
    }
    return nullptr;
}

const NodeSpec* GraphSpec::findNode(std::string_view id) const {
    return const_cast<GraphSpec*>(this)->findNode(id);
}

bool splitEndpoint(const std::string& text, std::string& node, std::string& port) {
    auto dot = text.rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == text.size()) return false;
    node = text.substr(0, dot);
    port = text.substr(dot + 1);
    return true;
}

GraphSpec parseGraph(const std::string& jsonText, const StopPoll& stop) {
    if (jsonText.find_first_not_of(" \t\r\n") == std::string::npos) {
        throw GraphException({{"", "", "", "the file is empty: a graph file holds a JSON object {\"format\": \"" + std::string(kGraphFormat) + "\", \"nodes\": [...], ...}"}});
    }
    if (jsonText.find('\0') != std::string::npos) throw GraphException({{"", "", "", "not a graph file: it holds NUL bytes (a binary file?), not JSON text"}});
    if (const std::string deep = jsonNestingProblem(jsonText); !deep.empty()) throw GraphException({{"", "", "", "not a graph: " + deep}});
    json root;
    try {
        root = parseJsonRefusingDuplicateKeys(jsonText, stop);
    } catch (const json::exception& e) {
        // nlohmann's text without its "[json.exception.parse_error.101] " tag.
        const std::string what = e.what();
        const std::size_t tagEnd = what.starts_with("[json.exception.") ? what.find("] ") : std::string::npos;
        throw GraphException({{"", "", "", "not valid JSON: " + (tagEnd == std::string::npos ? what : what.substr(tagEnd + 2))}});
    } catch (const JsonNumberOutOfRange& e) {
        throw GraphException({{e.node, "", e.field, e.what()}});
    } catch (const DuplicateJsonKey& e) {
        throw GraphException({{"", "", "", std::string("not a graph: ") + e.what()}});
    }
    std::vector<GraphError> errors;
    auto error = [&](std::string node, std::string field, std::string message) {
        errors.push_back({std::move(node), "", std::move(field), std::move(message)});
    };
    if (!root.is_object()) throw GraphException({{"", "", "", "a graph file must hold a JSON object"}});

    GraphSpec graph;
    if (!root.contains("format")) {
        error("", "format", "missing; expected \"" + std::string(kGraphFormat) + "\"");
    } else if (!root["format"].is_string() || root["format"].get<std::string>() != kGraphFormat) {
        std::string found = root["format"].is_string() ? root["format"].get<std::string>() : root["format"].dump();
        error("", "format", "\"" + found + "\" is not a format this build reads (it reads \"" + kGraphFormat + "\")");
    }
    if (root.contains("name")) {
        if (root["name"].is_string()) graph.name = root["name"];
        else error("", "name", "must be a string");
    }
    if (root.contains("description")) {
        if (root["description"].is_string()) graph.description = root["description"];
        else error("", "description", "must be a string");
    }
    if (root.contains("scheduler")) {
        const json& s = root["scheduler"];
        if (s.is_string()) {
            graph.scheduler.name = s;
        } else if (s.is_object() && s.contains("name") && s["name"].is_string()) {
            graph.scheduler.name = s["name"];
            if (s.contains("params")) {
                if (!s["params"].is_object()) error("", "scheduler.params", "must be an object");
                else for (auto& [k, v] : s["params"].items()) graph.scheduler.params[k] = v;
            }
        } else {
            error("", "scheduler", "must be a name or {\"name\": ..., \"params\": {...}}");
        }
    }

    std::set<std::string> ids;
    if (!root.contains("nodes") || !root["nodes"].is_array()) {
        error("", "nodes", "missing or not an array");
    } else {
        const json& nodes = root["nodes"];
        StopPoller stopPoller(stop, "reading the graph file");
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            stopPoller.unit();
            const json& n = nodes[i];
            std::string where = "nodes[" + std::to_string(i) + "]";
            if (!n.is_object()) {
                error("", where, "must be an object");
                continue;
            }
            NodeSpec node;
            if (!n.contains("id") || !n["id"].is_string() || !isIdentifier(n["id"].get<std::string>())) {
                error("", where + ".id", "missing or not an identifier (letters, digits, '_' and '-')");
                continue;
            }
            node.id = n["id"];
            if (!ids.insert(node.id).second) {
                error(node.id, "id", "used by more than one node");
                continue;
            }
            if (n.contains("subgraph")) {
                // A subgraph node names a graph file instead of an operator type (subgraph.h).
                if (!n["subgraph"].is_string() || n["subgraph"].get<std::string>().empty()) error(node.id, "subgraph", "must be the path of a graph file");
                if (n.contains("type")) error(node.id, "type", "a node has either a 'type' or a 'subgraph', not both");
            } else if (!n.contains("type") || !n["type"].is_string()) {
                error(node.id, "type", "missing or not a string");
            } else {
                node.type = n["type"];
            }
            if (n.contains("params")) {
                if (!n["params"].is_object()) error(node.id, "params", "must be an object");
                else for (auto& [k, v] : n["params"].items()) node.params[k] = v;
            }
            if (n.contains("position")) {
                const json& p = n["position"];
                if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number()) {
                    node.position = NodePosition{p[0].get<double>(), p[1].get<double>()};
                } else {
                    error(node.id, "position", "must be [x, y]");
                }
            }
            if (n.contains("partition")) {
                const json& p = n["partition"];
                if (p.is_number_integer() && p.get<std::int64_t>() >= 0 && p.get<std::int64_t>() <= kMaxPartition) {
                    node.partition = p.get<int>();
                } else {
                    error(node.id, "partition", "must be a whole number from 0 to " + std::to_string(kMaxPartition) + " (the rank that runs the node), got " + p.dump());
                }
            }
            for (auto& [k, v] : n.items()) {
                if (!kNodeFields.count(k)) node.extra[k] = v;
            }
            graph.nodes.push_back(std::move(node));
        }
    }

    if (root.contains("edges")) {
        const json& edges = root["edges"];
        if (!edges.is_array()) {
            error("", "edges", "must be an array");
        } else {
            for (std::size_t i = 0; i < edges.size(); ++i) {
                const json& e = edges[i];
                std::string where = "edges[" + std::to_string(i) + "]";
                if (!e.is_object() || !e.contains("from") || !e.contains("to") || !e["from"].is_string() ||
                    !e["to"].is_string()) {
                    error("", where, "must be {\"from\": \"node.port\", \"to\": \"node.port\"}");
                    continue;
                }
                EdgeSpec edge;
                if (!splitEndpoint(e["from"], edge.fromNode, edge.fromPort)) {
                    error("", where + ".from", "\"" + e["from"].get<std::string>() + "\" is not \"node.port\"");
                    continue;
                }
                if (!splitEndpoint(e["to"], edge.toNode, edge.toPort)) {
                    error("", where + ".to", "\"" + e["to"].get<std::string>() + "\" is not \"node.port\"");
                    continue;
                }
                graph.edges.push_back(std::move(edge));
            }
        }
    }
    for (auto& [k, v] : root.items()) {
        if (!kGraphFields.count(k)) graph.extra[k] = v;
    }
    if (!errors.empty()) throw GraphException(std::move(errors));
    return graph;
}

GraphSpec loadGraphFile(const std::filesystem::path& path, const StopPoll& stop) {
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (fs::is_directory(status)) throw GraphException({{"", "", "", path.string() + " is a folder, not a graph file"}});
    // A device (/dev/zero) or a pipe never ends: reading it filled memory without end.
    if (fs::exists(status) && !fs::is_regular_file(status)) {
        const char* what = fs::is_fifo(status) ? "a named pipe" : fs::is_character_file(status) || fs::is_block_file(status) ? "a device" : "not a regular file";
        throw GraphException({{"", "", "", path.string() + " is " + what + ", not a graph file (a graph file must be a regular file)"}});
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw GraphException({{"", "", "", "cannot open graph file " + path.string() + ": " + std::strerror(errno)}});
    // Read in chunks, stopping as soon as the file holds more than a graph file may.
    std::string text;
    std::array<char, 64 * 1024> chunk{};
    while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
        text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxGraphFileBytes) {
            throw GraphException({{"", "", "", path.string() + " is larger than " + std::to_string(kMaxGraphFileBytes >> 20) +
                                                   " MiB, more than a graph file may hold"}});
        }
    }
    try {
        GraphSpec graph = parseGraph(text, stop);
        graph.baseDirectory = std::filesystem::absolute(path).parent_path();
        graph.fileName = path.filename().string();
        return graph;
    } catch (const GraphException& e) {
        std::vector<GraphError> errors = e.errors();
        for (auto& err : errors) err.message += " (in " + path.string() + ")";
        throw GraphException(std::move(errors));
    }
}

std::string serializeGraph(const GraphSpec& graph) {
    using nlohmann::ordered_json;
    auto ordered = [](const json& value) { return ordered_json::parse(value.dump()); };
    ordered_json root = ordered_json::object();
    root["format"] = kGraphFormat;
    if (!graph.name.empty()) root["name"] = graph.name;
    if (!graph.description.empty()) root["description"] = graph.description;
    ordered_json scheduler = {{"name", graph.scheduler.name}};
    if (!graph.scheduler.params.empty()) scheduler["params"] = ordered(json(graph.scheduler.params));
    root["scheduler"] = scheduler;
    ordered_json nodes = ordered_json::array();
    for (const auto& n : graph.nodes) {
        ordered_json node = ordered_json::object();
        node["id"] = n.id;
        if (!n.type.empty() || !n.extra.contains("subgraph")) node["type"] = n.type;
        if (!n.params.empty()) node["params"] = ordered(json(n.params));
        if (n.position) node["position"] = {n.position->x, n.position->y};
        if (n.partition) node["partition"] = *n.partition;
        if (n.extra.is_object()) {
            for (auto& [k, v] : n.extra.items()) node[k] = ordered(v);
        }
        nodes.push_back(std::move(node));
    }
    root["nodes"] = std::move(nodes);
    ordered_json edges = ordered_json::array();
    for (const auto& e : graph.edges) edges.push_back({{"from", e.from()}, {"to", e.to()}});
    root["edges"] = std::move(edges);
    for (auto& [k, v] : graph.extra.items()) root[k] = ordered(v);
    return root.dump(2) + "\n";
}

void saveGraphFile(const GraphSpec& graph, const std::filesystem::path& path) {
    std::filesystem::path temp = path;
    temp += ".saving";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) {
            const std::string why = std::generic_category().message(errno);  // set by the failed open
            const std::filesystem::path folder = path.parent_path().empty() ? "." : path.parent_path();
            std::error_code ignored;
            throw std::runtime_error("cannot write " + path.string() + ": " +
                                     (std::filesystem::is_directory(folder, ignored) ? why : "there is no folder " + folder.string()));
        }
        out << serializeGraph(graph);
        out.flush();
        if (!out) throw std::runtime_error("failed writing " + temp.string());
    }
    std::filesystem::rename(temp, path);
}

}  // namespace isochron
