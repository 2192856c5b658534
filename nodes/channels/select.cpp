#include "nodes/channels/select.h"

#include <cmath>
#include <string>
#include <vector>

#include "engine/operators/operator.h"

namespace isochron {
namespace {

/// Output k forwards every item of input channels[k], moved or shared, never copied.
class Select final : public Operator {
protected:
    void onActivate() override {
        const std::vector<double>& channels = params().getRealList("channels");
        for (double c : channels) {
            if (c >= inputCount()) {
                throw OperatorError("channel " + std::to_string(static_cast<int>(c)) + " does not exist: the bus has " +
                                    std::to_string(inputCount()) + " (indices from 0)");
            }
        }
        outputsOf_.assign(static_cast<std::size_t>(inputCount()), {});
        for (std::size_t k = 0; k < channels.size(); ++k) outputsOf_[static_cast<std::size_t>(channels[k])].push_back(static_cast<int>(k));
    }

    void process(int inputPort, Item&& item) override {
        const std::vector<int>& outputs = outputsOf_[static_cast<std::size_t>(inputPort)];
        if (outputs.empty()) return;
        for (std::size_t i = 0; i + 1 < outputs.size(); ++i) emit(outputs[i], Item(item));  // shares the samples
        emit(outputs.back(), std::move(item));
    }

private:
    std::vector<std::vector<int>> outputsOf_;  // per input: the outputs it feeds
};

/// The `channels` list names whole channels the bus has (once its size is known: `inputs` > 0).
void checkChannelIndices(const ParamSet& params) {
    const std::vector<double>& channels = params.getRealList("channels");
    if (channels.empty()) throw ParameterError("channels", "name at least one channel");
    for (double c : channels) {
        if (c != std::floor(c)) throw ParameterError("channels", "channel indices are whole numbers; got " + std::to_string(c));
        const std::int64_t inputs = params.getInt("inputs");
        if (inputs > 0 && c >= static_cast<double>(inputs)) {
            throw ParameterError("channels", "channel " + std::to_string(static_cast<int>(c)) + " does not exist: the bus has " +
                                                 std::to_string(inputs) + " (indices from 0)");
        }
    }
}

}  // namespace

OperatorDescriptor selectDescriptor() {
    OperatorDescriptor d;
    d.typeName = "channels.select";
    d.category = "channels";
    d.summary = "Picks, reorders or repeats channels of a bus by index (by reference)";
    d.documentation =
        "Output k carries input channel channels[k]: [2, 0] gives channel 2 then channel 0, [0, 0] repeats channel 0. "
        "Items are forwarded as they are, sharing their samples; an input no output names is dropped. A consumer "
        "that needs an array geometry (beamformers, localizers) and is given none takes the selected mics' positions, in the selected order, from the source that placed them.";
    d.inputs = {PortSpec{"in", PortType::any(), "channel k of the bus", false, "inputs", "", "type"}};
    d.outputs = {PortSpec{"out", PortType::any(), "input channel channels[k]", false, "outputs", "", "type"}};
    d.params = {
        ParamSpec{"inputs", ParamKind::Int, std::int64_t{0}, 0.0, 1024.0, "channels", "channels on the bus; 0 = as many as wired"},
        ParamSpec{"channels", ParamKind::RealList, std::vector<double>{0.0}, 0.0, 1023.0, "",
                  "input channel index (from 0) for each output, in output order"},
        ParamSpec{"type", ParamKind::String, std::string("signal<f32>"), {}, {}, "",
                  "what the channels carry, e.g. signal<f32> or frame<c32> (spectra of an array)"},
        ParamSpec{"outputs", ParamKind::Int, std::int64_t{0}, 0.0, 1024.0, "channels",
                  "number of outputs; 0 = one per entry of channels (else it must equal that count)"},
    };
    d.deriveParams = [](ParamSet& params) {
        checkChannelIndices(params);
        const auto listed = static_cast<std::int64_t>(params.getRealList("channels").size());
        const std::int64_t outputs = params.getInt("outputs");
        if (outputs != 0 && outputs != listed) {
            throw ParameterError("outputs", "outputs is " + std::to_string(outputs) + " but channels lists " + std::to_string(listed));
        }
        params.set("outputs", listed);
    };
    d.channelsOut = [](const ParamSet& params, const std::vector<ChannelLayout>& inputs, std::size_t outputs) {
        checkChannelIndices(params);  // a bus sized by what is wired ("inputs": 0) is known only now
        const std::vector<double>& channels = params.getRealList("channels");
        std::vector<ChannelLayout> picked(outputs);
        for (std::size_t k = 0; k < outputs && k < channels.size(); ++k) {
            const auto from = static_cast<std::size_t>(channels[k]);
            if (from < inputs.size()) picked[k] = inputs[from];
        }
        return picked;
    };
    d.create = [] { return std::make_unique<Select>(); };
    return d;
}

}  // namespace isochron
