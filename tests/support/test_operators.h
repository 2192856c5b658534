// Operators for tests only: a scripted source and a collecting sink, registered as "test.feed" and
// "test.collect" next to the built-ins, so tests run real graphs through the real engine.
#pragma once

#include <future>
#include <map>
#include <string>
#include <vector>

#include "engine/items/item.h"
#include "engine/operators/registry.h"

namespace isochron::test {

/// Items a "test.feed" node emits, one produce() call per entry of `batches`: each batch is a list
/// of (output port, item) pairs. After the last batch the source finishes.
struct FeedScript {
    std::vector<std::vector<std::pair<int, Item>>> batches;
    int outputs = 1;
};

/// What a "test.collect" node received: data items per input port, and the progress times seen.
struct Collected {
    std::vector<std::vector<Item>> items;  // [port][i]
    std::vector<std::vector<TimeNs>> progress;
    bool finished = false;
};

/// Scripts and collections by name (the node's "name" parameter). Reset between tests.
std::map<std::string, FeedScript>& feedScripts();
std::map<std::string, Collected>& collections();

/// Fulfilled by the "test.endless" node whose "name" parameter is the key, when it has emitted its
/// first item: a test's other thread waits on it instead of sleeping. Add the entry before the run.
std::map<std::string, std::promise<void>>& endlessStarted();

/// The built-ins plus the test operators: test.feed, test.collect, test.endless (scalars forever),
/// test.merge (two scalar inputs
/// merged by time via progress), test.loop (scalars sent `laps` times around a cycle), test.fail_after
/// (throws on the n-th item), test.fail_sink (an output that throws on the n-th item) and test.gain (scalars times a live `gain`).
OperatorRegistry& testRegistry();

}  // namespace isochron::test
