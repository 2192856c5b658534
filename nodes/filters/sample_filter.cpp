#include "nodes/filters/sample_filter.h"

#include <stdexcept>

#include "nodes/filters/frequency_text.h"

namespace isochron {

void SampleFilter::process(int, Item&& item) {
    SigSeg<float> input = item.takeSignal<float>();
    if (input.empty()) return;
    if (input.timebase() != timebase_) {
        try {
            design(input.timebase()->rateHz());
        } catch (const std::invalid_argument& e) {
            throw OperatorError(std::string(e.what()) + ", for the input at " + filters::hertzText(input.timebase()->rateHz()));
        }
        clearState();
        timebase_ = input.timebase();
    } else if (input.startIndex() != nextIndex_) {
        if (!warnedGap_) {
            warn("samples " + std::to_string(nextIndex_) + " to " + std::to_string(input.startIndex()) +
                 " are missing or repeated: the filter restarts from silence at each such gap (warned once)");
            warnedGap_ = true;
        }
        clearState();
    }
    nextIndex_ = input.endIndex();
    SigSeg<float> output = SigSeg<float>::allocate(input.length(), input.startIndex(), timebase_);
    float* written = output.writable().data();
    input.forEachSpan([&](std::span<const float> run) {
        filter(run.data(), written, run.size());
        written += run.size();
    });
    emit(0, Item::signal(std::move(output)));
}

void SampleFilter::onParameterChanged(std::string_view name) {
    if (!timebase_) return;  // designed at the first segment
    try {
        design(timebase_->rateHz());
    } catch (const std::invalid_argument& e) {
        warn("the new " + std::string(name) + " was not applied: " + e.what());
    }
}

std::vector<PortSpec> sampleFilterInputs() { return {PortSpec{"in", PortType::signal(SampleType::Float32), "the signal to filter"}}; }

std::vector<PortSpec> sampleFilterOutputs() {
    return {PortSpec{"out", PortType::signal(SampleType::Float32), "the filtered signal, sample for sample on the input's timebase"}};
}

}  // namespace isochron
