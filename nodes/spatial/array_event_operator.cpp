#include "nodes/spatial/array_event_operator.h"

#include <algorithm>
#include <string>

namespace isochron {
namespace {

constexpr std::size_t kPendingEventsReserved = 8;  // events waiting per input before a vector grows

std::string describeRange(const SampleRange& range) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict, falsely) on "literal" + std::string&&.
    std::string text("[");
    text += std::to_string(range.start);
    text += ", ";
    text += std::to_string(range.end());
    text += ")";
    if (range.timebase) {
        text += " on ";
        text += range.timebase->describe();
    }
    return text;
}

}  // namespace

void ArrayEventOperator::onActivate() {
    speedOfSound_ = params().getReal("speed_of_sound");
    const std::string& spec = params().getString("geometry");
    if (!spec.empty() || geometryRequired()) {
        try {
            geometry_ = loadGeometry(spec);
        } catch (const std::invalid_argument& e) {
            throw OperatorError(e.what());
        }
        if (geometry_->micCount() != inputCount()) {
            throw OperatorError("geometry " + geometry_->origin + " has " + std::to_string(geometry_->micCount()) +
                                " mics but the node has " + std::to_string(inputCount()) + " inputs");
        }
    }
    pending_.assign(static_cast<std::size_t>(inputCount()), {});
    for (auto& queue : pending_) queue.reserve(kPendingEventsReserved);
    channelBuffers_.assign(static_cast<std::size_t>(inputCount()), {});
    channelViews_.assign(static_cast<std::size_t>(inputCount()), {});
    onArrayActivate();
}

void ArrayEventOperator::process(int inputPort, Item&& item) {
    pending_[static_cast<std::size_t>(inputPort)].push_back(std::move(item));
    analyzeReadyEvents();
}

TimeNs ArrayEventOperator::onProgress(TimeNs inputProgress) {
    TimeNs promise = inputProgress;
    for (const auto& queue : pending_) {
        if (!queue.empty()) promise = std::min(promise, queue.front().range().startTime());
    }
    return promise;
}

void ArrayEventOperator::onFinish() {
    std::size_t incomplete = 0;
    for (const auto& queue : pending_) incomplete = std::max(incomplete, queue.size());
    if (incomplete > 0) {
        warn(std::to_string(incomplete) + " event(s) did not arrive on every input and were not analysed");
    }
    for (auto& queue : pending_) queue.clear();
}

void ArrayEventOperator::analyzeReadyEvents() {
    auto allReady = [&] {
        return std::all_of(pending_.begin(), pending_.end(), [](const auto& queue) { return !queue.empty(); });
    };
    while (allReady()) {
        const FrontMatch match = matchFronts();
        if (match.range) {
            const SampleRange& range = *match.range;
            for (std::size_t mic = 0; mic < pending_.size(); ++mic) {
                std::vector<float>& buffer = channelBuffers_[mic];
                buffer.resize(static_cast<std::size_t>(range.length));
                float* next = buffer.data();
                pending_[mic].front().signal<float>().subseg(range.start, range.length).forEachSpan(
                    [&](std::span<const float> run) { next = std::copy(run.begin(), run.end(), next); });
                channelViews_[mic] = buffer;
            }
            analyzeEvent(range, channelViews_);
        }
        // Without overlap, drop only the fronts that end before the latest front starts: nothing
        // later on the other inputs can match them, and at least one such front exists.
        std::int64_t latestStart = pending_.front().front().range().start;
        for (const auto& queue : pending_) latestStart = std::max(latestStart, queue.front().range().start);
        for (auto& queue : pending_) {
            if (match.dropAll || queue.front().range().end() <= latestStart) queue.erase(queue.begin());
        }
    }
}

ArrayEventOperator::FrontMatch ArrayEventOperator::matchFronts() {
    const SampleRange first = pending_.front().front().range();
    SampleRange common = first;
    bool identical = true;
    bool sameTimebase = true;
    for (const auto& queue : pending_) {
        const SampleRange range = queue.front().range();
        if (range == first) continue;
        identical = false;
        sameTimebase = sameTimebase && range.timebase == first.timebase;
        const std::int64_t start = std::max(common.start, range.start);
        const std::int64_t end = std::min(common.end(), range.end());
        common.start = start;
        common.length = std::max<std::int64_t>(0, end - start);
    }
    if (identical) return {first, true};
    std::string ranges;
    for (std::size_t mic = 0; mic < pending_.size(); ++mic) {
        ranges += mic ? ", in" : "in";
        ranges += std::to_string(mic);
        ranges += " ";
        ranges += describeRange(pending_[mic].front().range());
    }
    if (!sameTimebase) {
        warn("inputs of one event are on different timebases, event dropped: " + ranges);
        return {std::nullopt, true};
    }
    if (common.length == 0) {
        warn("inputs' next events do not overlap, the earliest dropped: " + ranges);
        return {std::nullopt, false};
    }
    warn("inputs of one event cover different ranges, analysing their common part: " + ranges);
    return {common, true};
}

std::vector<ParamSpec> arrayParameters(int maxChannels, const std::string& geometryDoc) {
    return {
        ParamSpec{"channels", ParamKind::Int, std::int64_t{0}, 0.0, static_cast<double>(maxChannels), "",
                  "number of mic inputs in0.. (0 = the size of the bus feeding them)"},
        ParamSpec{"geometry", ParamKind::Path, std::string(), {}, {}, "", geometryDoc},
        ParamSpec{"speed_of_sound", ParamKind::Real, kSpeedOfSoundMetresPerSecond, 100.0, 2000.0, "m/s",
                  "propagation speed used for steering delays (343 m/s: air at about 20 °C)"},
    };
}

PortSpec arrayInputs() {
    return PortSpec{"in", PortType::signal(SampleType::Float32),
                    "mic m's samples of each event (one item per event, same range on every input)", false, "channels"};
}

}  // namespace isochron
