#include "nodes/channels/aligned_operator.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace isochron {

void AlignedOperator::onActivate() {
    inputs_.reset(inputCount());
    scratch_.assign(static_cast<std::size_t>(inputCount()), {});
    promised_.assign(static_cast<std::size_t>(inputCount()), std::numeric_limits<std::int64_t>::min());
}

void AlignedOperator::process(int inputPort, Item&& item) {
    try {
        inputs_.add(inputPort, item.takeSignal<float>());
    } catch (const std::invalid_argument& e) {
        throw OperatorError(e.what());
    }
    combineReadable();
}

TimeNs AlignedOperator::onProgress(TimeNs inputProgress) {
    combineReadable();
    if (!inputs_.holdsSamples()) return inputProgress;
    return std::min(inputProgress, inputs_.timebase()->timeOf(inputs_.next()));
}

void AlignedOperator::onFinish() {
    if (inputs_.holdsSamples()) combineUpTo(inputs_.latestEnd());
}

std::span<const float> AlignedOperator::read(int input, std::int64_t from, std::int64_t count) {
    return inputs_.read(input, from, count, scratch_[static_cast<std::size_t>(input)]);
}

void AlignedOperator::combineReadable() {
    const Timebase* timebase = inputs_.timebase();
    if (!timebase) return;
    for (int k = 0; k < inputCount(); ++k) {
        const TimeNs promise = inputProgress(k);
        promised_[static_cast<std::size_t>(k)] = promise == kEndOfTime         ? std::numeric_limits<std::int64_t>::max()
                                                 : promise == kBeginningOfTime ? std::numeric_limits<std::int64_t>::min()
                                                                               : timebase->firstIndexAtOrAfter(promise);
    }
    combineUpTo(inputs_.readableEnd(promised_));
}

void AlignedOperator::combineUpTo(std::int64_t end) {
    const std::int64_t from = inputs_.next();
    // Output segments run between the inputs' segment boundaries, so how the outputs are cut depends
    // on the inputs alone, never on when progress or data arrived (every scheduler gives the same items).
    end = inputs_.lastBoundaryAtOrBefore(end, from);
    for (std::int64_t at = from; at < end;) {
        const std::int64_t cut = inputs_.nextBoundaryAfter(at, end);
        combine(at, cut - at);
        at = cut;
    }
    if (end > from) inputs_.release(end);
}

}  // namespace isochron
