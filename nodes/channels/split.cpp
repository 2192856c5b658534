#include "nodes/channels/split.h"

#include <string>

#include "engine/operators/operator.h"

namespace isochron {
namespace {

/// Deinterleaves each segment: sample f * N + c of the input is sample f of output c, on a timebase
/// N times slower with the same zero time and clock (so frame f keeps its time).
class Split final : public Operator {
protected:
    void onActivate() override { channels_ = outputCount(); }

    void process(int, Item&& item) override {
        const auto interleaved = item.takeSignal<float>();
        if (interleaved.empty()) return;
        if (interleaved.startIndex() % channels_ != 0 || interleaved.length() % channels_ != 0) {
            throw OperatorError("a segment of samples [" + std::to_string(interleaved.startIndex()) + ", " +
                                std::to_string(interleaved.endIndex()) + ") does not hold whole frames of " +
                                std::to_string(channels_) + " channels");
        }
        if (interleaved.timebase() != source_) {
            source_ = interleaved.timebase();
            perChannel_ = &Timebase::get(source_->rateHz() / channels_, source_->zeroTimeNs(), source_->clock());
        }
        const std::int64_t frames = interleaved.length() / channels_;
        const std::int64_t firstFrame = interleaved.startIndex() / channels_;
        const std::span<const float> in = interleaved.materialize();
        for (int c = 0; c < channels_; ++c) {
            auto channel = SigSeg<float>::allocate(frames, firstFrame, perChannel_);
            float* out = channel.writable().data();
            for (std::int64_t f = 0; f < frames; ++f) out[f] = in[static_cast<std::size_t>(f * channels_ + c)];
            emit(c, Item::signal(std::move(channel)));
        }
    }

private:
    int channels_ = 1;
    const Timebase* source_ = nullptr;      // the input's timebase, and
    const Timebase* perChannel_ = nullptr;  // the outputs' one derived from it
};

}  // namespace

OperatorDescriptor splitDescriptor() {
    OperatorDescriptor d;
    d.typeName = "channels.split";
    d.category = "channels";
    d.summary = "Deinterleaves frames of N channels into N signals";
    d.documentation =
        "Sample f*N + c of the input becomes sample f of output c. The outputs run at the input's rate / N on the same clock "
        "with the same zero time, so frame f keeps its time; the inverse of channels.merge. Every segment must hold whole frames. Output c keeps the label and position of the frame's channel c when they are known (e.g. from a merge).";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "interleaved frames"}};
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "channel k", false, "channels"}};
    d.params = {ParamSpec{"channels", ParamKind::Int, std::int64_t{2}, 1.0, 1024.0, "channels", "channels per interleaved frame"}};
    d.channelsOut = [](const ParamSet&, const std::vector<ChannelLayout>& inputs, std::size_t outputs) {
        std::vector<ChannelLayout> channels(outputs);
        const ChannelLayout& frame = inputs.at(0);
        if (frame.size() == outputs) {  // labelled by a merge (or a source) upstream
            for (std::size_t c = 0; c < outputs; ++c) channels[c] = {frame[c]};
        }
        return channels;
    };
    d.create = [] { return std::make_unique<Split>(); };
    return d;
}

}  // namespace isochron
