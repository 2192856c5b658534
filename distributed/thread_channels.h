// The channels between partitions run on threads of one process (isochron-run --partitions threads):
// the in-process counterpart of mpi_channels.h, built into the graph by partition_plan.h's localPart().
//
// Each channel is a bounded single-producer/single-consumer ring of items: the sender node (on the
// producer partition's engine thread) puts the items themselves in it — a signal's SigSeg by
// reference, nothing copied or encoded — together with progress markers and, last, a progress marker
// at the end of time that ends the stream; the receiver node (a source of the consumer partition's
// engine) takes them out in order and emits them. At most `capacity` items are in flight: a sender
// that finds the ring full blocks its engine thread on a condition variable until the receiver has
// handed an item to its engine (the operators behind it ran, or queued it), exactly as an MPI sender
// waits for a credit. A receiver with nothing to take lets its engine sleep; the sender wakes that
// engine when it puts an item in. stop() ends every wait at once, so no thread hangs in a channel.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "distributed/partition_plan.h"

namespace isochron {
class Engine;
}

namespace isochron::distributed {

/// What one channel carried. [written by its sender's and receiver's threads; read after the run]
struct ThreadChannelFigures {
    ChannelSpec spec;
    int capacity = 0;              ///< items (data, progress, the end) the ring holds at most
    std::uint64_t messages = 0;    ///< items, progress markers and the end, received
    std::uint64_t items = 0;       ///< data items among them
    std::uint64_t samples = 0;     ///< samples of signals among them
    int peakInFlight = 0;          ///< most items put in and not yet handed on by the receiver
    std::uint64_t waits = 0;       ///< items that found the ring full, so their sender waited
};

/// Every channel of one in-process run: a sender's and a receiver's descriptor per channel.
/// [built on one thread before the run; the operators on their partitions' engine threads; stop() from any thread]
class ThreadChannels {
public:
    /// `capacity` (1 to 4096): items one channel may have in flight before its sender waits.
    explicit ThreadChannels(int capacity);
    ~ThreadChannels();
    ThreadChannels(const ThreadChannels&) = delete;
    ThreadChannels& operator=(const ThreadChannels&) = delete;

    /// Descriptor of the node that puts `channel`'s items in its ring (one per channel).
    OperatorDescriptor sender(const ChannelSpec& channel);
    /// Descriptor of the node that takes `channel`'s items out (one per channel).
    OperatorDescriptor receiver(const ChannelSpec& channel);
    /// The engine that runs `partition`: its channels' senders wake it when it sleeps waiting for
    /// an item, and its own senders whose receivers are gone stop in it the sources that fed only
    /// them. Call for every partition before any engine runs.
    void attachEngine(int partition, Engine& engine);
    /// End every wait now (the run is stopping); senders then drop what they are given. [any thread]
    void stop();

    int capacity() const { return capacity_; }
    /// One line per channel, for the run's summary.
    std::string figuresText() const;
    /// The "channels" array of the run report.
    nlohmann::ordered_json figuresJson() const;

    struct Channel;

private:
    Channel& channelFor(const ChannelSpec& spec);

    int capacity_;
    std::atomic<bool> stopped_{false};
    std::vector<std::unique_ptr<Channel>> channels_;  // by ChannelSpec::index
};

/// Tells each of `engines` (every partition's, built) whether a source of the other partitions
/// follows the wall clock (Engine::setSourcesElsewhereFollowWallClock), so that each answers for the
/// whole graph, fed over a channel or not: a node deciding by it (io.archive_sink's when_behind
/// auto) decides as in the graph run whole. A pace changed during the run is seen across partitions
/// only as it was here. [before any engine runs]
void shareWhetherSourcesFollowWallClock(const std::vector<std::unique_ptr<Engine>>& engines);

}  // namespace isochron::distributed
