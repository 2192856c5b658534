#include "engine/runtime/node_call_scope.h"

#include <atomic>
#include <cstddef>

#include "engine/operators/descriptor.h"
#include "engine/runtime/node_context.h"

namespace isochron {

/// One thread's innermost marked call.
struct NodeCallInProgress {
    std::atomic<const NodeContext*> node{nullptr};
    std::atomic<const char*> hook{nullptr};
};

namespace {

/// One entry per thread that has called a node, released when the thread ends; a thread that finds
/// the table full is not named.
constexpr std::size_t kTrackedThreads = 256;
NodeCallInProgress callsInProgress[kTrackedThreads];
std::atomic<bool> entryTaken[kTrackedThreads];

/// Claims an entry for this thread on first use and gives it back when the thread ends.
struct ThreadEntry {
    NodeCallInProgress* entry = nullptr;
    std::size_t index = 0;
    ThreadEntry() {
        for (std::size_t i = 0; i < kTrackedThreads; ++i) {
            bool expected = false;
            if (!entryTaken[i].load(std::memory_order_relaxed) && entryTaken[i].compare_exchange_strong(expected, true)) {
                entry = &callsInProgress[i];
                index = i;
                return;
            }
        }
    }
    ~ThreadEntry() {
        if (!entry) return;
        entry->node.store(nullptr);
        entryTaken[index].store(false);
    }
};

/// This thread's entry, or null when the table is full. The fast path is one initial-exec TLS load
/// (the engine library is loaded with the program, never by dlopen).
constinit __attribute__((tls_model("initial-exec"))) thread_local NodeCallInProgress* thisThreadsEntry = nullptr;

[[gnu::noinline]] NodeCallInProgress* claimEntry() noexcept {
    thread_local ThreadEntry claimed;
    thisThreadsEntry = claimed.entry;
    return claimed.entry;
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

std::string describeUnreturnedNodeCalls() {
    std::string text;
    for (NodeCallInProgress& call : callsInProgress) {
        const NodeContext* node = call.node.load(std::memory_order_acquire);
        const char* hook = call.hook.load(std::memory_order_relaxed);
        if (!node || !hook) continue;
        text += (text.empty() ? "node '" : ", node '") + node->id + "' (" + node->descriptor->typeName + ") in its " + hook + " call";
    }
    return text;
}

}  // namespace isochron
