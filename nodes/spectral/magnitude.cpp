#include "nodes/spectral/magnitude.h"

#include <cmath>
#include <complex>
#include <string>

#include "engine/operators/operator.h"

namespace isochron {
namespace {

/// How a bin's magnitude is reported.
enum class MagnitudeScale { Linear, Power, Decibels };

/// Added to |z| before the logarithm so that an empty bin gives -240 dB, not -inf.
constexpr double kDecibelFloor = 1e-12;

/// Maps every complex bin of a frame to a real value; the frame keeps its range.
class Magnitude final : public Operator {
protected:
    void onActivate() override { readScale(); }
    void onParameterChanged(std::string_view) override { readScale(); }

    void process(int, Item&& item) override {
        const SampleRange covered = item.range();
        const auto bins = item.takeSignal<std::complex<float>>();
        auto values = SigSeg<float>::allocate(bins.length(), bins.startIndex(), bins.timebase());
        float* next = values.writable().data();
        bins.forEachSpan([&](std::span<const std::complex<float>> run) {
            // One loop per scale: the scale is not decided again for every bin.
            switch (scale_) {
                case MagnitudeScale::Power:
                    for (const std::complex<float>& bin : run) *next++ = std::norm(bin);
                    return;
                case MagnitudeScale::Decibels:
                    for (const std::complex<float>& bin : run) *next++ = decibels(bin);
                    return;
                case MagnitudeScale::Linear:
                    for (const std::complex<float>& bin : run) *next++ = absolute(bin);
                    return;
            }
        });
        emit(0, Item::frame(std::move(values), covered));
    }

private:
    void readScale() {
        const std::string& name = params().getString("scale");
        scale_ = name == "power" ? MagnitudeScale::Power : name == "db" ? MagnitudeScale::Decibels : MagnitudeScale::Linear;
    }

    static float decibels(std::complex<float> bin) {
        return static_cast<float>(20.0 * std::log10(static_cast<double>(std::abs(bin)) + kDecibelFloor));
    }

    /// |z| exactly as glibc's hypotf computes it (the square root of the sum of squares taken in
    /// double, then rounded once), without its call per bin: DETECTAUDIO runs this on every window.
    static float absolute(std::complex<float> bin) {
        const double re = bin.real();
        const double im = bin.imag();
        const float magnitude = static_cast<float>(std::sqrt(re * re + im * im));
        // Only an infinite part beside a NaN differs (hypot gives inf): rare, so checked last.
        return std::isnan(magnitude) ? std::abs(bin) : magnitude;
    }

    MagnitudeScale scale_ = MagnitudeScale::Linear;
};

}  // namespace

OperatorDescriptor magnitudeDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spectral.magnitude";
    d.category = "spectral";
    d.summary = "Magnitude of each complex bin: |z|, |z|^2 or dB";
    d.documentation =
        "linear: |z|; power: |z|^2; db: 20 log10(|z| + 1e-12), so an empty bin reads -240 dB. "
        "The output frame has as many values as the input has bins and describes the same range.";
    d.inputs = {PortSpec{"spectrum", PortType::frame(SampleType::ComplexFloat32), "complex bins"}};
    d.outputs = {PortSpec{"magnitude", PortType::frame(SampleType::Float32), "one real value per bin"}};
    d.params = {ParamSpec{"scale", ParamKind::Choice, std::string("linear"), {}, {}, "",
                          "linear |z|, power |z|^2, or db 20 log10(|z| + 1e-12)", {"linear", "power", "db"}, true}};
    d.create = [] { return std::make_unique<Magnitude>(); };
    return d;
}

}  // namespace isochron
