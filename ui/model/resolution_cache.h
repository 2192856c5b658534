// Keeps the validator's view of the edited graph current: marked stale by every structural edit
// and whenever a subgraph file it uses changes on disk (saved from another window), recomputed on
// first use, and announced once per burst of edits (queued, so a model may ask for it while it
// handles a change).
#pragma once

#include <QFileSystemWatcher>
#include <QObject>

#include "engine/operators/registry.h"
#include "ui/model/graph_resolution.h"
#include "ui/model/graph_store.h"

namespace isochron::ui {

/// The current GraphResolution of a store. [ui thread]
class ResolutionCache : public QObject {
    Q_OBJECT
public:
    ResolutionCache(const GraphStore& store, const OperatorRegistry& registry, QObject* parent = nullptr);

    /// The resolution of the graph as it is now (recomputed here if an edit made it stale).
    const GraphResolution& current();
    const OperatorRegistry& registry() const { return registry_; }
    /// Recompute on next use and announce it: after an edit, when a subgraph file changed on disk, or when
    /// the registry's types changed (a plugin reloaded), since the resolution refers to their descriptors.
    void invalidate();

Q_SIGNALS:
    /// The resolution changed; emitted from the event loop after a burst of edits.
    void updated();

private:
    void watchSubgraphFiles();
    const GraphStore& store_;
    QFileSystemWatcher subgraphFiles_;
    const OperatorRegistry& registry_;
    GraphResolution resolution_;
    bool stale_ = true;
    bool announcementQueued_ = false;
};

}  // namespace isochron::ui
