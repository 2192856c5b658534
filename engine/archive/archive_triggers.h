// ArchiveTriggers: the trigger hook of the stream archive (issue 13). Code in the same process (a
// plugin, a host, a test) subscribes to a stream and is called each time a recorder commits data of
// it: the interval is then durable and readable by any ArchiveStore on the file.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/archive/archive_writer.h"

namespace isochron {

/// Subscriptions to commits of archived streams, process-wide. [any thread]
class ArchiveTriggers {
public:
    /// The one registry the archive writers notify.
    static ArchiveTriggers& instance();

    /// Call `trigger` after every commit of stream `stream` into the archive file `path` (as the
    /// recorder names it; empty = any archive), on the recorder's writer thread, until the returned
    /// handle is destroyed. The trigger must not block for long and must not throw. [any thread]
    [[nodiscard]] std::shared_ptr<void> subscribe(std::string path, std::string stream, CommitTrigger trigger);
    /// Call every live subscription matching `interval`'s archive and stream. [writer thread]
    void notify(const CommittedInterval& interval);

private:
    struct Subscription {
        std::string path;
        std::string stream;
        CommitTrigger trigger;
    };
    std::mutex mutex_;
    std::vector<std::weak_ptr<Subscription>> subscriptions_;
};

}  // namespace isochron
