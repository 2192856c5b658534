// Which node each engine thread is inside, readable from any thread: a stop request that is not
// honoured (a sink blocked writing to a pipe nobody reads) then names the node whose call did not
// return, as a plugin's call is named (plugin_crash_note.h). Marked around the calls that may wait on
// the outside world: a source's produce, an output's process and progress, and a node's finish (a
// last flush); not around every hop between nodes, which must stay cheap.
#pragma once

#include <string>
#include <vector>

namespace isochron {

struct NodeContext;
struct NodeCallInProgress;

/// Marks the calling thread as inside `hook` ("process", "produce", ...) of `node` while alive; the
/// innermost of nested scopes is the one shown. [engine thread] [no allocation after a thread's first]
class NodeCallScope {
public:
    NodeCallScope(const NodeContext& node, const char* hook) noexcept;
    ~NodeCallScope();
    NodeCallScope(const NodeCallScope&) = delete;
    NodeCallScope& operator=(const NodeCallScope&) = delete;

private:
    NodeCallInProgress* entry_;
    const NodeContext* previousNode_;
    const char* previousHook_;
};

/// The node each engine of `nodes` is calling now, with its type and hook, e.g. "node 'b1'
/// (workload.universal_box) in its process call"; "" when none. The node is the engine's
/// CostClock::inCall, so any node's call is named under every scheduler (the marked calls alone
/// named only outputs and sources: under depth-first the source feeding a node that computed for
/// seconds, under the others nothing); the hook is its marked one, else process (produce and finish
/// are always marked).
/// Reads the nodes' ids and types: call it while their engines exist. [any thread]
std::string describeNodeCallsInProgress(const std::vector<const NodeContext*>& nodes);

/// The nodes' start calls (create, activate; marked by the engine as it builds) in progress on any
/// thread, e.g. "node 'src' (io.audio_file_source) in its activate call"; "" when none. What a stop
/// that the start does not honour names: there is no engine yet to ask which node it is calling.
/// Reads the nodes' ids and types: call it while the engines being built exist. [any thread]
std::string describeNodeStartsInProgress();

}  // namespace isochron
