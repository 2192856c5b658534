#include "nodes/channels/gain.h"

#include <cmath>

#include "engine/operators/operator.h"

namespace isochron {
namespace {

/// Output k = input k times 10^(gain_db / 20); at exactly 0 dB the segment itself is forwarded.
class Gain final : public Operator {
protected:
    void onActivate() override { readGain(); }
    void onParameterChanged(std::string_view) override { readGain(); }

    void process(int inputPort, Item&& item) override {
        if (factor_ == 1.0f) {
            emit(inputPort, std::move(item));
            return;
        }
        const auto in = item.takeSignal<float>();
        auto scaled = SigSeg<float>::allocate(in.length(), in.startIndex(), in.timebase());
        float* out = scaled.writable().data();
        const float factor = factor_;
        in.forEachSpan([&](std::span<const float> run) {
            for (float v : run) *out++ = v * factor;
        });
        emit(inputPort, Item::signal(std::move(scaled)));
    }

private:
    void readGain() { factor_ = static_cast<float>(std::pow(10.0, params().getReal("gain_db") / 20.0)); }

    float factor_ = 1.0f;
};

}  // namespace

OperatorDescriptor gainDescriptor() {
    OperatorDescriptor d;
    d.typeName = "channels.gain";
    d.category = "channels";
    d.summary = "Scales every channel by a gain in dB (live)";
    d.documentation =
        "out_k = in_k * 10^(gain_db / 20). At exactly 0 dB segments are forwarded by reference (nothing is copied). "
        "A live change applies from the next segment.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "channel k", false, "channels"}};
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "channel k scaled", false, "channels"}};
    d.params = {
        ParamSpec{"channels", ParamKind::Int, std::int64_t{1}, 0.0, 1024.0, "channels", "channels on the bus; 0 = as many as wired"},
        ParamSpec{"gain_db", ParamKind::Real, 0.0, -120.0, 60.0, "dB", "gain applied to every channel", {}, true},
    };
    d.create = [] { return std::make_unique<Gain>(); };
    return d;
}

}  // namespace isochron
