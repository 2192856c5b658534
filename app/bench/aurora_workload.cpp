#include "app/bench/aurora_workload.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace isochron::bench {
namespace {

struct Box {
    std::string id;
    int parent = -1;  // index in the tree's box list; -1 for the root
    int parentPort = 0;
    double costUs = 0;
    double selectivity = 1;
    bool leaf = false;
};

/// The boxes of one tree, level by level from the root.
std::vector<Box> treeBoxes(int tree, const WorkloadSpec& spec, std::mt19937_64& random) {
    std::uniform_real_distribution<double> cost(spec.minCostUs, spec.maxCostUs);
    std::uniform_real_distribution<double> selectivity(spec.minSelectivity, spec.maxSelectivity);
    std::vector<Box> boxes;
    std::vector<int> level{0};
    boxes.push_back({});
    for (int depth = 1; depth <= spec.depth; ++depth) {
        std::vector<int> next;
        for (int index : level) {
            boxes[static_cast<std::size_t>(index)].leaf = depth == spec.depth;
            if (depth == spec.depth) continue;
            for (int child = 0; child < spec.fanOut; ++child) {
                next.push_back(static_cast<int>(boxes.size()));
                boxes.push_back({"", index, child});
            }
        }
        level = std::move(next);
    }
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        std::string name = "b";
        name += std::to_string(i + 1);
        boxes[i].id = treeNodeId(tree, name);
        boxes[i].costUs = spec.minCostUs == spec.maxCostUs ? spec.minCostUs : cost(random);
        boxes[i].selectivity = spec.minSelectivity == spec.maxSelectivity ? spec.minSelectivity : selectivity(random);
    }
    return boxes;
}

/// Work (us) one item entering at `leaf` causes on its way to the output.
double pathCostUs(const std::vector<Box>& boxes, int leaf) {
    double cost = 0, reaching = 1;
    for (int b = leaf; b >= 0; b = boxes[static_cast<std::size_t>(b)].parent) {
        cost += reaching * boxes[static_cast<std::size_t>(b)].costUs;
        reaching *= boxes[static_cast<std::size_t>(b)].selectivity;
    }
    return cost;
}

nlohmann::json qosJson(const QosGraph& qos) {
    nlohmann::json points = nlohmann::json::array();
    for (const QosPoint& p : qos.points()) points.push_back({p.latencyMs, p.utility});
    return points;
}

}  // namespace

std::string treeNodeId(int tree, const std::string& name) {
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on literal + std::string chains.
    std::string id = "t";
    id += std::to_string(tree);
    id += '_';
    id += name;
    return id;
}

Workload buildWorkload(const WorkloadSpec& spec) {
    if (spec.trees < 1 || spec.depth < 1 || spec.fanOut < 1) throw std::invalid_argument("a workload needs trees, depth and fan-out >= 1");
    if (!(spec.capacity > 0)) throw std::invalid_argument("a workload's capacity must be > 0");
    std::mt19937_64 random(spec.seed);
    Workload workload;
    GraphSpec& graph = workload.graph;
    graph.name = "aurora-workload";
    graph.nodes.push_back({"source", "workload.tuple_source", {}, std::nullopt, nlohmann::json::object()});

    std::vector<int> deal;
    for (int t = 0; t < spec.trees && !spec.qosGraphs.empty(); ++t) deal.push_back(t % static_cast<int>(spec.qosGraphs.size()));
    std::shuffle(deal.begin(), deal.end(), random);

    double totalPathCostUs = 0;
    for (int t = 0; t < spec.trees; ++t) {
        const std::vector<Box> boxes = treeBoxes(t, spec, random);
        NodeSpec sink{treeNodeId(t, "out"), "io.null_sink", {}, std::nullopt, nlohmann::json::object()};
        workload.qosOfTree.push_back(deal.empty() ? -1 : deal[static_cast<std::size_t>(t)]);
        if (!deal.empty()) sink.extra["qos"] = qosJson(spec.qosGraphs[static_cast<std::size_t>(deal[static_cast<std::size_t>(t)])]);
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            const Box& box = boxes[i];
            graph.nodes.push_back({box.id, "workload.universal_box",
                                   {{"inputs", box.leaf ? 1 : spec.fanOut}, {"cost_us", box.costUs}, {"selectivity", box.selectivity}},
                                   std::nullopt, nlohmann::json::object()});
            if (box.parent < 0) {
                graph.edges.push_back({box.id, "out", sink.id, "in"});
            } else {
                graph.edges.push_back({box.id, "out", boxes[static_cast<std::size_t>(box.parent)].id, "in" + std::to_string(box.parentPort)});
            }
            if (box.leaf) {
                graph.edges.push_back({"source", "out" + std::to_string(workload.streams), box.id, "in0"});
                totalPathCostUs += pathCostUs(boxes, static_cast<int>(i));
                ++workload.streams;
            }
        }
        graph.nodes.push_back(std::move(sink));
    }
    if (!(totalPathCostUs > 0) && spec.pace > 0) throw std::invalid_argument("a paced workload needs boxes that cost something");
    workload.meanPathCostUs = totalPathCostUs / workload.streams;
    // Unpaced, the rate only numbers the items' times.
    workload.ratePerStream = totalPathCostUs > 0 ? spec.capacity / (totalPathCostUs * 1e-6) : 1.0;
    const double items = spec.itemsPerStream > 0 ? static_cast<double>(spec.itemsPerStream)
                                                 : std::max(1.0, std::round(workload.ratePerStream * spec.seconds));
    graph.nodes.front().params = {{"streams", workload.streams},
                                  {"rate", workload.ratePerStream},
                                  {"burst", spec.burst},
                                  {"aligned", spec.aligned},
                                  {"count", static_cast<std::int64_t>(items)},
                                  {"pace", spec.pace},
                                  {"max_lag", 3600.0}};
    return workload;
}

}  // namespace isochron::bench
