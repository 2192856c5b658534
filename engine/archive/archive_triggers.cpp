#include "engine/archive/archive_triggers.h"

#include <algorithm>

namespace isochron {

ArchiveTriggers& ArchiveTriggers::instance() {
    static ArchiveTriggers triggers;
    return triggers;
}

std::shared_ptr<void> ArchiveTriggers::subscribe(std::string path, std::string stream, CommitTrigger trigger) {
    auto subscription = std::make_shared<Subscription>(Subscription{std::move(path), std::move(stream), std::move(trigger)});
    std::lock_guard lock(mutex_);
    std::erase_if(subscriptions_, [](const std::weak_ptr<Subscription>& entry) { return entry.expired(); });
    subscriptions_.push_back(subscription);
    return subscription;
}

void ArchiveTriggers::notify(const CommittedInterval& interval) {
    std::vector<std::shared_ptr<Subscription>> matching;
    {
        std::lock_guard lock(mutex_);
        for (const std::weak_ptr<Subscription>& entry : subscriptions_) {
            std::shared_ptr<Subscription> subscription = entry.lock();
            if (subscription && subscription->stream == interval.stream && (subscription->path.empty() || subscription->path == interval.path)) {
                matching.push_back(std::move(subscription));
            }
        }
    }
    // Called outside the lock: a trigger may subscribe or drop a handle itself.
    for (const std::shared_ptr<Subscription>& subscription : matching) subscription->trigger(interval);
}

}  // namespace isochron
