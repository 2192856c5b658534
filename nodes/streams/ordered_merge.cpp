#include "nodes/streams/ordered_merge.h"

#include "engine/operators/operator.h"
#include "nodes/streams/time_ordered_heap.h"

namespace isochron {
namespace {

constexpr int kOut = 0;
constexpr int kLate = 1;

/// In-order processing's merge: holds every item until all inputs have promised progress past its
/// time, then releases it in time order. The output is sorted (with one input it is a sort by
/// progress), at the price of buffering everything that arrives ahead of the slowest input: its
/// memory and latency grow with the skew between inputs. The baseline streams.union is measured against.
class OrderedMerge final : public Operator {
public:
    HeldState heldState() const override { return heap_.held(); }

protected:
    void process(int inputPort, Item&& item) override {
        if (item.time() < inputProgress(inputPort)) [[unlikely]] {
            countLate(inputPort);
            return emit(kLate, std::move(item));
        }
        heap_.push(inputPort, std::move(item));
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        while (!heap_.empty() && heap_.earliestTime() < inputProgress) emitHeld(kOut, heap_.pop());
        return inputProgress;
    }

    void onFinish() override {
        while (!heap_.empty()) emitHeld(kOut, heap_.pop());
    }

private:
    TimeOrderedHeap heap_;
};

}  // namespace

OperatorDescriptor orderedMergeDescriptor() {
    OperatorDescriptor d;
    d.typeName = "streams.ordered_merge";
    d.category = "streams";
    d.summary = "Merges streams into time order by buffering until every input has progressed (in-order baseline)";
    d.documentation =
        "In-order processing: an item is held until every input's progress has passed its time, then released "
        "in time order (ties: by input, then arrival). With one input it sorts a disordered stream. Memory and "
        "latency grow with the skew between inputs — the cost streams.union avoids when the consumer is "
        "order-agnostic. Items older than their input's progress are counted and sent to `late`.";
    d.inputs = {PortSpec{"in", PortType::any(), "streams of one item type, each possibly out of order", false, "inputs"}};
    d.outputs = {PortSpec{"out", PortType::any(), "every on-time item, in time order", false, "", "in"},
                 PortSpec{"late", PortType::any(), "items older than their input's progress", false, "", "in"}};
    d.params = {ParamSpec{"inputs", ParamKind::Int, std::int64_t{2}, 0.0, 1024.0, "", "number of inputs (0: as many as wired)"}};
    d.create = [] { return std::make_unique<OrderedMerge>(); };
    return d;
}

}  // namespace isochron
