#include "nodes/streams/slack.h"

#include <algorithm>
#include <cmath>

#include "engine/operators/operator.h"
#include "nodes/streams/time_ordered_heap.h"

namespace isochron {
namespace {

constexpr int kOut = 0;
constexpr int kLate = 1;

/// Aurora's slack (the baseline the out-of-order paper compares with): the stream's progress is
/// deduced from arrivals, not from punctuation. Items wait until an item `slack` later has
/// arrived, then leave in time order; an item older than one already released arrived beyond the
/// slack (or older than the input's progress): Aurora drops it, here it is counted and sent to `late`. Too small a slack loses items,
/// too large adds latency — the trade-off punctuation removes. Upstream progress is still passed
/// on (never past what is held) so downstream operators stay correct.
class Slack final : public Operator {
public:
    HeldState heldState() const override { return heap_.held(); }

protected:
    void onActivate() override { slackNs_ = static_cast<TimeNs>(std::llround(params().getReal("slack") * 1e9)); }

    void process(int inputPort, Item&& item) override {
        const TimeNs time = item.time();
        if (time < released_ || time < inputProgress(inputPort)) {
            countLate(inputPort);
            return emit(kLate, std::move(item));
        }
        newest_ = std::max(newest_, time);
        heap_.push(inputPort, std::move(item));
        while (!heap_.empty() && heap_.earliestTime() <= newest_ - slackNs_) release();
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        return heap_.empty() ? inputProgress : std::min(inputProgress, heap_.earliestTime());
    }

    void onFinish() override {
        while (!heap_.empty()) release();
    }

private:
    void release() {
        released_ = heap_.earliestTime();
        emitHeld(kOut, heap_.pop());
    }

    TimeNs slackNs_ = 0;
    TimeNs newest_ = kBeginningOfTime;
    TimeNs released_ = kBeginningOfTime;
    TimeOrderedHeap heap_;
};

}  // namespace

OperatorDescriptor slackDescriptor() {
    OperatorDescriptor d;
    d.typeName = "streams.slack";
    d.category = "streams";
    d.summary = "Restores time order within a grace period deduced from arrivals (Aurora's slack); later items go to `late`";
    d.documentation =
        "An item is released, in time order, once an item `slack` seconds newer has arrived. An item older than "
        "one already released is late (Aurora drops it): it is counted and sent to `late`. The in-order baseline "
        "that needs no punctuation but must guess the disorder: too small loses items, too large adds latency. On a sparse stream an item "
        "waits for the next item at least slack newer, however long that takes (or the end of the stream).";
    d.inputs = {PortSpec{"in", PortType::any(), "a possibly disordered stream"}};
    d.outputs = {PortSpec{"out", PortType::any(), "items in time order", false, "", "in"},
                 PortSpec{"late", PortType::any(), "items that arrived beyond the slack", false, "", "in"}};
    d.params = {ParamSpec{"slack", ParamKind::Real, 1.0, 0.0, 1e6, "s", "grace period: how much older than the newest item an item may arrive"}};
    d.create = [] { return std::make_unique<Slack>(); };
    return d;
}

}  // namespace isochron
