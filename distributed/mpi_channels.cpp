#include "distributed/mpi_channels.h"

#include <mpi.h>

#include <sched.h>

#include <array>
#include <chrono>
#include <limits>
#include <sstream>
#include <thread>

#include "distributed/wire_format.h"
#include "engine/operators/operator.h"
#include "engine/operators/operator_error_in_hook.h"
#include "engine/runtime/engine.h"
#include "engine/time/wall_clock.h"

namespace isochron::distributed {

/// The communicator the channels talk on: a duplicate of MPI_COMM_WORLD, so their tags never meet
/// another library's messages. Channel c sends data with tag 2c and credits with tag 2c + 1.
struct MpiChannels::Communicator {
    MPI_Comm comm = MPI_COMM_NULL;
};

namespace {

int dataTag(const ChannelSpec& channel) { return 2 * channel.index; }
int creditTag(const ChannelSpec& channel) { return 2 * channel.index + 1; }

// How long a receiver with nothing to take lets its engine sleep before looking again.
constexpr TimeNs kReceivePollNs = 100'000;
// While messages keep coming (the last one less than kBusyNs ago), a receiver with nothing to take
// looks again for up to kSpinNs before its engine sleeps: a sleep costs more than the gap between
// two segments of a busy channel. An idle channel does not spin.
constexpr TimeNs kBusyNs = 1'000'000;
constexpr TimeNs kSpinNs = 30'000;
// The credit message of a receiver that was cut off: no more credits come, drop what is given.
constexpr int kReceiverGone = -1;

/// Sends one channel's items to the receiver's rank, at most `credits` messages ahead of it.
class ChannelSender final : public Operator {
public:
    ChannelSender(MPI_Comm comm, ChannelFigures& figures, MpiChannels& channels)
        : comm_(comm), figures_(figures), channels_(channels) {}

protected:
    void onActivate() override {
        slots_.resize(static_cast<std::size_t>(figures_.credits));
        available_ = figures_.credits;
        postCreditReceive();
    }
    void process(int, Item&& item) override {
        if (sampleBytes(item) > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
            // This node's id names the edge; the hook of an internal node is no news to the user.
            throw OperatorErrorInHook("a segment of more than 2 GB cannot cross ranks: make the segments of '" + figures_.spec.from + "' shorter");
        }
        if (channels_.stopping() || !takeCredit()) return;  // stopped, or the receiver is gone: dropped
        Slot& slot = nextSlot();
        encodeItem(item, slot.bytes);
        ++figures_.items;
        figures_.samples += static_cast<std::uint64_t>(item.sampleCount());
        send(slot);
        sendSamples(slot, std::move(item));
    }
    TimeNs onProgress(TimeNs time) override {
        if (time != kEndOfTime && takeCredit()) {
            Slot& slot = nextSlot();
            encodeProgress(time, slot.bytes);
            send(slot);
        }
        return time;
    }
    void onFinish() override {
        if (!takeCredit()) {
            if (receiverGone_) sendEndToDrain();
            return;
        }
        Slot& slot = nextSlot();
        encodeEnd(slot.bytes);
        send(slot);
        // Every credit but the end's comes back before the run ends, so no credit message is left
        // unreceived when MPI finalizes; the end's own send completes once the receiver took it.
        while (available_ < figures_.credits - 1 && !channels_.stopping() && !receiverGone_) waitForCredit();
        // A stopped receiver (its rank stopped) may never take what is in flight: the sends are
        // dropped with the operator (onDeactivate) instead of waited for. A receiver that is gone
        // takes them after its rank's run (MpiChannels::drainCutOffReceivers), not while this rank waits.
        if (channels_.stopping() || receiverGone_) return;
        for (Slot& s : slots_) {
            MPI_Waitall(2, s.requests.data(), MPI_STATUSES_IGNORE);
            s.item = Item();
        }
    }
    void onDeactivate() override {
        if (endRequest_ != MPI_REQUEST_NULL) MPI_Request_free(&endRequest_);
        if (creditRequest_ != MPI_REQUEST_NULL) {
            MPI_Cancel(&creditRequest_);
            MPI_Request_free(&creditRequest_);
        }
        for (Slot& s : slots_) {
            for (MPI_Request& request : s.requests) {
                if (request != MPI_REQUEST_NULL) MPI_Request_free(&request);
            }
        }
    }

private:
    /// One message in flight: its bytes, and the item whose samples are sent from their storage
    /// (held, so the storage stays alive and unchanged until the send completes: segments are
    /// immutable while shared, and this reference shares it).
    struct Slot {
        std::vector<std::byte> bytes;
        Item item;
        std::array<MPI_Request, 2> requests{MPI_REQUEST_NULL, MPI_REQUEST_NULL};  // the message, its samples
    };

