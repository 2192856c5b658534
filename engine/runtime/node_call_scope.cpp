#include "engine/runtime/node_call_scope.h"

#include <algorithm>
#include <atomic>
#include <string_view>

#include "engine/operators/descriptor.h"
#include "engine/runtime/node_context.h"
#include "engine/runtime/thread_slots.h"

namespace isochron {

/// One thread's innermost marked call.
struct NodeCallInProgress {
    std::atomic<const NodeContext*> node{nullptr};
    std::atomic<const char*> hook{nullptr};
    void clear() noexcept { node.store(nullptr); }
};

namespace {

/// This thread's slot, or null when the table is full. The fast path is one initial-exec TLS load
/// (the engine library is loaded with the program, never by dlopen).
constinit __attribute__((tls_model("initial-exec"))) thread_local NodeCallInProgress* thisThreadsEntry = nullptr;

[[gnu::noinline]] NodeCallInProgress* claimEntry() noexcept {
    thisThreadsEntry = ThreadSlots<NodeCallInProgress>::mine();
    return thisThreadsEntry;
}

}  // namespace

NodeCallScope::NodeCallScope(const NodeContext& node, const char* hook) noexcept
    : entry_(thisThreadsEntry ? thisThreadsEntry : claimEntry()), previousNode_(nullptr), previousHook_(nullptr) {
    if (!entry_) return;
    previousNode_ = entry_->node.load(std::memory_order_relaxed);
    previousHook_ = entry_->hook.load(std::memory_order_relaxed);
    entry_->hook.store(hook, std::memory_order_relaxed);
    entry_->node.store(&node, std::memory_order_release);
}

NodeCallScope::~NodeCallScope() {
    if (!entry_) return;
    entry_->hook.store(previousHook_, std::memory_order_relaxed);
    entry_->node.store(previousNode_, std::memory_order_release);
}

std::string describeNodeCallsInProgress(const std::vector<const NodeContext*>& nodes) {
    std::vector<const CostClock*> clocks;  // one per engine (per partition thread)
    for (const NodeContext* node : nodes) {
        if (node->costClock && std::find(clocks.begin(), clocks.end(), node->costClock) == clocks.end()) clocks.push_back(node->costClock);
    }
    std::string text;
    for (const CostClock* clock : clocks) {
        const NodeContext* node = clock->inCall.load(std::memory_order_acquire);
        if (!node) continue;
        const char* hook = "process";
        ThreadSlots<NodeCallInProgress>::forEach([&](const NodeCallInProgress& call) {
            const char* marked = call.hook.load(std::memory_order_relaxed);
            if (call.node.load(std::memory_order_acquire) == node && marked) hook = marked;
        });
        text += (text.empty() ? "node '" : ", node '") + node->id + "' (" + node->descriptor->typeName + ") in its " + hook + " call";
    }
    return text;
}

std::string describeNodeStartsInProgress() {
    std::string text;
    ThreadSlots<NodeCallInProgress>::forEach([&](const NodeCallInProgress& call) {
        const NodeContext* node = call.node.load(std::memory_order_acquire);
        const char* hook = call.hook.load(std::memory_order_relaxed);
        if (!node || !hook || (std::string_view(hook) != "create" && std::string_view(hook) != "activate")) return;
        text += (text.empty() ? "node '" : ", node '") + node->id + "' (" + node->descriptor->typeName + ") in its " + hook + " call";
    });
    return text;
}

}  // namespace isochron
