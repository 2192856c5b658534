#include "engine/runtime/start_interruption.h"

#include <atomic>

namespace isochron {
namespace {

std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

}  // namespace

void interruptStarts() noexcept {
    interrupted.store(true, std::memory_order_relaxed);
}

bool startsInterrupted() noexcept {
    return interrupted.load(std::memory_order_relaxed);
}

}  // namespace isochron
