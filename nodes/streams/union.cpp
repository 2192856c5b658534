#include "nodes/streams/union.h"

#include <vector>

#include "engine/operators/operator.h"
#include "nodes/streams/late_check.h"

namespace isochron {
namespace {

constexpr int kOut = 0;
constexpr int kLate = 1;

/// Passes every item through the moment it arrives, whatever its time: no buffering, no order
/// enforced. Its progress is the minimum of its inputs' (the engine's default), so an
/// order-agnostic consumer (a WID window, a band join) still knows when a time is complete.
/// An item older than its own input's progress broke that input's promise: it goes to `late`.
class Union final : public Operator {
protected:
    void onActivate() override {
        for (int i = 1; i < inputCount(); ++i) {
            if (!(inputPort(i).type == inputPort(0).type)) {
                throw OperatorError("input '" + inputPort(i).name + "' carries " + inputPort(i).type.toString() + " but '" +
                                    inputPort(0).name + "' carries " + inputPort(0).type.toString() + ": a union needs one type");
            }
        }
        lateChecks_.assign(static_cast<std::size_t>(inputCount()), {});
    }

    void process(int inputPort, Item&& item) override {
        if (lateChecks_[static_cast<std::size_t>(inputPort)].isLate(item, this->inputProgress(inputPort))) [[unlikely]] {
            countLate(inputPort);
            return emit(kLate, std::move(item));
        }
        emit(kOut, std::move(item));
    }

private:
    std::vector<LateCheck> lateChecks_;
};

}  // namespace

OperatorDescriptor unionDescriptor() {
    OperatorDescriptor d;
    d.typeName = "streams.union";
    d.category = "streams";
    d.summary = "Merges streams as items come, in no particular order; progress is the inputs' minimum";
    d.documentation =
        "The out-of-order union: every item is passed on at once (nothing is buffered, nothing waits for the "
        "slowest input), and the progress promised downstream is the minimum of the inputs' progress. Put an "
        "order-agnostic operator after it (relational.window_aggregate, relational.band_join). An item older "
        "than its input's progress is late: it is counted and sent to `late`, never dropped. For the in-order "
        "baseline use streams.ordered_merge.";
    d.inputs = {PortSpec{"in", PortType::any(), "streams of one item type", false, "inputs"}};
    d.outputs = {PortSpec{"out", PortType::any(), "every on-time item, in arrival order", false, "", "in"},
                 PortSpec{"late", PortType::any(), "items older than their input's progress", false, "", "in"}};
    d.params = {ParamSpec{"inputs", ParamKind::Int, std::int64_t{2}, 0.0, 1024.0, "", "number of inputs (0: as many as wired)"}};
    d.create = [] { return std::make_unique<Union>(); };
    return d;
}

}  // namespace isochron
