// Run one class template for whatever sample type a port carries, decided once at activation.
//
// Operators that handle signal<any> (re-windowing, buffering) are written as a template over the
// sample type; the port's resolved type picks the instantiation, and std::visit reaches it per item.
#pragma once

#include <complex>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>

#include "engine/operators/descriptor.h"
#include "engine/signal/sample_type.h"

namespace isochron {

/// One Holder<T> for each sample type a SigSeg can carry.
template <template <class> class Holder>
using PerSampleType = std::variant<Holder<float>, Holder<double>, Holder<std::int16_t>, Holder<std::complex<float>>>;

/// A Holder<T> built from `args` for the sample type of the resolved (concrete) signal port `port`.
/// Throws std::invalid_argument when the port does not carry samples.
template <template <class> class Holder, class... Args>
PerSampleType<Holder> makeForPort(const ResolvedPort& port, const Args&... args) {
    switch (port.type.sampleType.value_or(SampleType::None)) {
        case SampleType::Float32: return Holder<float>(args...);
        case SampleType::Float64: return Holder<double>(args...);
        case SampleType::Int16: return Holder<std::int16_t>(args...);
        case SampleType::ComplexFloat32: return Holder<std::complex<float>>(args...);
        case SampleType::None: break;
    }
    throw std::invalid_argument("port '" + port.name + "' (" + port.type.toString() + ") carries no samples");
}

}  // namespace isochron
