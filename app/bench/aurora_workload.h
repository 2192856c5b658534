// Aurora's synthetic workloads (VLDB 2003, section 5.1), built as Isochron graphs: K application
// trees of universal boxes, each rooted at one output with its own QoS graph, fed by the streams of
// one workload.tuple_source.
//
// A tree of depth d and fan-out f has one box at level 1 (feeding the output) and f children under
// every box above level d; each leaf box takes one input stream. An item entering at a leaf costs
// the sum, along its path to the output, of each box's cost times the share of items that reach it
// (the product of the selectivities before it). The *capacity* c sets every stream's rate r so that
// the work the input asks for is that fraction of one core:
//     r x (sum over all leaves of the path cost) = c.
// Only the boxes' own work counts (the paper's "ideal" capacity); every overhead comes on top, so a
// real engine saturates somewhat below c = 1.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/graph/graph_spec.h"
#include "engine/qos/qos_graph.h"

namespace isochron::bench {

/// What to build. Costs and selectivities are drawn per box, uniformly, from a generator seeded by
/// `seed`; QoS graphs are dealt to the trees in equal shares, in a seeded random order. [value type]
struct WorkloadSpec {
    int trees = 5;
    int depth = 5;                   ///< boxes on the way from a leaf to the output, >= 1
    int fanOut = 3;                  ///< inputs of every box above the leaves, >= 1
    double minCostUs = 100, maxCostUs = 1000;  ///< CPU work per item of each box (us)
    double minSelectivity = 1, maxSelectivity = 1;
    std::vector<QosGraph> qosGraphs;  ///< dealt to the trees; empty: the engine's default
    double capacity = 0.5;           ///< offered work as a fraction of one core (> 0)
    int burst = 1;                   ///< items a stream receives at once
    bool aligned = false;            ///< all streams' bursts arrive together (else staggered)
    double seconds = 1;              ///< input duration at pace 1 (the run ends when it is drained)
    double pace = 1;                 ///< 1 = real time; 0 = as fast as possible (boxes may then cost 0)
    std::int64_t itemsPerStream = 0; ///< > 0: exactly this many (else rate x seconds)
    std::uint64_t seed = 1;
};

/// The built graph and the figures the benchmarks report against. [value type]
struct Workload {
    GraphSpec graph;
    int streams = 0;
    double ratePerStream = 0;        ///< items/s on every stream
    double meanPathCostUs = 0;       ///< average work an input item causes, leaf to output
    std::vector<int> qosOfTree;      ///< index into spec.qosGraphs per tree (-1: default)
};

/// Id of a node of tree `tree`: "t<tree>_<name>" (names: "out", "b1", "b2", ...).
std::string treeNodeId(int tree, const std::string& name);

/// Build the graph for `spec`. Sink ids are "t<k>_out", box ids "t<k>_b<n>" (n from 1 at the root,
/// level by level), the source "source". Throws std::invalid_argument for a bad spec.
Workload buildWorkload(const WorkloadSpec& spec);

}  // namespace isochron::bench
