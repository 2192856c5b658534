// The scheduler contract: how emitted items reach their targets, and in what order queued work runs.
//
// The engine owns the outer loop (admitting items from sources, with optional rate control, then
// asking the scheduler to drain to quiescence). A scheduler decides two things: what deliver() does
// with an emitted item (run the target now, or queue it) and the order drain() runs queued work in.
// All schedulers give identical outputs for the same graph and input: operators see each input's
// items in order, and only the interleaving across ports and nodes differs.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/graph/graph_spec.h"
#include "engine/items/item.h"
#include "engine/operators/parameter.h"

namespace isochron {

class NodeContext;

/// Interface of every scheduler. [engine thread]
class Scheduler {
public:
    virtual ~Scheduler() = default;
    virtual std::string_view name() const = 0;
    /// Called once with the nodes before the run.
    virtual void prepare(const std::vector<NodeContext*>& nodes) { (void)nodes; }
    /// Called on the engine thread before each round of source admission (and before drains that
    /// do not follow one).
    virtual void beginRound() {}
    /// An item emitted toward input `port` of `target`. [engine thread] [no system allocation in steady state]
    virtual void deliver(NodeContext& target, int port, Item&& item) = 0;
    /// Run queued work until none is left or `stop` becomes true.
    virtual void drain(const std::atomic<bool>& stop) = 0;

protected:
    /// Invoke target's operator on one item, marking it as executing (for loop detection).
    static void invoke(NodeContext& target, int port, Item&& item);
    /// Pop and invoke the next queued item of input `port`.
    static void invokeQueued(NodeContext& target, int port);
};

/// A scheduler's name, one-line doc and parameters (shared by the runner, bench and editor).
struct SchedulerInfo {
    std::string name;
    std::string summary;
    std::vector<ParamSpec> params;
};

/// Every scheduler this build knows, in display order.
const std::vector<SchedulerInfo>& availableSchedulers();

/// Validated scheduler parameters (defaults filled in). Throws std::invalid_argument naming the
/// scheduler or parameter when the name is unknown or a value is invalid.
ParamSet schedulerParams(const SchedulerSpec& spec);
/// A new scheduler for `spec`; throws std::invalid_argument as schedulerParams() does.
std::unique_ptr<Scheduler> createScheduler(const SchedulerSpec& spec);
/// Parse "name" or "name:key=value,key=value" (the runner's --scheduler syntax).
SchedulerSpec parseSchedulerText(const std::string& text);

}  // namespace isochron
