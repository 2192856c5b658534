#include "nodes/channels/aligned_operator.h"

#include <algorithm>
#include <stdexcept>

namespace isochron {

void AlignedOperator::onActivate() {
    inputs_.reset(inputCount());
    scratch_.assign(static_cast<std::size_t>(inputCount()), {});
}

void AlignedOperator::process(int inputPort, Item&& item) {
    try {
        inputs_.add(inputPort, item.takeSignal<float>());
    } catch (const std::invalid_argument& e) {
        throw OperatorError(e.what());
    }
    if (inputs_.allDelivered()) combineUpTo(inputs_.alignedEnd());
}

TimeNs AlignedOperator::onProgress(TimeNs inputProgress) {
    if (!inputs_.holdsSamples()) return inputProgress;
    return std::min(inputProgress, inputs_.timebase()->timeOf(inputs_.next()));
}

void AlignedOperator::onFinish() {
    if (inputs_.holdsSamples()) combineUpTo(inputs_.latestEnd());
}

std::span<const float> AlignedOperator::read(int input, std::int64_t from, std::int64_t count) {
    return inputs_.read(input, from, count, scratch_[static_cast<std::size_t>(input)]);
}

void AlignedOperator::combineUpTo(std::int64_t end) {
    const std::int64_t from = inputs_.next();
    if (end <= from) return;
    combine(from, end - from);
    inputs_.release(end);
}

}  // namespace isochron
