#include "nodes/streams/link.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/streams/held_items.h"

namespace isochron {
namespace {

constexpr int kOut = 0;
constexpr int kLate = 1;

/// splitmix64: a small, well-mixed deterministic generator (one draw per item, no state but a counter).
std::uint64_t splitMix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/// A link between a sensor and the graph, simulated in stream time so that runs are reproducible
/// at any speed: item i (time t) arrives when its stream's progress reaches t + delay + jitter_i,
/// jitter_i uniform in [0, jitter) from `seed` and i. Items leave in arrival order, so jitter
/// reorders them; the progress promised downstream is input progress - delay - jitter (no held or
/// future item is older). Used to give streams skew and disorder (e.g. two arrays' event links).
class Link final : public Operator {
public:
    HeldState heldState() const override { return held_.state(); }

protected:
    void onActivate() override {
        delayNs_ = static_cast<TimeNs>(std::llround(params().getReal("delay") * 1e9));
        jitterNs_ = static_cast<TimeNs>(std::llround(params().getReal("jitter") * 1e9));
        seed_ = static_cast<std::uint64_t>(params().getInt("seed"));
        pending_.reserve(64);
    }

    void process(int inputPort, Item&& item) override {
        const TimeNs time = item.time();
        if (time < inputProgress(inputPort)) [[unlikely]] {
            countLate(inputPort);
            return emit(kLate, std::move(item));
        }
        const double unit = static_cast<double>(splitMix(seed_ ^ splitMix(count_++)) >> 11) * 0x1.0p-53;
        const TimeNs arrival = time + delayNs_ + static_cast<TimeNs>(unit * static_cast<double>(jitterNs_));
        const std::uint64_t bytes = approximateBytes(item);
        held_.add(bytes);
        pending_.push_back(Pending{arrival, count_, bytes, std::move(item)});
        std::push_heap(pending_.begin(), pending_.end(), later);
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        releaseUpTo(inputProgress);
        const TimeNs lag = delayNs_ + jitterNs_;
        return inputProgress < kBeginningOfTime + lag ? kBeginningOfTime : inputProgress - lag;
    }

    void onFinish() override { releaseUpTo(kEndOfTime); }

private:
    struct Pending {
        TimeNs arrival;
        std::uint64_t sequence;
        std::uint64_t bytes;
        Item item;
    };
    static bool later(const Pending& a, const Pending& b) {
        return a.arrival != b.arrival ? a.arrival > b.arrival : a.sequence > b.sequence;
    }

    void releaseUpTo(TimeNs now) {
        while (!pending_.empty() && pending_.front().arrival <= now) {
            std::pop_heap(pending_.begin(), pending_.end(), later);
            Pending next = std::move(pending_.back());
            pending_.pop_back();
            held_.remove(next.bytes);
            emitHeld(kOut, std::move(next.item));
        }
    }

    TimeNs delayNs_ = 0;
    TimeNs jitterNs_ = 0;
    std::uint64_t seed_ = 0;
    std::uint64_t count_ = 0;
    std::vector<Pending> pending_;
    HeldStateCounter held_;
};

}  // namespace

OperatorDescriptor linkDescriptor() {
    OperatorDescriptor d;
    d.typeName = "streams.link";
    d.category = "streams";
    d.summary = "Simulates a network link: delays items and jitters (reorders) them, reproducibly";
    d.documentation =
        "Each item arrives `delay` plus a random jitter in [0, `jitter`) after its time, measured on the stream's "
        "own progress (so a run is the same at any speed and under any scheduler; `seed` picks the jitter). Items "
        "leave in arrival order — jitter larger than the gap between items reorders them — and the progress passed "
        "on is the input's minus delay + jitter. Use it to give streams skew and disorder, e.g. the links of two "
        "arrays before a band join.";
    d.inputs = {PortSpec{"in", PortType::any(), "items of any type"}};
    d.outputs = {PortSpec{"out", PortType::any(), "the same items, later and possibly reordered", false, "", "in"},
                 PortSpec{"late", PortType::any(), "items older than the input's progress", false, "", "in"}};
    d.params = {
        ParamSpec{"delay", ParamKind::Real, 0.0, 0.0, 1e6, "s", "fixed delay of every item"},
        ParamSpec{"jitter", ParamKind::Real, 0.0, 0.0, 1e6, "s", "extra delay, uniform in [0, jitter)"},
        ParamSpec{"seed", ParamKind::Int, std::int64_t{1}, 0.0, {}, "", "seed of the jitter"},
    };
    d.create = [] { return std::make_unique<Link>(); };
    return d;
}

}  // namespace isochron
