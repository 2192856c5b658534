#include "nodes/segments/pass_through.h"

#include "engine/operators/operator.h"

namespace isochron {
namespace {

/// Emits each input item on its output, moved, never copied.
class PassThrough final : public Operator {
protected:
    void process(int, Item&& item) override { emit(0, std::move(item)); }
};

}  // namespace

OperatorDescriptor passThroughDescriptor() {
    OperatorDescriptor d;
    d.typeName = "segments.pass_through";
    d.category = "segments";
    d.summary = "Forwards every item unchanged (by reference)";
    d.inputs = {PortSpec{"in", PortType::any(), "items of any type"}};
    d.outputs = {PortSpec{"out", PortType::any(), "the same items", false, "", "in"}};
    d.create = [] { return std::make_unique<PassThrough>(); };
    d.passesEveryItem = [](const ParamSet&) { return true; };
    return d;
}

}  // namespace isochron
