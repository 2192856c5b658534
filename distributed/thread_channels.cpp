#include "distributed/thread_channels.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "engine/operators/operator.h"
#include "engine/runtime/engine.h"
#include "engine/time/wall_clock.h"

namespace isochron::distributed {

// How long a receiver with nothing to take lets its engine sleep before looking again; the sender
// wakes the engine sooner when it puts an item in, so this only bounds a wake-up that went astray.
constexpr TimeNs kIdleLookNs = 100'000'000;
// How long a sender waits on a full ring before it looks at the stop flag again (stop() also wakes it).
constexpr auto kFullWait = std::chrono::milliseconds(100);

/// One channel's ring and the handshakes around it. Items [head, tail) are in flight; the sender
/// alone writes tail and the slot at tail, the receiver alone head and the slot at head.
struct ThreadChannels::Channel {
    Channel(const ChannelSpec& spec, int capacity) : slots(static_cast<std::size_t>(capacity)) {
        figures.spec = spec;
        figures.capacity = capacity;
    }

    std::vector<Item> slots;
    std::atomic<std::uint64_t> head{0}, tail{0};
    // The sequentially consistent stores and loads of head/tail and these two flags pair up as in
    // Dekker's algorithm: a side that goes to sleep has either seen the other's item (or room), or
    // the other side sees its flag and wakes it.
    std::atomic<bool> consumerIdle{false};     // the receiver found the ring empty and let its engine sleep
    std::atomic<bool> producerWaiting{false};  // the sender found the ring full and waits on `roomFreed`
    // The receiver ended before the stream's end: what it fed failed, so its engine cut it off. The
    // sender then drops what it is given, as the sink of a failed node's branch would in one engine.
    std::atomic<bool> receiverGone{false};
    std::mutex mutex;
    std::condition_variable roomFreed;
    Engine* consumer = nullptr;
    Engine* producer = nullptr;  // the sender's: it stops the sources that fed only the sender once the receiver is gone
    ThreadChannelFigures figures;
};

namespace {

using Channel = ThreadChannels::Channel;

/// Puts one channel's items, progress and end into its ring, waiting while the ring is full.
class RingSender final : public Operator {
public:
    RingSender(Channel& channel, const std::atomic<bool>& stopped) : channel_(channel), stopped_(stopped) {}

protected:
    void process(int, Item&& item) override { put(std::move(item)); }
    TimeNs onProgress(TimeNs time) override {
        if (time != kEndOfTime) put(Item::progress(time));
        return time;
    }
    // The end of the stream travels as progress at the end of time, as it does between operators.
    void onFinish() override { put(Item::progress(kEndOfTime)); }

private:
    /// False when the item is dropped: the run stopped while the ring was full, or the receiver is gone.
    bool put(Item&& item) {
        if (receiverGone()) return false;
        const std::uint64_t tail = channel_.tail.load(std::memory_order_relaxed);
        const std::uint64_t capacity = channel_.slots.size();
        if (tail - channel_.head.load(std::memory_order_acquire) == capacity) {
            ++channel_.figures.waits;
            std::unique_lock lock(channel_.mutex);
            channel_.producerWaiting.store(true);
            while (tail - channel_.head.load() == capacity && !stopped_.load() && !channel_.receiverGone.load()) channel_.roomFreed.wait_for(lock, kFullWait);
            channel_.producerWaiting.store(false, std::memory_order_relaxed);
            if (tail - channel_.head.load() == capacity || receiverGone()) return false;
        }
        channel_.slots[tail % capacity] = std::move(item);
        channel_.tail.store(tail + 1);
        const auto inFlight = static_cast<int>(tail + 1 - channel_.head.load(std::memory_order_relaxed));
        channel_.figures.peakInFlight = std::max(channel_.figures.peakInFlight, inFlight);
        if (channel_.consumerIdle.exchange(false)) channel_.consumer->wake();
        return true;
    }

    /// Whether the receiver is gone; the first time, the sources that fed only this sender are stopped.
    bool receiverGone() {
        if (retired_ || !channel_.receiverGone.load()) return retired_;
        retired_ = true;
        // As a failed node counts for them (not announced, and not a failure: it did nothing wrong).
        channel_.producer->nodeFailed(*channel_.producer->findNode(nodeId()));
        return true;
    }

