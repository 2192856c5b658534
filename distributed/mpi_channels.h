// The channels of one rank over MPI: a sender node at the producer's end of each edge between
// partitions, a receiver node at the consumer's end (partition_plan.h builds them into the graph).
//
// Back-pressure is by credits: a sender may have at most `credits` messages that its receiver has not
// yet taken (each item, progress marker and the end of stream is one message; a signal or frame is one
// SigSeg). The receiver returns a credit after it has handed the message to its engine (the credits
// of several messages in one message back: half the window's, or what it took when its call ends), so
// a slow consumer rank holds the producer rank back exactly as a slow operator holds back its upstream
// in one process: a sender with no credit left waits, and its engine with it. That bounds the memory a
// channel holds to `credits` messages on each side. A wait ends early when stop() is called (a
// signal), so no rank hangs in a channel. A receiver whose engine cut it off (everything it fed
// failed) tells its sender so: the sender drops what it is given from then on, as a branch that
// reaches only failed nodes does in one engine, and this rank drains the channel after its run.
//
// Samples are never copied (wire_format.h): a signal's or frame's message is followed by a second MPI
// message of its samples, sent from the segment's own storage (the sender holds the item until that
// send completes, so the storage stays alive; shared segments are immutable) and received straight
// into the pooled segment the receiver emits. Both go under one credit.
//
// Every MPI call is made on the engine thread (MPI_THREAD_FUNNELED).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "distributed/partition_plan.h"

namespace isochron {
class Engine;
}

namespace isochron::distributed {

/// What one channel end did on this rank. [engine thread writes; read after the run]
struct ChannelFigures {
    ChannelSpec spec;
    bool sending = false;
    int credits = 0;                 ///< messages a sender may have in flight
    std::uint64_t messages = 0;      ///< items, progress markers and the end, sent or received
    std::uint64_t items = 0;         ///< data items among them
    std::uint64_t samples = 0;       ///< samples of signals among them
    std::uint64_t bytes = 0;         ///< message bytes
    int peakInFlight = 0;            ///< sender: most messages sent and not yet taken by the receiver
    std::uint64_t creditWaits = 0;   ///< sender: messages that found no credit left and waited for one
};

/// The channels of this rank: a sender's and a receiver's descriptor per channel, and their figures.
/// Create after MPI_Init and destroy before MPI_Finalize. [engine thread; stop() from any thread]
class MpiChannels {
public:
    /// `credits` (1 to 4096): messages a sender may have in flight.
    explicit MpiChannels(int credits);
    ~MpiChannels();
    MpiChannels(const MpiChannels&) = delete;
    MpiChannels& operator=(const MpiChannels&) = delete;

    /// Descriptor of the node that sends `channel` to rank channel.toPartition.
    OperatorDescriptor sender(const ChannelSpec& channel);
    /// Descriptor of the node that receives `channel` from rank channel.fromPartition.
    OperatorDescriptor receiver(const ChannelSpec& channel);
    /// End every wait for a credit now (the run is stopping). [any thread]
    void stop() { stopped_.store(true); }
    /// This rank's engine, where a sender whose receiver is gone stops the sources that fed only it. [before the run]
    void attachEngine(Engine& engine) { engine_ = &engine; }
    Engine& engine() const { return *engine_; }
    /// Whether the channels stop: stop() was called. [any thread]
    bool stopping() const { return stopped_.load(std::memory_order_relaxed); }
    /// The receiver of `channel` was cut off (everything it fed on this rank failed) and told its
    /// sender: drainCutOffReceivers() takes what is still in flight. [engine thread]
    void drainAfterRun(ChannelFigures& channel) { cutOff_.push_back(&channel); }
    /// After this rank's run: take and drop every message still coming on the channels whose
    /// receivers were cut off, up to each one's end of stream, so that their senders' ranks run to
    /// their ends and no message is left unreceived when MPI finalizes. Gives up once `stopRequested`
    /// says so. [the MPI thread, after the run]
    void drainCutOffReceivers(const std::function<bool()>& stopRequested);
    int credits() const { return credits_; }
    /// The figures of every endpoint made here, senders and receivers in creation order.
    const std::vector<std::unique_ptr<ChannelFigures>>& figures() const { return figures_; }
    /// One line per channel end, for the run's summary.
    std::string figuresText() const;
    /// The "channels" array of the run report.
    nlohmann::ordered_json figuresJson() const;

private:
    struct Communicator;
    std::unique_ptr<Communicator> communicator_;
    int credits_;
    std::atomic<bool> stopped_{false};
    Engine* engine_ = nullptr;
    std::vector<ChannelFigures*> cutOff_;  // channels whose receivers were cut off, to drain after the run
    std::vector<std::unique_ptr<ChannelFigures>> figures_;
};

}  // namespace isochron::distributed
