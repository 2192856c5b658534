#include "nodes/channels/merge.h"

#include "nodes/channels/aligned_operator.h"

namespace isochron {
namespace {

/// Interleaves aligned inputs: sample f of input c is sample f * N + c of the output, on a timebase
/// N times faster with the same zero time and clock (frame f keeps its time).
class Merge final : public AlignedOperator {
protected:
    void combine(std::int64_t from, std::int64_t count) override {
        const int channels = inputCount();
        if (!interleavedBase_) {  // the inputs keep one timebase (AlignedInputs refuses another)
            const Timebase& perChannel = *timebase();
            interleavedBase_ = &Timebase::get(perChannel.rateHz() * channels, perChannel.zeroTimeNs(), perChannel.clock());
        }
        auto interleaved = SigSeg<float>::allocate(count * channels, from * channels, interleavedBase_);
        float* out = interleaved.writable().data();
        for (int c = 0; c < channels; ++c) {
            const std::span<const float> in = read(c, from, count);
            for (std::int64_t f = 0; f < count; ++f) out[f * channels + c] = in[static_cast<std::size_t>(f)];
        }
        emit(0, Item::signal(std::move(interleaved)));
    }

private:
    const Timebase* interleavedBase_ = nullptr;
};

}  // namespace

OperatorDescriptor mergeDescriptor() {
    OperatorDescriptor d;
    d.typeName = "channels.merge";
    d.category = "channels";
    d.summary = "Interleaves N signals into one signal of frames (channel k = input k)";
    d.documentation =
        "Sample f of input c becomes sample f*N + c of the output, which runs at N times the inputs' rate on the same clock "
        "with the same zero time (frame f keeps its time); the inverse of channels.split. Inputs are aligned by sample "
        "index; a sample an input never delivers reads as zero. The output carries the inputs' channel labels and positions, in input order.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "channel k", false, "channels"}};
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "interleaved frames"}};
    d.params = {ParamSpec{"channels", ParamKind::Int, std::int64_t{0}, 0.0, 1024.0, "channels", "inputs; 0 = as many as wired"}};
    d.channelsOut = [](const ParamSet&, const std::vector<ChannelLayout>& inputs, std::size_t) {
        return std::vector<ChannelLayout>{concatenateChannels(inputs)};
    };
    d.create = [] { return std::make_unique<Merge>(); };
    return d;
}

}  // namespace isochron
