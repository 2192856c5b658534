// The element types a SigSeg can carry, and their names in graph files and messages.
#pragma once

#include <complex>
#include <cstdint>
#include <optional>
#include <string_view>

namespace isochron {

/// Element type of a signal or frame. [any thread]
enum class SampleType : std::uint8_t { None, Float32, Float64, Int16, ComplexFloat32 };

template <class T> struct SampleTypeOf;
template <> struct SampleTypeOf<float> { static constexpr SampleType value = SampleType::Float32; };
template <> struct SampleTypeOf<double> { static constexpr SampleType value = SampleType::Float64; };
template <> struct SampleTypeOf<std::int16_t> { static constexpr SampleType value = SampleType::Int16; };
template <> struct SampleTypeOf<std::complex<float>> { static constexpr SampleType value = SampleType::ComplexFloat32; };

/// Bytes per element of `type` (0 for None).
constexpr std::size_t sampleSize(SampleType type) {
    switch (type) {
        case SampleType::Float32: return 4;
        case SampleType::Float64: return 8;
        case SampleType::Int16: return 2;
        case SampleType::ComplexFloat32: return 8;
        case SampleType::None: break;
    }
    return 0;
}

/// Short name used in graph files and messages: "f32", "f64", "i16", "c32".
constexpr std::string_view sampleTypeName(SampleType type) {
    switch (type) {
        case SampleType::Float32: return "f32";
        case SampleType::Float64: return "f64";
        case SampleType::Int16: return "i16";
        case SampleType::ComplexFloat32: return "c32";
        case SampleType::None: break;
    }
    return "none";
}

/// Inverse of sampleTypeName.
inline std::optional<SampleType> parseSampleType(std::string_view name) {
    for (SampleType t : {SampleType::Float32, SampleType::Float64, SampleType::Int16, SampleType::ComplexFloat32}) {
        if (sampleTypeName(t) == name) return t;
    }
    return std::nullopt;
}

}  // namespace isochron
