#include "ui/layout/layered_layout.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>

namespace isochron::ui {
namespace {

// Vertices are boxes followed by waypoints; every arc joins a vertex to one in the next layer.
struct LayeredGraph {
    int boxes = 0;
    std::vector<int> layer;
    std::vector<std::vector<int>> down, up;
    std::vector<std::vector<int>> order;  // per layer, left (top on screen) to right (bottom)
    std::vector<int> rank;                // position of each vertex in its layer

    void renumber(int l) {
        for (std::size_t i = 0; i < order[l].size(); ++i) rank[order[l][i]] = static_cast<int>(i);
    }
};

// Links that close a cycle are turned around (depth-first search from each box in index order).
std::vector<LayoutLink> acyclicLinks(int count, const std::vector<LayoutLink>& links) {
    std::vector<std::vector<int>> out(count);
    for (std::size_t i = 0; i < links.size(); ++i) out[links[i].from].push_back(static_cast<int>(i));
    enum class Mark { New, Active, Done };
    std::vector<Mark> mark(count, Mark::New);
    std::vector<bool> reversed(links.size(), false);
    std::function<void(int)> visit = [&](int v) {
        mark[v] = Mark::Active;
        for (int li : out[v]) {
            int w = links[li].to;
            if (mark[w] == Mark::Active) reversed[li] = true;
            else if (mark[w] == Mark::New) visit(w);
        }
        mark[v] = Mark::Done;
    };
    for (int v = 0; v < count; ++v) {
        if (mark[v] == Mark::New) visit(v);
    }
    std::vector<LayoutLink> result;
    for (std::size_t i = 0; i < links.size(); ++i) {
        const LayoutLink& l = links[i];
        if (l.from == l.to) continue;
        result.push_back(reversed[i] ? LayoutLink{l.to, l.from} : l);
    }
    return result;
}

// Longest path from the sources, then sources moved right next to their first consumer.
std::vector<int> assignLayers(int count, const std::vector<LayoutLink>& links) {
    std::vector<std::vector<int>> succ(count);
    std::vector<int> indegree(count, 0);
    for (const LayoutLink& l : links) {
        succ[l.from].push_back(l.to);
        ++indegree[l.to];
    }
    std::vector<int> layer(count, 0);
    std::vector<int> ready;
    for (int v = count - 1; v >= 0; --v) {
        if (indegree[v] == 0) ready.push_back(v);
    }
    std::vector<int> remaining = indegree;
    while (!ready.empty()) {
        int v = ready.back();
        ready.pop_back();
        for (int w : succ[v]) {
            layer[w] = std::max(layer[w], layer[v] + 1);
            if (--remaining[w] == 0) ready.push_back(w);
        }
    }
    for (int v = 0; v < count; ++v) {
        if (indegree[v] != 0 || succ[v].empty()) continue;
        int nearest = std::numeric_limits<int>::max();
        for (int w : succ[v]) nearest = std::min(nearest, layer[w]);
        layer[v] = nearest - 1;
    }
    return layer;
}

LayeredGraph buildLayers(int count, const std::vector<LayoutLink>& links) {
    LayeredGraph g;
    g.boxes = count;
    g.layer = assignLayers(count, links);
    g.down.resize(count);
    g.up.resize(count);
    for (const LayoutLink& l : links) {
        int previous = l.from;
        for (int step = g.layer[l.from] + 1; step < g.layer[l.to]; ++step) {
            int waypoint = static_cast<int>(g.layer.size());
            g.layer.push_back(step);
            g.down.emplace_back();
            g.up.emplace_back();
            g.down[previous].push_back(waypoint);
            g.up[waypoint].push_back(previous);
            previous = waypoint;
        }
        g.down[previous].push_back(l.to);
        g.up[l.to].push_back(previous);
    }
    int layers = g.layer.empty() ? 0 : *std::max_element(g.layer.begin(), g.layer.end()) + 1;
    g.order.resize(layers);
    for (std::size_t v = 0; v < g.layer.size(); ++v) g.order[g.layer[v]].push_back(static_cast<int>(v));
    g.rank.resize(g.layer.size());
    for (int l = 0; l < layers; ++l) g.renumber(l);
    return g;
}

int totalCrossings(const LayeredGraph& g) { return countLayerCrossings(g.order, g.down); }

// Reorder one layer by the mean rank of its neighbours in the fixed layer.
void sortByBarycentre(LayeredGraph& g, int l, bool fromAbove) {
    auto& row = g.order[l];
    std::vector<double> key(g.layer.size());
    for (int v : row) {
        const auto& neighbours = fromAbove ? g.up[v] : g.down[v];
        if (neighbours.empty()) {
            key[v] = g.rank[v];
            continue;
        }
        double sum = 0;
        for (int w : neighbours) sum += g.rank[w];
        key[v] = sum / static_cast<double>(neighbours.size());
    }
    std::stable_sort(row.begin(), row.end(), [&](int a, int b) { return key[a] < key[b]; });
    g.renumber(l);
}

// Crossings among the links of u and w (both in one layer) when u is placed before w.
int pairCrossings(const LayeredGraph& g, int u, int w) {
    int crossings = 0;
    for (const auto* side : {&g.up, &g.down}) {
        for (int a : (*side)[u]) {
            for (int b : (*side)[w]) {
                if (g.rank[a] > g.rank[b]) ++crossings;
            }
        }
    }
    return crossings;
}

// Swap neighbours while that removes crossings.
void transpose(LayeredGraph& g) {
    for (bool improved = true; improved;) {
        improved = false;
        for (std::size_t l = 0; l < g.order.size(); ++l) {
            auto& row = g.order[l];
            for (std::size_t i = 0; i + 1 < row.size(); ++i) {
                if (pairCrossings(g, row[i + 1], row[i]) < pairCrossings(g, row[i], row[i + 1])) {
                    std::swap(row[i], row[i + 1]);
                    g.renumber(static_cast<int>(l));
                    improved = true;
                }
            }
        }
    }
}

void orderLayers(LayeredGraph& g) {
    auto best = g.order;
    int bestCrossings = totalCrossings(g);
    const int layers = static_cast<int>(g.order.size());
    for (int sweep = 0; sweep < 24 && bestCrossings > 0; ++sweep) {
        if (sweep % 2 == 0) {
            for (int l = 1; l < layers; ++l) sortByBarycentre(g, l, true);
        } else {
            for (int l = layers - 2; l >= 0; --l) sortByBarycentre(g, l, false);
        }
        transpose(g);
        int crossings = totalCrossings(g);
        if (crossings < bestCrossings) {
            bestCrossings = crossings;
            best = g.order;
        }
    }
    g.order = best;
    for (int l = 0; l < layers; ++l) g.renumber(l);
}

// Vertical placement: each vertex wants the mean centre of its neighbours; a layer keeps its order
// and gaps, shifted as a whole to the mean of what its vertices want.
std::vector<double> placeVertically(const LayeredGraph& g, const std::vector<LayoutBox>& boxes, double gap) {
    std::vector<double> height(g.layer.size(), 0.0);
    for (int v = 0; v < g.boxes; ++v) height[v] = boxes[v].height;
    std::vector<double> top(g.layer.size(), 0.0);
    auto pack = [&](std::size_t l, const std::vector<double>& wanted) {
        const auto& row = g.order[l];
        double shift = 0;
        for (std::size_t i = 0; i < row.size(); ++i) {
            auto v = row[i];
            top[v] = wanted[v];
            if (i > 0) {
                auto previous = row[i - 1];
                top[v] = std::max(top[v], top[previous] + height[previous] + gap);
            }
            shift += wanted[v] - top[v];
        }
        if (!row.empty()) shift /= static_cast<double>(row.size());
        for (int v : row) top[v] += shift;
    };
    std::vector<double> wanted(g.layer.size(), 0.0);
    for (std::size_t l = 0; l < g.order.size(); ++l) pack(l, wanted);
    auto centre = [&](int v) { return top[v] + height[v] / 2; };
    for (int pass = 0; pass < 8; ++pass) {
        const bool downward = pass % 2 == 0;
        for (std::size_t step = 0; step < g.order.size(); ++step) {
            std::size_t l = downward ? step : g.order.size() - 1 - step;
            for (int v : g.order[l]) {
                const auto& neighbours = downward ? g.up[v] : g.down[v];
                if (neighbours.empty()) {
                    wanted[v] = top[v];
                    continue;
                }
                double sum = 0;
                for (int w : neighbours) sum += centre(w);
                wanted[v] = sum / static_cast<double>(neighbours.size()) - height[v] / 2;
            }
            pack(l, wanted);
        }
    }
    return top;
}

}  // namespace

int countLayerCrossings(const std::vector<std::vector<int>>& order, const std::vector<std::vector<int>>& down) {
    std::vector<int> rank(down.size(), 0);
    for (const auto& row : order) {
        for (std::size_t i = 0; i < row.size(); ++i) rank[row[i]] = static_cast<int>(i);
    }
    int crossings = 0;
    for (const auto& row : order) {
        std::vector<std::pair<int, int>> segments;
        for (int v : row) {
            for (int w : down[v]) segments.push_back({rank[v], rank[w]});
        }
        for (std::size_t i = 0; i < segments.size(); ++i) {
            for (std::size_t j = i + 1; j < segments.size(); ++j) {
                const auto& [a1, b1] = segments[i];
                const auto& [a2, b2] = segments[j];
                if ((a1 < a2 && b1 > b2) || (a1 > a2 && b1 < b2)) ++crossings;
            }
        }
    }
    return crossings;
}

LayoutResult layeredLayout(const std::vector<LayoutBox>& boxes, const std::vector<LayoutLink>& links, LayoutSpacing spacing) {
    const int count = static_cast<int>(boxes.size());
    LayeredGraph g = buildLayers(count, acyclicLinks(count, links));
    orderLayers(g);
    std::vector<double> top = placeVertically(g, boxes, spacing.boxGap);

    std::vector<double> layerX(g.order.size(), 0.0);
    double x = 0;
    for (std::size_t l = 0; l < g.order.size(); ++l) {
        layerX[l] = x;
        double widest = 0;
        for (int v : g.order[l]) {
            if (v < count) widest = std::max(widest, boxes[v].width);
        }
        x += widest + spacing.layerGap;
    }
    LayoutResult result;
    result.crossings = totalCrossings(g);
    double topmost = std::numeric_limits<double>::max();
    for (int v = 0; v < count; ++v) topmost = std::min(topmost, top[v]);
    for (int v = 0; v < count; ++v) {
        result.x.push_back(layerX[g.layer[v]]);
        result.y.push_back(top[v] - topmost);
        result.layer.push_back(g.layer[v]);
    }
    return result;
}

}  // namespace isochron::ui
