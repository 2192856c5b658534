#include "engine/graph/endless_run.h"

#include <cstddef>
#include <string>

#include "engine/graph/strong_components.h"

namespace isochron {
namespace {

constexpr std::size_t kNamesShown = 4;  // nodes named in one warning before "and N more"

std::vector<std::vector<int>> successorsOf(const ValidatedGraph& graph) {
    std::vector<std::vector<int>> successors(graph.nodes.size());
    for (const ValidatedEdge& e : graph.edges) successors[static_cast<std::size_t>(e.fromNode)].push_back(e.toNode);
    return successors;
}

// Which nodes a path leads to from any of `starts` (the starts included).
std::vector<bool> reachedFrom(const std::vector<std::vector<int>>& successors, const std::vector<int>& starts) {
    std::vector<bool> reached(successors.size(), false);
    std::vector<int> pending;
    for (int start : starts) {
        if (reached[static_cast<std::size_t>(start)]) continue;
        reached[static_cast<std::size_t>(start)] = true;
        pending.push_back(start);
    }
    while (!pending.empty()) {
        const int v = pending.back();
        pending.pop_back();
        for (int w : successors[static_cast<std::size_t>(v)]) {
            if (reached[static_cast<std::size_t>(w)]) continue;
            reached[static_cast<std::size_t>(w)] = true;
            pending.push_back(w);
        }
    }
    return reached;
}

// "'a', 'b' and 'c'", the first few of `names` and how many more.
std::string nameList(const std::vector<std::string>& names) {
    std::string text;
    const std::size_t shown = names.size() > kNamesShown + 1 ? kNamesShown : names.size();
    for (std::size_t i = 0; i < shown; ++i) {
        text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    }
    if (shown < names.size()) text += " and " + std::to_string(names.size() - shown) + " more";
    return text;
}

// The files written by sinks (nodes without outputs) among `reached`: "'out' (out.wav)"; "-" is
// standard output, not a file.
std::vector<std::string> filesWritten(const ValidatedGraph& graph, const std::vector<bool>& reached) {
    std::vector<std::string> files;
    for (std::size_t v = 0; v < graph.nodes.size(); ++v) {
        const ValidatedNode& node = graph.nodes[v];
        if (!reached[v] || !node.outputs.empty()) continue;
        for (const ParamSpec& spec : node.descriptor->params) {
            if (spec.kind != ParamKind::Path) continue;
            const std::string& path = node.params.getString(spec.name);
            if (!path.empty() && path != "-") files.push_back("'" + node.id + "' (" + path + ")");
        }
    }
    return files;
}

void warnEndlessSources(const ValidatedGraph& graph, const std::vector<std::vector<int>>& successors, std::vector<GraphError>& warnings) {
    for (std::size_t v = 0; v < graph.nodes.size(); ++v) {
        const ValidatedNode& node = graph.nodes[v];
        if (!node.descriptor->endlessBecause) continue;
        const std::string because = node.descriptor->endlessBecause(node.params);
        if (because.empty()) continue;
        std::string message = "produces without end (" + because + "): the run ends only when stopped (Ctrl-C)";
        const std::vector<std::string> files = filesWritten(graph, reachedFrom(successors, {static_cast<int>(v)}));
        if (!files.empty()) message += ", and until then " + nameList(files) + (files.size() == 1 ? " grows" : " grow") + " without bound";
        warnings.push_back({node.id, "", "", std::move(message)});
    }
}

// What the operators on a loop say about letting it drain (see endless_run.h).
enum class Drains { Never, Unknown, Yes };

void warnLoopsThatNeverDrain(const ValidatedGraph& graph, const std::vector<std::vector<int>>& successors, std::vector<GraphError>& warnings) {
    const std::vector<int> cycle = cycleOfEachNode(successors);
    std::vector<int> sources;
    for (std::size_t v = 0; v < graph.nodes.size(); ++v) {
        if (graph.nodes[v].descriptor->isSource()) sources.push_back(static_cast<int>(v));
    }
    const std::vector<bool> fed = reachedFrom(successors, sources);
    // Per cycle, in graph order of first members: its members, the ones that declare nothing, and
    // whether one of them declares it may drop items.
    struct Loop {
        std::vector<std::string> members;
        std::vector<std::string> undeclared;
        bool someDrop = false;
        bool fed = false;
        std::string first;
    };
    std::vector<Loop> loops;
    std::vector<std::size_t> order;  // loops by their first member's position in the graph
    for (std::size_t v = 0; v < graph.nodes.size(); ++v) {
        if (cycle[v] < 0) continue;
        const auto c = static_cast<std::size_t>(cycle[v]);
        if (loops.size() <= c) loops.resize(c + 1);
        Loop& loop = loops[c];
        const ValidatedNode& node = graph.nodes[v];
        if (loop.members.empty()) {
            loop.first = node.id;
            order.push_back(c);
        }
        loop.members.push_back("'" + node.id + "'");
        loop.fed = loop.fed || fed[v];
        const auto& passes = node.descriptor->passesEveryItem;
        if (!passes) loop.undeclared.push_back("'" + node.id + "' (" + node.descriptor->typeName + ")");
        else if (!passes(node.params)) loop.someDrop = true;
    }
    for (std::size_t c : order) {
        const Loop& loop = loops[c];
        if (loop.someDrop || !loop.fed) continue;
        const std::string through = loop.members.size() == 1 ? "feeds itself in a loop" : "is on a loop through " + nameList(loop.members);
        if (loop.undeclared.empty()) {
            warnings.push_back({loop.first, "", "",
                                through + " that never drains: every node on it passes each item on, so items that enter it circulate "
                                          "forever and the run ends only when stopped (a node that drops items, e.g. a universal box of "
                                          "selectivity below 1, lets it drain)"});
        } else {
            warnings.push_back({loop.first, "", "",
                                through + " that may never drain: no node on it is known to drop items (" + nameList(loop.undeclared) +
                                    (loop.undeclared.size() == 1 ? " does" : " do") +
                                    " not say), so items that enter it may circulate forever, the run then ending only when stopped, and "
                                    "what it computes may depend on the order the scheduler delivers items in (a node that drops items, "
                                    "e.g. a universal box of selectivity below 1, lets it drain)"});
        }
    }
}

}  // namespace

std::vector<GraphError> endlessRunWarnings(const ValidatedGraph& graph) {
    const std::vector<std::vector<int>> successors = successorsOf(graph);
    std::vector<GraphError> warnings;
    warnEndlessSources(graph, successors, warnings);
    warnLoopsThatNeverDrain(graph, successors, warnings);
    return warnings;
}

}  // namespace isochron
