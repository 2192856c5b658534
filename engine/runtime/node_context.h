// The engine's side of a node: its operator, ports, routing, queues, progress and counters.
// Operators see it only through Operator's accessors; schedulers and telemetry read it directly.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/graph/validated_graph.h"
#include "engine/operators/operator.h"
#include "engine/runtime/item_queue.h"
#include "engine/telemetry/latency_histogram.h"

namespace isochron {

class Engine;
class Scheduler;
class NodeContext;

/// Where an output port's items go.
struct Target {
    NodeContext* node;
    int port;
};

/// One input port at run time. [engine thread]
struct InputState {
    ResolvedPort port;
    bool connected = false;
    TimeNs progress = kBeginningOfTime;
    ItemQueue queue;  ///< used by queueing schedulers and by DF for loop-closing edges
    bool listed = false;  ///< queueing schedulers: this queue is in the scheduler's ready list
    std::uint64_t items = 0;
    std::uint64_t samples = 0;
};

/// One output port at run time. [engine thread]
struct OutputState {
    ResolvedPort port;
    std::vector<Target> targets;
    std::uint64_t items = 0;
    std::uint64_t samples = 0;
};

/// A node as the engine runs it. [engine thread; read-only elsewhere after the run]
class NodeContext {
public:
    std::string id;
    int index = 0;  ///< position in Engine::nodes()
    const OperatorDescriptor* descriptor = nullptr;
    ParamSet params;
    std::vector<InputState> inputs;
    std::vector<OutputState> outputs;
    std::unique_ptr<Operator> op;
    Scheduler* scheduler = nullptr;
    Engine* engine = nullptr;

    // Progress bookkeeping (see Operator).
    TimeNs minimumInputProgress = kBeginningOfTime;
    TimeNs outputProgress = kBeginningOfTime;
    bool finished = false;  ///< every input ended (or the source finished) and onFinish ran
    bool failed = false;    ///< a hook threw: the node is disabled, its outputs ended
    std::string failure;
    std::vector<std::string> warnings;  ///< the first 100
    std::uint64_t warningCount = 0;

    // Counters.
    std::uint64_t calls = 0;  ///< process/produce invocations
    LatencyHistogram latency;  ///< sinks: emission time - arrival time per item
    TimeNs firstItemWallNs = 0;
    TimeNs lastItemWallNs = 0;

    // Scratch space owned by the running scheduler.
    bool onStack = false;           ///< DF: the node is executing (a delivery to it closes a loop)
    bool scheduled = false;         ///< queueing schedulers: already in the ready list
    std::uint64_t lastServed = 0;   ///< scheduler tick of the last service

    bool isSource() const { return descriptor->isSource(); }
    bool isSink() const { return outputs.empty(); }
    /// Items waiting in this node's input queues.
    std::size_t queuedItems() const;

    /// Send an item to every target of output `port` (copies for all but the last). [engine thread]
    void route(int port, Item&& item);
};

}  // namespace isochron
