#include "nodes/parallel/split.h"

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "engine/operators/operator.h"
#include "nodes/segments/sample_type_dispatch.h"

namespace isochron {
namespace {

/// How a parallel.split chooses the output of each piece of its input.
enum class Routing { RoundRobin, ByKey, Overlap };

Routing routingNamed(const std::string& name) {
    if (name == "by_key") return Routing::ByKey;
    if (name == "overlap") return Routing::Overlap;
    return Routing::RoundRobin;
}

/// Cuts one signal stream of T into windows of `window` samples on a grid from its first sample,
/// each followed by the next `overlap` samples (which the next window starts with), sharing the
/// input's storage. A gap in the stream or a new timebase sends the partial window held so far on its
/// own and starts a new grid, so every sample goes out at least once. [engine thread]
template <class T>
class WindowCutter {
public:
    WindowCutter(std::int64_t window, std::int64_t overlap) : window_(window), overlap_(overlap) {}

    /// Feed the next segment; calls onWindow(SigSeg<T>&&) for each window it completes, in order.
    template <class OnWindow>
    void push(SigSeg<T> segment, OnWindow&& onWindow) {
        if (segment.empty()) return;
        if (started_ && (segment.timebase() != timebase_ || segment.startIndex() != receivedEnd_)) flush(onWindow);
        if (!started_) {
            started_ = true;
            timebase_ = segment.timebase();
            windowStart_ = segment.startIndex();
            sentEnd_ = windowStart_;
        }
        receivedEnd_ = segment.endIndex();
        if (held_.empty()) {
            held_ = std::move(segment);
        } else {
            held_.append(segment);
        }
        while (held_.endIndex() >= windowStart_ + window_ + overlap_) {
            onWindow(held_.subseg(windowStart_, window_ + overlap_));
            sentEnd_ = windowStart_ + window_ + overlap_;
            windowStart_ += window_;
            held_ = windowStart_ < held_.endIndex() ? held_.subseg(windowStart_, held_.endIndex() - windowStart_) : SigSeg<T>();
        }
    }

    /// Send what is held as a last, shorter window (unless every sample of it went out already as
    /// the overlap of the window before), and start a new grid with the next segment.
    template <class OnWindow>
    void flush(OnWindow&& onWindow) {
        if (!held_.empty() && held_.endIndex() > sentEnd_) onWindow(held_.subseg(windowStart_, held_.endIndex() - windowStart_));
        held_ = SigSeg<T>();
        started_ = false;
    }

    /// Time of the first sample no window has started with yet, if samples are held.
    std::optional<TimeNs> heldFrom() const {
        if (held_.empty()) return std::nullopt;
        return timebase_->timeOf(windowStart_);
    }

private:
    std::int64_t window_;
    std::int64_t overlap_;
    bool started_ = false;
    const Timebase* timebase_ = nullptr;
    std::int64_t windowStart_ = 0;  // first sample of the next window
    std::int64_t sentEnd_ = 0;      // one past the last sample sent
    std::int64_t receivedEnd_ = 0;  // one past the last sample received
    SigSeg<T> held_;                // samples from windowStart_ on
};

/// FNV-1a over `bytes`: a key's output must not depend on the process, so no std::hash.
std::uint64_t fnv1a(const void* bytes, std::size_t size) {
    std::uint64_t hash = 14695981039346656037ull;
    for (std::size_t i = 0; i < size; ++i) hash = (hash ^ static_cast<const unsigned char*>(bytes)[i]) * 1099511628211ull;
    return hash;
}

/// Splits one stream into `outputs` sub-streams for replicas of a subgraph (parasplit's routing
/// function). Progress goes to every output, held back to the start of a window not sent yet, so the
/// replicas and a parallel.merge after them see every output's time advance even when it gets no data.
class ParallelSplit final : public Operator {
protected:
    void onActivate() override {
        routing_ = routingNamed(params().getString("routing"));
        key_ = params().getString("key");
        const PortType& input = inputPort(0).type;
        if (routing_ == Routing::ByKey && input.kind != ItemKind::Event) {
            throw OperatorError("routing 'by_key' sends events by an attribute, but the input carries " + input.toString() +
                                ": use 'round_robin' or 'overlap' for signals");
        }
        if (routing_ == Routing::Overlap && input.kind != ItemKind::Signal) {
            throw OperatorError("routing 'overlap' cuts signals into windows, but the input carries " + input.toString() +
                                ": use 'round_robin' or 'by_key'");
        }
        if (input.kind == ItemKind::Signal) {
            const std::int64_t overlap = routing_ == Routing::Overlap ? params().getInt("overlap") : 0;
            cutter_.emplace(makeForPort<WindowCutter>(inputPort(0), params().getInt("window"), overlap));
        }
    }

