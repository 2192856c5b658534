#include "nodes/channels/mute.h"

#include <algorithm>

#include "engine/operators/operator.h"

namespace isochron {
namespace {

/// Muted: each segment is replaced by zeros over the same samples (the stream keeps its timing).
/// Unmuted: each segment is forwarded by reference.
class Mute final : public Operator {
protected:
    void onActivate() override { muted_ = params().getBool("muted"); }
    void onParameterChanged(std::string_view) override { muted_ = params().getBool("muted"); }

    void process(int inputPort, Item&& item) override {
        if (!muted_) {
            emit(inputPort, std::move(item));
            return;
        }
        const SegmentHandle& in = item.segment();
        auto silence = SigSeg<float>::allocate(in.length(), in.startIndex(), in.timebase());
        std::span<float> out = silence.writable();
        std::fill(out.begin(), out.end(), 0.0f);
        emit(inputPort, Item::signal(std::move(silence)));
    }

private:
    bool muted_ = false;
};

}  // namespace

OperatorDescriptor muteDescriptor() {
    OperatorDescriptor d;
    d.typeName = "channels.mute";
    d.category = "channels";
    d.summary = "Silences every channel while muted (live); passes by reference otherwise";
    d.documentation =
        "While muted each segment becomes zeros over the same samples, so what follows keeps its timing; unmuted, "
        "segments are forwarded by reference. A live change applies from the next segment.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "channel k", false, "channels"}};
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "channel k, or silence", false, "channels"}};
    d.params = {
        ParamSpec{"channels", ParamKind::Int, std::int64_t{1}, 0.0, 1024.0, "channels", "channels on the bus; 0 = as many as wired"},
        ParamSpec{"muted", ParamKind::Bool, false, {}, {}, "", "output silence instead of the input", {}, true},
    };
    d.create = [] { return std::make_unique<Mute>(); };
    return d;
}

}  // namespace isochron
