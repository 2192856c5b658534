#include "ui/model/resolution_cache.h"

namespace isochron::ui {

ResolutionCache::ResolutionCache(const GraphStore& store, const OperatorRegistry& registry, QObject* parent)
    : QObject(parent), store_(store), registry_(registry) {
    connect(&store, &GraphStore::structureChanged, this, &ResolutionCache::invalidate);
}

const GraphResolution& ResolutionCache::current() {
    if (stale_) {
        resolution_ = GraphResolution::of(store_.spec(), registry_);
        stale_ = false;
    }
    return resolution_;
}

void ResolutionCache::invalidate() {
    stale_ = true;
    if (announcementQueued_) return;
    announcementQueued_ = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            announcementQueued_ = false;
            current();
            Q_EMIT updated();
        },
        Qt::QueuedConnection);
}

}  // namespace isochron::ui
