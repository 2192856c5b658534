#include "nodes/math/pairwise_operator.h"

namespace isochron {

OperatorDescriptor pairwiseDescriptor(std::string typeName, std::string summary, std::string documentation) {
    OperatorDescriptor d;
    d.typeName = std::move(typeName);
    d.category = "math";
    d.summary = std::move(summary);
    d.documentation = std::move(documentation) +
                      " The inputs are aligned by sample index; a sample one input never delivers reads as zero.";
    d.inputs = {PortSpec{"a", PortType::signal(SampleType::Float32), "first operand"},
                PortSpec{"b", PortType::signal(SampleType::Float32), "second operand"}};
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "the result, sample by sample"}};
    return d;
}

}  // namespace isochron
