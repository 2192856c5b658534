#include "nodes/channels/aligned_inputs.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace isochron {
namespace {

/// Segments one input may hold before its pending list grows (it grows while other inputs lag).
constexpr std::size_t kPendingReserve = 64;

}  // namespace

void AlignedInputs::reset(int inputs) {
    inputs_.assign(static_cast<std::size_t>(inputs), {});
    for (Input& input : inputs_) input.pending.reserve(kPendingReserve);
    timebase_ = nullptr;
    released_ = 0;
    releasedKnown_ = false;
}

void AlignedInputs::add(int index, SigSeg<float> samples) {
    if (samples.empty()) return;
    if (!timebase_) timebase_ = samples.timebase();
    if (samples.timebase() != timebase_) {
        throw std::invalid_argument("input " + std::to_string(index) + " is on " + samples.timebase()->describe() + ", the others on " +
                                    timebase_->describe() + ": combine signals of one rate and clock");
    }
    Input& input = inputs_[static_cast<std::size_t>(index)];
    std::int64_t keepFrom = input.delivered ? input.end : samples.startIndex();
    if (releasedKnown_) keepFrom = std::max(keepFrom, released_);
    if (samples.endIndex() <= keepFrom) return;
    if (samples.startIndex() < keepFrom) samples = samples.subseg(keepFrom, samples.endIndex() - keepFrom);
    input.end = samples.endIndex();
    input.delivered = true;
    input.pending.push_back(std::move(samples));
}

std::int64_t AlignedInputs::next() const {
    if (releasedKnown_) return released_;
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    for (const Input& input : inputs_) {
        if (!input.pending.empty()) first = std::min(first, input.pending.front().startIndex());
    }
    return first;
}

std::int64_t AlignedInputs::readableEnd(std::span<const std::int64_t> promised) const {
    std::int64_t readable = std::numeric_limits<std::int64_t>::max();
    for (std::size_t k = 0; k < inputs_.size(); ++k) {
        const std::int64_t delivered = inputs_[k].delivered ? inputs_[k].end : std::numeric_limits<std::int64_t>::min();
        readable = std::min(readable, std::max(delivered, promised[k]));
    }
    return std::min(readable, latestEnd());
}

std::int64_t AlignedInputs::latestEnd() const {
    std::int64_t latest = std::numeric_limits<std::int64_t>::min();
    for (const Input& input : inputs_) {
        if (input.delivered) latest = std::max(latest, input.end);
    }
    return latest;
}

std::int64_t AlignedInputs::lastBoundaryAtOrBefore(std::int64_t end, std::int64_t after) const {
    std::int64_t last = after;
    for (const Input& input : inputs_) {
        for (const SigSeg<float>& segment : input.pending) {
            for (std::int64_t boundary : {segment.startIndex(), segment.endIndex()}) {
                if (boundary > last && boundary <= end) last = boundary;
            }
        }
    }
    return last;
}

std::int64_t AlignedInputs::nextBoundaryAfter(std::int64_t from, std::int64_t limit) const {
    std::int64_t next = limit;
    for (const Input& input : inputs_) {
        for (const SigSeg<float>& segment : input.pending) {
            for (std::int64_t boundary : {segment.startIndex(), segment.endIndex()}) {
                if (boundary > from && boundary < next) next = boundary;
            }
        }
    }
    return next;
}

bool AlignedInputs::holdsSamples() const {
    return std::any_of(inputs_.begin(), inputs_.end(), [](const Input& input) { return !input.pending.empty(); });
}

std::span<const float> AlignedInputs::read(int index, std::int64_t from, std::int64_t count, std::vector<float>& scratch) const {
    const Input& input = inputs_[static_cast<std::size_t>(index)];
    for (const SigSeg<float>& segment : input.pending) {
        if (segment.startIndex() <= from && segment.endIndex() >= from + count && segment.pieceCount() == 1) {
            return segment.subseg(from, count).materialize();  // one piece: a view, nothing copied
        }
    }
    scratch.assign(static_cast<std::size_t>(count), 0.0f);
    for (const SigSeg<float>& segment : input.pending) {
        if (segment.startIndex() >= from + count) break;
        const std::int64_t lo = std::max(from, segment.startIndex());
        const std::int64_t hi = std::min(from + count, segment.endIndex());
        if (lo >= hi) continue;
        float* out = scratch.data() + (lo - from);
        segment.subseg(lo, hi - lo).forEachSpan([&](std::span<const float> run) { out = std::copy(run.begin(), run.end(), out); });
    }
    return scratch;
}

void AlignedInputs::release(std::int64_t before) {
    released_ = std::max(before, releasedKnown_ ? released_ : before);
    releasedKnown_ = true;
    for (Input& input : inputs_) {
        auto& pending = input.pending;
        auto firstKept = std::find_if(pending.begin(), pending.end(), [&](const SigSeg<float>& s) { return s.endIndex() > released_; });
        pending.erase(pending.begin(), firstKept);
        if (!pending.empty() && pending.front().startIndex() < released_) {
            pending.front() = pending.front().subseg(released_, pending.front().endIndex() - released_);
        }
    }
}

}  // namespace isochron
