#include "nodes/parallel/merge.h"

#include <complex>
#include <cstdint>

#include "engine/operators/operator.h"
#include "nodes/streams/time_ordered_heap.h"

namespace isochron {
namespace {

constexpr int kOut = 0;

/// Joins the replicas' sub-streams. In time order it holds each item until every input has promised
/// progress past its time and releases items by (time, input, arrival), which gives back the unsplit
/// order when each replica keeps its windows' times; signal samples that an earlier window already
/// sent (the overlap a split adds) are dropped, so every sample goes out once. In arrival order it
/// passes items on as they come and its progress is the inputs' minimum (for order-agnostic consumers).
class ParallelMerge final : public Operator {
public:
    HeldState heldState() const override { return heap_.held(); }

protected:
    void onActivate() override {
        for (int i = 1; i < inputCount(); ++i) {
            if (!(inputPort(i).type == inputPort(0).type)) {
                throw OperatorError("input '" + inputPort(i).name + "' carries " + inputPort(i).type.toString() + " but '" + inputPort(0).name +
                                    "' carries " + inputPort(0).type.toString() + ": the replicas of one split give one type");
            }
        }
        inTimeOrder_ = params().getString("order") == "time";
    }

    void process(int inputPort, Item&& item) override {
        if (!inTimeOrder_) return emit(kOut, std::move(item));
        if (item.time() < this->inputProgress(inputPort)) [[unlikely]] {
            // A replica broke its progress promise: its item cannot be put in order any more.
            countLate(inputPort);
            return release(std::move(item));
        }
        heap_.push(inputPort, std::move(item));
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        while (!heap_.empty() && heap_.earliestTime() < inputProgress) release(heap_.pop());
        return inputProgress;
    }

    void onFinish() override {
        while (!heap_.empty()) release(heap_.pop());
    }

private:
    void release(Item&& item) {
        if (item.kind() != ItemKind::Signal) return emitHeld(kOut, std::move(item));
        switch (item.sampleType()) {
            case SampleType::Float32: return releaseSamples<float>(std::move(item));
            case SampleType::Float64: return releaseSamples<double>(std::move(item));
            case SampleType::Int16: return releaseSamples<std::int16_t>(std::move(item));
            case SampleType::ComplexFloat32: return releaseSamples<std::complex<float>>(std::move(item));
            case SampleType::None: return emitHeld(kOut, std::move(item));
        }
    }
    /// Emit the samples of `item` not sent yet (on the same timebase, those from sentEnd_ on).
    template <class T>
    void releaseSamples(Item&& item) {
        const TimeNs arrival = item.arrivalNs();
        SigSeg<T> samples = item.takeSignal<T>();
        if (samples.timebase() == sentTimebase_ && samples.startIndex() < sentEnd_) {
            if (samples.endIndex() <= sentEnd_) return;
            samples = samples.subseg(sentEnd_, samples.endIndex() - sentEnd_);
        }
        sentTimebase_ = samples.timebase();
        sentEnd_ = samples.endIndex();
        Item kept = Item::signal(std::move(samples));
        kept.setArrivalNs(arrival);
        emitHeld(kOut, std::move(kept));
    }

    bool inTimeOrder_ = true;
    TimeOrderedHeap heap_;
    const Timebase* sentTimebase_ = nullptr;  // the signal sent last, and
    std::int64_t sentEnd_ = 0;                // one past its last sample
};

}  // namespace

OperatorDescriptor parallelMergeDescriptor() {
    OperatorDescriptor d;
    d.typeName = "parallel.merge";
    d.category = "parallel";
    d.summary = "Joins the replicas of a parallel.split into one stream, in time order (restoring the unsplit order) or as items come";
    d.documentation =
        "order = time: an item is held until every input's progress has passed its time, then released in time order "
        "(ties: by input, then arrival), so replicas that keep their windows' times give back the stream the unsplit "
        "subgraph gives. Signal samples already sent are dropped: with a split's overlap routing the earlier window's copy "
        "of the overlap is kept and the next replica's warm-up is not. Memory grows with the skew between replicas. "
        "order = arrival: items pass on as they come and progress is the inputs' minimum, for an order-agnostic consumer "
        "(relational.window_aggregate); nothing is held. Items older than their input's progress are counted as late and "
        "passed on at once.";
    d.inputs = {PortSpec{"in", PortType::any(), "the output of replica k", false, "inputs"}};
    d.outputs = {PortSpec{"out", PortType::any(), "the replicas' items as one stream", false, "", "in"}};
    ParamSpec order{"order", ParamKind::Choice, std::string("time"), {}, {}, "", "time: restore time order; arrival: pass through"};
    order.choices = {"time", "arrival"};
    d.params = {ParamSpec{"inputs", ParamKind::Int, std::int64_t{2}, 0.0, 1024.0, "", "number of replicas q (0: as many as wired)"}, order};
    d.create = [] { return std::make_unique<ParallelMerge>(); };
    return d;
}

}  // namespace isochron
