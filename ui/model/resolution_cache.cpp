#include "ui/model/resolution_cache.h"

namespace isochron::ui {

ResolutionCache::ResolutionCache(const GraphStore& store, const OperatorRegistry& registry, QObject* parent)
    : QObject(parent), store_(store), registry_(registry) {
    connect(&store, &GraphStore::structureChanged, this, &ResolutionCache::invalidate);
    connect(&subgraphFiles_, &QFileSystemWatcher::fileChanged, this, &ResolutionCache::invalidate);
}

const GraphResolution& ResolutionCache::current() {
    if (stale_) {
        resolution_ = GraphResolution::of(store_.spec(), registry_);
        stale_ = false;
        watchSubgraphFiles();
    }
    return resolution_;
}

void ResolutionCache::watchSubgraphFiles() {
    // Saving replaces a file (write, then rename), which ends its watch: watch the new one again.
    QStringList files;
    for (const auto& [id, subgraph] : resolution_.expanded().subgraphs) files.append(QString::fromStdString(subgraph.file.string()));
    if (!subgraphFiles_.files().isEmpty()) subgraphFiles_.removePaths(subgraphFiles_.files());
    if (!files.isEmpty()) subgraphFiles_.addPaths(files);
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
