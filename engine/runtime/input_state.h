// InputState: one input port as the engine runs it. Its own header so that Operator can read an
// input's progress inline (node_context.h includes operator.h).
#pragma once

#include <cstdint>

#include "engine/operators/descriptor.h"
#include "engine/runtime/item_queue.h"
#include "engine/runtime/published_count.h"
#include "engine/time/timebase.h"

namespace isochron {

/// One input port at run time. What a delivery counts comes first, in one cache line (the queue,
/// used only when items wait, follows). [engine thread; the counts readable from any thread]
struct alignas(64) InputState {
    TimeNs progress = kBeginningOfTime;
    PublishedCount items;    ///< data items received (progress excluded)
    PublishedCount samples;
    PublishedCount lateItems;  ///< data items older than this input's progress (Operator::countLate)
    bool connected = false;
    bool listed = false;  ///< queueing schedulers: this queue is in the scheduler's ready list
    /// The end on this input came from a failure upstream (its feeder, or a node before it, failed):
    /// what arrived is not the whole stream. Written by the feeder before it sends the end.
    bool cutShort = false;
    ItemQueue queue;  ///< used by queueing schedulers and by DF for loop-closing edges
    ResolvedPort port;
};

}  // namespace isochron
