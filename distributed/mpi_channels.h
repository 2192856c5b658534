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
// signal), so no rank hangs in a channel.
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
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "distributed/mpi_rank_ends.h"
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
    /// From the run of `engine` (this rank's) on, a node of it that fails, or another rank telling
    /// `ends` of its failure, stops `engine` and ends every wait in a channel, seen at the channels'
    /// next call. [engine thread, before the run]
    void endRunOnFailure(Engine& engine, MpiRankEnds& ends) {
        engine_ = &engine;
        ends_ = &ends;
    }
    /// Whether the channels stop: stop() was called, a node of this rank's engine failed or another
    /// rank failed (either then stops the engine too). [engine thread]
    bool stopping();

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
    Engine* engine_ = nullptr;  // stopped when one of its nodes fails
    MpiRankEnds* ends_ = nullptr;  // where another rank's failure is heard
    TimeNs nextEndsLookNs_ = 0;     // stopping() is asked per item: it looks at most once a millisecond
    std::vector<std::unique_ptr<ChannelFigures>> figures_;
};

}  // namespace isochron::distributed