    void postCreditReceive() {
        MPI_Irecv(&creditMessage_, 1, MPI_INT, figures_.spec.toPartition, creditTag(figures_.spec), comm_, &creditRequest_);
    }
    /// Take in every credit that has come back. [no blocking]
    void collectCredits() {
        int arrived = 1;
        while (arrived) {
            MPI_Test(&creditRequest_, &arrived, MPI_STATUS_IGNORE);
            if (!arrived) break;
            if (creditMessage_ == kReceiverGone) {
                receiverGone_ = true;  // no more credits come: nothing more is posted
                // The sources that fed only this sender are stopped, as a failed node counts for
                // them (not announced, and not a failure: it did nothing wrong).
                channels_.engine().nodeFailed(*channels_.engine().findNode(nodeId()));
                return;
            }
            available_ += creditMessage_;
            postCreditReceive();
        }
    }
    /// The end of the stream to a receiver that is gone, without a credit: it drains the channel up
    /// to this message once its rank's run is over. The send completes then (freed with the operator).
    void sendEndToDrain() {
        encodeEnd(endBytes_);
        ++figures_.messages;
        MPI_Isend(endBytes_.data(), static_cast<int>(endBytes_.size()), MPI_BYTE, figures_.spec.toPartition, dataTag(figures_.spec), comm_, &endRequest_);
    }
    /// Block until at least one credit came back or the run stops.
    void waitForCredit() {
        const int before = available_;
        for (int polls = 0; available_ == before && !channels_.stopping() && !receiverGone_; ++polls) {
            collectCredits();
            if (available_ != before) break;
            // Spin briefly (a fast consumer answers within microseconds), then sleep so that a slow
            // consumer's rank gets the core.
            if (polls < 64) sched_yield();
            else std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
    }
    /// One credit for the next message; false when the run stopped while waiting for it, or the receiver is gone.
    bool takeCredit() {
        collectCredits();
        if (receiverGone_) return false;
        if (available_ == 0) {
            ++figures_.creditWaits;
            while (available_ == 0 && !channels_.stopping() && !receiverGone_) waitForCredit();
            if (available_ == 0 || receiverGone_) return false;
        }
        --available_;
        figures_.peakInFlight = std::max(figures_.peakInFlight, figures_.credits - available_);
        return true;
    }
    /// The slot of the oldest message: it was received (a credit is free), so its send completes.
    Slot& nextSlot() {
        Slot& slot = slots_[next_];
        next_ = (next_ + 1) % slots_.size();
        MPI_Waitall(2, slot.requests.data(), MPI_STATUSES_IGNORE);
        slot.item = Item();
        return slot;
    }
    void send(Slot& slot) {
        ++figures_.messages;
        figures_.bytes += slot.bytes.size();
        MPI_Isend(slot.bytes.data(), static_cast<int>(slot.bytes.size()), MPI_BYTE, figures_.spec.toPartition, dataTag(figures_.spec), comm_,
                  &slot.requests[0]);
    }
    /// The samples of a signal or frame, as the message after its header, straight from the
    /// segment's storage: one run as it is, several through a datatype that gathers them (MPI reads
    /// them in place). The receiver takes them as plain bytes into one pooled segment.
    void sendSamples(Slot& slot, Item&& item) {
        const std::size_t bytes = sampleBytes(item);
        if (bytes == 0) return;
        figures_.bytes += bytes;
        slot.item = std::move(item);
        const SegmentHandle& segment = slot.item.segment();
        const std::size_t elementSize = sampleSize(segment.sampleType());
        const int to = figures_.spec.toPartition;
        if (segment.pieceCount() == 1) {
            segment.forEachRun([&](const std::byte* data, std::int64_t) {
                MPI_Isend(data, static_cast<int>(bytes), MPI_BYTE, to, dataTag(figures_.spec), comm_, &slot.requests[1]);
            });
            return;
        }
        runLengths_.clear();
        runAddresses_.clear();
        segment.forEachRun([&](const std::byte* data, std::int64_t count) {
            MPI_Aint address = 0;
            MPI_Get_address(data, &address);
            runAddresses_.push_back(address);
            runLengths_.push_back(static_cast<int>(static_cast<std::size_t>(count) * elementSize));
        });
        MPI_Datatype runs = MPI_DATATYPE_NULL;
        MPI_Type_create_hindexed(static_cast<int>(runLengths_.size()), runLengths_.data(), runAddresses_.data(), MPI_BYTE, &runs);
        MPI_Type_commit(&runs);
        MPI_Isend(MPI_BOTTOM, 1, runs, to, dataTag(figures_.spec), comm_, &slot.requests[1]);
        MPI_Type_free(&runs);  // freed once the send no longer needs it
    }

    MPI_Comm comm_;
    ChannelFigures& figures_;
    MpiChannels& channels_;
    std::vector<Slot> slots_;
    std::vector<int> runLengths_;          // a segment of several runs: each run's bytes ...
    std::vector<MPI_Aint> runAddresses_;   // ... and address
    std::size_t next_ = 0;
    int available_ = 0;
    int creditMessage_ = 0;
    MPI_Request creditRequest_ = MPI_REQUEST_NULL;
    bool receiverGone_ = false;  // the receiver was cut off: what comes is dropped
    std::vector<std::byte> endBytes_;
    MPI_Request endRequest_ = MPI_REQUEST_NULL;
};

/// Takes one channel's messages off the wire and emits them, returning a credit for each.
class ChannelReceiver final : public Operator {
public:
    ChannelReceiver(MPI_Comm comm, ChannelFigures& figures, MpiChannels& channels) : comm_(comm), figures_(figures), channels_(channels) {}
    /// It stands in for the sources of other ranks, of which its engine is told apart
    /// (Engine::setSourcesElsewhereFollowWallClock).
    bool followsWallClock() const override { return false; }

protected:
    SourceStatus onProduce() override {
        // Nothing more is taken once the rank stops (its engine ends the run without this source
        // having finished: what it feeds is not told the stream ended, as on a stop).
        if (channels_.stopping()) return SourceStatus::waitUntil(wallClockNs() + kReceivePollNs);
        const SourceStatus status = takeMessages();
        returnCredits();
        return status;
    }
    /// Ended by the engine before the stream's end when everything it fed failed (cut off): tell the
    /// sender, which then drops what it is given instead of waiting for credits (and holding its rank
    /// back), and leave what is still in flight to MpiChannels::drainCutOffReceivers().
    void onFinish() override {
        if (ended_) return;
        returnCredits();
        int gone = kReceiverGone;
        MPI_Send(&gone, 1, MPI_INT, figures_.spec.fromPartition, creditTag(figures_.spec), comm_);
        channels_.drainAfterRun(figures_);
    }

private:
    /// Takes and emits what has arrived, as much as the engine admits.
    SourceStatus takeMessages() {
        const std::int64_t most = std::min<std::int64_t>(productionBudget(), figures_.credits);
        for (std::int64_t taken = 0; taken < most; ++taken) {
            if (!admissionOpen()) return SourceStatus::produced();
            MPI_Status status;
            if (!probe(status, taken == 0)) return taken > 0 ? SourceStatus::produced() : SourceStatus::waitUntil(wallClockNs() + kReceivePollNs);
            int size = 0;
            MPI_Get_count(&status, MPI_BYTE, &size);
            buffer_.resize(static_cast<std::size_t>(size));
            MPI_Recv(buffer_.data(), size, MPI_BYTE, figures_.spec.fromPartition, dataTag(figures_.spec), comm_, MPI_STATUS_IGNORE);
            ++figures_.messages;
            figures_.bytes += static_cast<std::uint64_t>(size);
            lastMessageNs_ = wallClockNs();
            DecodedMessage message = decodeMessage(buffer_);
            if (!message.samples.empty()) receiveSamples(message.samples);
            if (message.kind == MessageKind::End) {
                ended_ = true;
                return SourceStatus::finished();
            }
            if (message.kind == MessageKind::Progress) {
                emitProgress(message.item.progressTime());
            } else {
                ++figures_.items;
                figures_.samples += static_cast<std::uint64_t>(message.item.sampleCount());
                emitHeld(0, std::move(message.item));
            }
            // The credit goes back once the engine took the message (the downstream operators ran, or
            // queued it), so a slow consumer slows the sender. Credits go back together, half the
            // window at a time and whenever this call ends, so that a busy channel does not send one
            // message back per message it takes, and the sender never waits for credits held here.
            ++owedCredits_;
            if (owedCredits_ >= std::max(1, figures_.credits / 2)) returnCredits();
        }
        return SourceStatus::produced();
    }
    /// Send the sender the credits of the messages taken since the last time.
    void returnCredits() {
        if (owedCredits_ == 0) return;
        MPI_Send(&owedCredits_, 1, MPI_INT, figures_.spec.fromPartition, creditTag(figures_.spec), comm_);
        owedCredits_ = 0;
    }
    /// The samples message that follows a signal's or frame's, straight into its pooled segment.
    void receiveSamples(std::span<std::byte> storage) {
        MPI_Status status;
        MPI_Recv(storage.data(), static_cast<int>(storage.size()), MPI_BYTE, figures_.spec.fromPartition, dataTag(figures_.spec), comm_, &status);
        int size = 0;
        MPI_Get_count(&status, MPI_BYTE, &size);
        if (static_cast<std::size_t>(size) != storage.size()) {
            throw OperatorErrorInHook("channel " + std::to_string(figures_.spec.index) + " from rank " + std::to_string(figures_.spec.fromPartition) + ": " +
                                        std::to_string(size) + " bytes of samples where the message announced " + std::to_string(storage.size()) +
                                        " (a rank of another build?)");
        }
        figures_.bytes += storage.size();
    }
    /// Whether a message is waiting (its envelope in `status`); spins a little first when `mayWait`
    /// and the channel is busy.
    bool probe(MPI_Status& status, bool mayWait) {
        int present = 0;
        MPI_Iprobe(figures_.spec.fromPartition, dataTag(figures_.spec), comm_, &present, &status);
        if (present || !mayWait) return present != 0;
        const TimeNs now = wallClockNs();
        if (now - lastMessageNs_ > kBusyNs) return false;
        while (!present && wallClockNs() - now < kSpinNs) {
            MPI_Iprobe(figures_.spec.fromPartition, dataTag(figures_.spec), comm_, &present, &status);
        }
        return present != 0;
    }

