// InputState: one input port as the engine runs it. Its own header so that Operator can read an
// input's progress inline (node_context.h includes operator.h).
#pragma once

#include <cstdint>

#include "engine/operators/descriptor.h"
#include "engine/runtime/item_queue.h"
#include "engine/time/timebase.h"

namespace isochron {

/// One input port at run time. Hot fields first: a delivery touches only the first cache line.
/// [engine thread]
struct InputState {
    ItemQueue queue;  ///< used by queueing schedulers and by DF for loop-closing edges
    TimeNs progress = kBeginningOfTime;
    std::uint64_t items = 0;    ///< data items received (progress excluded)
    std::uint64_t samples = 0;
    std::uint64_t lateItems = 0;  ///< data items older than this input's progress (Operator::countLate)
    bool connected = false;
    bool listed = false;  ///< queueing schedulers: this queue is in the scheduler's ready list
    ResolvedPort port;
};

}  // namespace isochron
