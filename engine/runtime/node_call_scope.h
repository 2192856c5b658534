// Which node each engine thread is inside, readable from any thread: a stop request that is not
// honoured (a sink blocked writing to a pipe nobody reads) then names the node whose call did not
// return, as a plugin's call is named (plugin_crash_note.h). Marked around the calls that may wait on
// the outside world: a source's produce, an output's process and progress, and a node's finish (a
// last flush); not around every hop between nodes, which must stay cheap.
#pragma once

#include <string>

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

/// The node calls in progress on every thread, innermost per thread, e.g. "node 'out'
/// (io.jsonl_event_sink) in its process call"; "" when none. Reads the nodes' ids and types: call it
/// while their engines exist. A call that ends meanwhile may be named. [any thread]
std::string describeUnreturnedNodeCalls();

}  // namespace isochron
