#include "engine/graph/strong_components.h"

#include <algorithm>
#include <cstddef>

namespace isochron {

std::vector<int> cycleOfEachNode(const std::vector<std::vector<int>>& successors) {
    const auto n = successors.size();
    std::vector<int> cycle(n, -1);
    std::vector<int> order(n, -1), low(n, 0);
    std::vector<bool> onStack(n, false), selfLoop(n, false);
    std::vector<int> component;
    // A frame: node v and the index of its next successor to visit.
    struct Frame {
        int node;
        std::size_t next = 0;
    };
    std::vector<Frame> frames;
    int counter = 0;
    int cycles = 0;
    auto open = [&](int v) {
        order[static_cast<std::size_t>(v)] = low[static_cast<std::size_t>(v)] = counter++;
        component.push_back(v);
        onStack[static_cast<std::size_t>(v)] = true;
        frames.push_back({v});
    };
    for (std::size_t root = 0; root < n; ++root) {
        if (order[root] >= 0) continue;
        open(static_cast<int>(root));
        while (!frames.empty()) {
            Frame& frame = frames.back();
            const auto v = static_cast<std::size_t>(frame.node);
            if (frame.next < successors[v].size()) {
                const int w = successors[v][frame.next++];
                const auto wi = static_cast<std::size_t>(w);
                if (wi == v) selfLoop[v] = true;
                if (order[wi] < 0) open(w);  // invalidates `frame`; v resumes when w's frame closes
                else if (onStack[wi]) low[v] = std::min(low[v], order[wi]);
                continue;
            }
            frames.pop_back();
            if (!frames.empty()) {
                const auto parent = static_cast<std::size_t>(frames.back().node);
                low[parent] = std::min(low[parent], low[v]);
            }
            if (low[v] != order[v]) continue;
            std::size_t first = component.size();
            while (static_cast<std::size_t>(component[--first]) != v) {}
            const bool isCycle = component.size() - first > 1 || selfLoop[v];
            for (std::size_t i = first; i < component.size(); ++i) {
                const auto member = static_cast<std::size_t>(component[i]);
                onStack[member] = false;
                if (isCycle) cycle[member] = cycles;
            }
            if (isCycle) ++cycles;
            component.resize(first);
        }
    }
    return cycle;
}

}  // namespace isochron