    void process(int, Item&& item) override {
        if (cutter_ && item.kind() == ItemKind::Signal) {
            std::visit([&](auto& cutter) { cutter.push(takeSamples(cutter, item), [&](auto&& window) { emitToNext(std::move(window)); }); }, *cutter_);
            return;
        }
        emit(routing_ == Routing::ByKey ? keyOutput(item) : takeTurn(), std::move(item));
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        if (!cutter_) return inputProgress;
        const std::optional<TimeNs> held = std::visit([](const auto& cutter) { return cutter.heldFrom(); }, *cutter_);
        return held ? std::min(inputProgress, *held) : inputProgress;
    }

    void onFinish() override {
        if (cutter_) std::visit([&](auto& cutter) { cutter.flush([&](auto&& window) { emitToNext(std::move(window)); }); }, *cutter_);
    }

private:
    template <class T>
    static SigSeg<T> takeSamples(const WindowCutter<T>&, Item& item) {
        return item.takeSignal<T>();
    }
    template <class T>
    void emitToNext(SigSeg<T>&& window) {
        emit(takeTurn(), Item::signal(std::move(window)));
    }
    /// Round robin: the output whose turn it is, and the turn passes on.
    int takeTurn() {
        const int output = next_;
        next_ = (next_ + 1) % outputCount();
        return output;
    }
    /// The output of an event's key: its attribute `key` (or its label when `key` is empty) hashed;
    /// an event without that attribute goes to output 0.
    int keyOutput(const Item& item) const {
        const EventRecord* record = item.event();
        std::uint64_t hash = 0;
        if (key_.empty()) {
            const std::string_view label = record->label();
            hash = fnv1a(label.data(), label.size());
        } else if (const std::optional<double> value = record->get(key_)) {
            const double normalized = *value == 0.0 ? 0.0 : *value;  // -0 and 0 are one key
            const auto bits = std::bit_cast<std::uint64_t>(normalized);
            hash = fnv1a(&bits, sizeof bits);
        }
        return static_cast<int>(hash % static_cast<std::uint64_t>(outputCount()));
    }

    Routing routing_ = Routing::RoundRobin;
    std::string key_;
    std::optional<PerSampleType<WindowCutter>> cutter_;  // signals only
    int next_ = 0;                                       // round robin: the output of the next window or item
};

}  // namespace

OperatorDescriptor parallelSplitDescriptor() {
    OperatorDescriptor d;
    d.typeName = "parallel.split";
    d.category = "parallel";
    d.summary = "Splits a stream into q sub-streams for q replicas of a subgraph (parasplit): whole windows in turn, events by key, or windows with overlap";
    d.documentation =
        "The routing function of parasplit (docs/scale-out.md). Wire each output to one replica of an expensive subgraph and "
        "join the replicas' outputs with parallel.merge; put the replicas in other partitions to run them on other ranks. "
        "round_robin: a signal is cut into windows of `window` samples (from its first sample), sent to the outputs in turn; "
        "other items go to the outputs in turn one by one. by_key: each event goes to the output its attribute `key` (or its "
        "label, with no key) hashes to, so one key's events all meet in one replica; events without the attribute go to "
        "output 0. overlap: like round_robin for signals, but each window is sent with the next `overlap` samples too, so "
        "a replica whose output at a sample depends on up to `overlap` samples before it (an FIR filter of overlap + 1 taps, "
        "a moving average) gives exactly the unsplit output after its first `overlap` samples, and parallel.merge keeps the "
        "earlier window's copy of those. A gap in the signal sends the window held so far on its own. Progress goes to every "
        "output, held back to the first sample not yet sent.";
    d.inputs = {PortSpec{"in", PortType::any(), "the stream to split: signals (round_robin, overlap) or events (by_key)"}};
    d.outputs = {PortSpec{"out", PortType::any(), "sub-stream k, for replica k", false, "outputs", "in"}};
    ParamSpec routing{"routing", ParamKind::Choice, std::string("round_robin"), {}, {}, "", "how items are routed to the outputs"};
    routing.choices = {"round_robin", "by_key", "overlap"};
    d.params = {ParamSpec{"outputs", ParamKind::Int, std::int64_t{2}, 1.0, 1024.0, "", "number of sub-streams q (replicas)"},
                routing,
                ParamSpec{"window", ParamKind::Int, std::int64_t{4096}, 1.0, 1e9, "samples", "signals: samples per window"},
                ParamSpec{"overlap", ParamKind::Int, std::int64_t{0}, 0.0, 1e9, "samples",
                          "routing = overlap: samples after each window sent with it as well"},
                ParamSpec{"key", ParamKind::String, std::string(), {}, {}, "", "routing = by_key: the event attribute to route by (empty: the label)"}};
    d.create = [] { return std::make_unique<ParallelSplit>(); };
    return d;
}

}  // namespace isochron
