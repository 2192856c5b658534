// RTC, run to completion (XStream III-C): a scheduled operator drains all of its input queues (the
// items queued when it starts: what loops back waits for its next turn); if it
// emitted, one successor that received items runs next, the others wait in the pending list;
// otherwise the least recently scheduled operator with pending items runs.
#pragma once

#include "engine/runtime/ring_buffer.h"
#include "engine/runtime/node_context.h"
#include "engine/schedulers/scheduler.h"

namespace isochron {

/// `rtc`. [engine thread]
class RunToCompletionScheduler final : public Scheduler {
public:
    std::string_view name() const override { return "rtc"; }
    void deliver(NodeContext& target, int port, Item&& item) override;
    void drain(const std::atomic<bool>& stop) override;

private:
    NodeContext* nextPending();

    RingBuffer<NodeContext*> pending_;  // nodes with queued items, least recently scheduled first
    NodeContext* firstSuccessor_ = nullptr;
};

}  // namespace isochron
