#include "nodes/io/null_sink.h"

#include "engine/operators/operator.h"

namespace isochron {
namespace {

/// Drops every item; the engine still counts them and their latency.
class NullSink final : public Operator {
protected:
    void process(int, Item&&) override {}
};

}  // namespace

OperatorDescriptor nullSinkDescriptor() {
    OperatorDescriptor d;
    d.typeName = "io.null_sink";
    d.category = "io";
    d.summary = "Discards every item";
    d.inputs = {PortSpec{"in", PortType::any(), "items of any kind"}};
    d.create = [] { return std::make_unique<NullSink>(); };
    return d;
}

}  // namespace isochron