    MPI_Comm comm_;
    ChannelFigures& figures_;
    MpiChannels& channels_;
    std::vector<std::byte> buffer_;
    TimeNs lastMessageNs_ = 0;
    int owedCredits_ = 0;  // messages taken whose credits have not gone back yet
    bool ended_ = false;   // the sender's end of stream came
};

}  // namespace

MpiChannels::MpiChannels(int credits) : communicator_(std::make_unique<Communicator>()), credits_(credits) {
    if (credits < 1 || credits > 4096) throw std::invalid_argument("channel credits must be between 1 and 4096, got " + std::to_string(credits));
    MPI_Comm_dup(MPI_COMM_WORLD, &communicator_->comm);
}

MpiChannels::~MpiChannels() {
    if (communicator_->comm != MPI_COMM_NULL) MPI_Comm_free(&communicator_->comm);
}

void MpiChannels::drainCutOffReceivers(const std::function<bool()>& stopRequested) {
    std::vector<std::byte> message;
    std::vector<std::byte> samples;
    for (ChannelFigures* channel : cutOff_) {
        const int from = channel->spec.fromPartition;
        bool ended = false;
        while (!ended && !stopping() && !stopRequested()) {
            int present = 0;
            MPI_Status status;
            MPI_Iprobe(from, dataTag(channel->spec), communicator_->comm, &present, &status);
            if (!present) {
                std::this_thread::sleep_for(std::chrono::microseconds(200));
                continue;
            }
            int size = 0;
            MPI_Get_count(&status, MPI_BYTE, &size);
            message.resize(static_cast<std::size_t>(size));
            MPI_Recv(message.data(), size, MPI_BYTE, from, dataTag(channel->spec), communicator_->comm, MPI_STATUS_IGNORE);
            const DecodedMessage decoded = decodeMessage(message);
            ended = decoded.kind == MessageKind::End;
            if (!decoded.samples.empty()) {
                samples.resize(decoded.samples.size());
                MPI_Recv(samples.data(), static_cast<int>(samples.size()), MPI_BYTE, from, dataTag(channel->spec), communicator_->comm, MPI_STATUS_IGNORE);
            }
        }
    }
    cutOff_.clear();
}

OperatorDescriptor MpiChannels::sender(const ChannelSpec& channel) {
    figures_.push_back(std::make_unique<ChannelFigures>(ChannelFigures{channel, true, credits_}));
    ChannelFigures& figures = *figures_.back();
    OperatorDescriptor d;
    d.typeName = "mpi.channel_sender";
    d.category = "mpi";
    d.summary = "Sends " + channel.from + " -> " + channel.toText() + " to rank " + std::to_string(channel.toPartition);
    d.inputs = {PortSpec{"in", channel.type, "what the producer's port carries"}};
    MPI_Comm comm = communicator_->comm;
    d.create = [comm, &figures, this] { return std::make_unique<ChannelSender>(comm, figures, *this); };
    return d;
}

OperatorDescriptor MpiChannels::receiver(const ChannelSpec& channel) {
    figures_.push_back(std::make_unique<ChannelFigures>(ChannelFigures{channel, false, credits_}));
    ChannelFigures& figures = *figures_.back();
    OperatorDescriptor d;
    d.typeName = "mpi.channel_receiver";
    d.category = "mpi";
    d.summary = "Receives " + channel.from + " -> " + channel.toText() + " from rank " + std::to_string(channel.fromPartition);
    d.outputs = {PortSpec{"out", channel.type, "what the producer's port carries"}};
    MPI_Comm comm = communicator_->comm;
    d.create = [comm, &figures, this] { return std::make_unique<ChannelReceiver>(comm, figures, *this); };
    return d;
}

std::string MpiChannels::figuresText() const {
    std::ostringstream text;
    for (const auto& f : figures_) {
        if (f->sending) {
            text << "channel " << f->spec.index << " " << f->spec.from << " -> " << f->spec.toText() << " (to rank " << f->spec.toPartition
                 << "): sent " << f->items << " items, " << f->samples << " samples in " << f->messages << " messages; at most "
                 << f->peakInFlight << " of " << f->credits << " credits in flight, " << f->creditWaits << " waits for a credit\n";
        } else {
            text << "channel " << f->spec.index << " " << f->spec.from << " -> " << f->spec.toText() << " (from rank " << f->spec.fromPartition
                 << "): received " << f->items << " items, " << f->samples << " samples in " << f->messages << " messages\n";
        }
    }
    return text.str();
}

nlohmann::ordered_json MpiChannels::figuresJson() const {
    nlohmann::ordered_json channels = nlohmann::ordered_json::array();
    for (const auto& f : figures_) {
        nlohmann::ordered_json c;
        c["channel"] = f->spec.index;
        c["from"] = f->spec.from;
        c["to"] = f->spec.to;
        c["direction"] = f->sending ? "send" : "receive";
        c["peer_rank"] = f->sending ? f->spec.toPartition : f->spec.fromPartition;
        c["messages"] = f->messages;
        c["items"] = f->items;
        c["samples"] = f->samples;
        c["bytes"] = f->bytes;
        if (f->sending) {
            c["credits"] = f->credits;
            c["peak_in_flight"] = f->peakInFlight;
            c["credit_waits"] = f->creditWaits;
        }
        channels.push_back(std::move(c));
    }
    return channels;
}

}  // namespace isochron::distributed
