// CommitGate: lets a test hold an archive writer's thread inside its commit trigger, so that what is
// committed and what is only queued or in memory stays fixed while the test looks (no sleeps).
#pragma once

#include <condition_variable>
#include <mutex>

#include "engine/archive/archive_writer.h"

namespace isochron::test {

/// Holds the writer thread in trigger() while `holding`. [any thread]
struct CommitGate {
    std::mutex mutex;
    std::condition_variable changed;
    bool holding = false;
    bool held = false;  // the writer thread waits in the trigger
    CommittedInterval interval;  // the commit it waits after

    void trigger(const CommittedInterval& committed) {
        std::unique_lock lock(mutex);
        if (!holding) return;
        interval = committed;
        held = true;
        changed.notify_all();
        changed.wait(lock, [&] { return !holding; });
        held = false;
    }
    void awaitHeld() {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return held; });
    }
    bool isHeld() {
        std::lock_guard lock(mutex);
        return held;
    }
    void release() {
        {
            std::lock_guard lock(mutex);
            holding = false;
        }
        changed.notify_all();
    }
};

/// Releases the gate when it goes out of scope: declared after the writer (or the run), it lets a
/// failed REQUIRE unwind (the writer's destructor joins its thread, which would otherwise wait in the
/// trigger for ever).
struct GateReleaser {
    CommitGate& gate;
    ~GateReleaser() { gate.release(); }
};

}  // namespace isochron::test
