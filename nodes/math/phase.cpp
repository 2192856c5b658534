#include "nodes/math/phase.h"

#include <cmath>
#include <complex>

#include "engine/operators/operator.h"

namespace isochron {
namespace {

/// Maps every complex bin of a frame to atan2(im, re); the frame keeps its range.
class Phase final : public Operator {
protected:
    void process(int, Item&& item) override {
        const SampleRange covered = item.range();
        const auto bins = item.takeSignal<std::complex<float>>();
        auto phases = SigSeg<float>::allocate(bins.length(), bins.startIndex(), bins.timebase());
        float* out = phases.writable().data();
        bins.forEachSpan([&](std::span<const std::complex<float>> run) {
            for (const std::complex<float>& bin : run) *out++ = std::atan2(bin.imag(), bin.real());
        });
        emit(0, Item::frame(std::move(phases), covered));
    }
};

}  // namespace

OperatorDescriptor phaseDescriptor() {
    OperatorDescriptor d;
    d.typeName = "math.phase";
    d.category = "math";
    d.summary = "Phase of each complex bin, in radians (-pi, pi]";
    d.documentation =
        "atan2(im, re) of every bin; the output frame describes the same range. The magnitude of the same bins is "
        "spectral.magnitude (linear, power or dB).";
    d.inputs = {PortSpec{"spectrum", PortType::frame(SampleType::ComplexFloat32), "complex bins"}};
    d.outputs = {PortSpec{"phase", PortType::frame(SampleType::Float32), "one angle per bin, rad"}};
    d.create = [] { return std::make_unique<Phase>(); };
    return d;
}

}  // namespace isochron
