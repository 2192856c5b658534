#include "nodes/math/sample_map.h"

namespace isochron {

OperatorDescriptor sampleMapDescriptor(std::string typeName, std::string summary, std::string documentation) {
    OperatorDescriptor d;
    d.typeName = std::move(typeName);
    d.category = "math";
    d.summary = std::move(summary);
    d.documentation = std::move(documentation);
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "samples"}};
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "mapped samples, same range"}};
    return d;
}

}  // namespace isochron