    Channel& channel_;
    const std::atomic<bool>& stopped_;
    bool retired_ = false;  // the receiver is gone, and this node told its engine
};

/// Takes one channel's items out of its ring and emits them, freeing each slot once its engine took the item.
class RingReceiver final : public Operator {
public:
    explicit RingReceiver(Channel& channel) : channel_(channel) {}
    /// It stands in for the sources of other partitions, of which its engine is told apart
    /// (shareWhetherSourcesFollowWallClock).
    bool followsWallClock() const override { return false; }

protected:
    SourceStatus onProduce() override {
        const std::uint64_t capacity = channel_.slots.size();
        const std::int64_t most = std::min<std::int64_t>(productionBudget(), static_cast<std::int64_t>(capacity));
        for (std::int64_t taken = 0; taken < most; ++taken) {
            if (!admissionOpen()) return SourceStatus::produced();
            const std::uint64_t head = channel_.head.load(std::memory_order_relaxed);
            if (channel_.tail.load() == head) {
                if (taken > 0) return SourceStatus::produced();
                channel_.consumerIdle.store(true);
                if (channel_.tail.load() == head) return SourceStatus::waitUntil(wallClockNs() + kIdleLookNs);
                channel_.consumerIdle.store(false, std::memory_order_relaxed);
            }
            Item item = std::move(channel_.slots[head % capacity]);
            ThreadChannelFigures& figures = channel_.figures;
            ++figures.messages;
            const bool ended = item.isProgress() && item.progressTime() == kEndOfTime;
            if (item.isProgress()) {
                if (!ended) emitProgress(item.progressTime());
            } else {
                ++figures.items;
                figures.samples += static_cast<std::uint64_t>(item.sampleCount());
                emitHeld(0, std::move(item));
            }
            // The slot is free once the engine took the item (the operators behind it ran, or
            // queued it), so a slow consumer partition slows the sender.
            channel_.head.store(head + 1);
            if (channel_.producerWaiting.load()) {
                std::lock_guard lock(channel_.mutex);
                channel_.roomFreed.notify_one();
            }
            if (ended) {
                ended_ = true;
                return SourceStatus::finished();
            }
        }
        return SourceStatus::produced();
    }
    /// Ended before the stream's end (cut off: everything it fed failed): free the sender, which
    /// would otherwise wait for room for ever and hold its partition back.
    void onFinish() override {
        if (ended_) return;
        std::lock_guard lock(channel_.mutex);
        channel_.receiverGone.store(true);
        channel_.roomFreed.notify_all();
    }

private:
    Channel& channel_;
    bool ended_ = false;  // the stream's end came through the ring
};

}  // namespace

ThreadChannels::ThreadChannels(int capacity) : capacity_(capacity) {
    if (capacity < 1 || capacity > 4096) throw std::invalid_argument("channel capacity must be between 1 and 4096, got " + std::to_string(capacity));
}

ThreadChannels::~ThreadChannels() = default;

ThreadChannels::Channel& ThreadChannels::channelFor(const ChannelSpec& spec) {
    const auto index = static_cast<std::size_t>(spec.index);
    if (channels_.size() <= index) channels_.resize(index + 1);
    if (!channels_[index]) channels_[index] = std::make_unique<Channel>(spec, capacity_);
    return *channels_[index];
}

OperatorDescriptor ThreadChannels::sender(const ChannelSpec& spec) {
    Channel& channel = channelFor(spec);
    OperatorDescriptor d;
    d.typeName = "threads.channel_sender";
    d.category = "threads";
    d.summary = "Hands " + spec.from + " -> " + spec.toText() + " to partition " + std::to_string(spec.toPartition) + "'s thread";
    d.inputs = {PortSpec{"in", spec.type, "what the producer's port carries"}};
    d.create = [&channel, this] { return std::make_unique<RingSender>(channel, stopped_); };
    return d;
}

OperatorDescriptor ThreadChannels::receiver(const ChannelSpec& spec) {
    Channel& channel = channelFor(spec);
    OperatorDescriptor d;
    d.typeName = "threads.channel_receiver";
    d.category = "threads";
    d.summary = "Takes " + spec.from + " -> " + spec.toText() + " from partition " + std::to_string(spec.fromPartition) + "'s thread";
    d.outputs = {PortSpec{"out", spec.type, "what the producer's port carries"}};
    d.create = [&channel] { return std::make_unique<RingReceiver>(channel); };
    return d;
}

void ThreadChannels::attachEngine(int partition, Engine& engine) {
    for (const auto& channel : channels_) {
        if (channel && channel->figures.spec.toPartition == partition) channel->consumer = &engine;
        if (channel && channel->figures.spec.fromPartition == partition) channel->producer = &engine;
    }
}

void ThreadChannels::stop() {
    stopped_.store(true);
    for (const auto& channel : channels_) {
        if (!channel) continue;
        std::lock_guard lock(channel->mutex);
        channel->roomFreed.notify_all();
    }
}

void shareWhetherSourcesFollowWallClock(const std::vector<std::unique_ptr<Engine>>& engines) {
    // Each engine's own sources first (its receivers say false): telling one changes its answer.
    std::vector<char> ownFollow;
    for (const auto& engine : engines) ownFollow.push_back(engine->anySourceFollowsWallClock() ? 1 : 0);
    for (std::size_t k = 0; k < engines.size(); ++k) {
        bool elsewhere = false;
        for (std::size_t other = 0; other < engines.size(); ++other) elsewhere = elsewhere || (other != k && ownFollow[other]);
        engines[k]->setSourcesElsewhereFollowWallClock(elsewhere);
    }
}

std::string ThreadChannels::figuresText() const {
    std::ostringstream text;
    for (const auto& channel : channels_) {
        if (!channel) continue;
        const ThreadChannelFigures& f = channel->figures;
        text << "channel " << f.spec.index << " " << f.spec.from << " -> " << f.spec.toText() << " (partition " << f.spec.fromPartition << " -> "
             << f.spec.toPartition << "): " << f.items << " items, " << f.samples << " samples in " << f.messages << " messages; at most "
             << f.peakInFlight << " of " << f.capacity << " in flight, " << f.waits << " waits for room\n";
    }
    return text.str();
}

nlohmann::ordered_json ThreadChannels::figuresJson() const {
    nlohmann::ordered_json channels = nlohmann::ordered_json::array();
    for (const auto& channel : channels_) {
        if (!channel) continue;
        const ThreadChannelFigures& f = channel->figures;
        nlohmann::ordered_json c;
        c["channel"] = f.spec.index;
        c["from"] = f.spec.from;
        c["to"] = f.spec.to;
        c["from_partition"] = f.spec.fromPartition;
        c["to_partition"] = f.spec.toPartition;
        c["messages"] = f.messages;
        c["items"] = f.items;
        c["samples"] = f.samples;
        c["capacity"] = f.capacity;
        c["peak_in_flight"] = f.peakInFlight;
        c["waits"] = f.waits;
        channels.push_back(std::move(c));
    }
    return channels;
}

}  // namespace isochron::distributed
