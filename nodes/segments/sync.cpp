#include "nodes/segments/sync.h"

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "engine/operators/operator.h"
#include "engine/runtime/ring_buffer.h"
#include "nodes/segments/sample_type_dispatch.h"
#include "nodes/segments/signal_buffer.h"

namespace isochron {
namespace {

constexpr int kControlPort = 0;
constexpr int kFirstDataPort = 1;

/// Cuts the span of each control range out of every data input, once all of it is there.
///
/// Decisions depend only on what each input delivered and on progress (the minimum over inputs),
/// never on the order inputs happened to arrive in: a range is emitted when every data input holds
/// samples through its end, or when progress passed its end (then the content can no longer grow).
class Sync final : public Operator {
protected:
    void onActivate() override {
        const int dataInputs = inputCount() - kFirstDataPort;
        if (dataInputs == 0) throw OperatorError("no data inputs: set 'inputs' or connect a bus to data*");
        buffers_.clear();
        buffers_.reserve(static_cast<std::size_t>(dataInputs));
        for (int i = 0; i < dataInputs; ++i) buffers_.push_back(makeForPort<SignalBuffer>(inputPort(kFirstDataPort + i)));
        warnedEmpty_.assign(static_cast<std::size_t>(dataInputs), false);
    }

    void process(int port, Item&& item) override {
        if (port == kControlPort) {
            acceptRange(item.range());
        } else {
            std::visit(
                [&](auto& buffer) {
                    using Sample = typename std::decay_t<decltype(buffer)>::Sample;
                    buffer.push(item.takeSignal<Sample>());
                },
                buffers_[static_cast<std::size_t>(port - kFirstDataPort)]);
        }
        emitReadyRanges();
        discardUnneeded();
        emitProgress(promisedProgress());
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        progress_ = inputProgress;
        emitReadyRanges();
        discardUnneeded();
        return promisedProgress();
    }

    void onFinish() override {
        progress_ = kEndOfTime;
        emitReadyRanges();
        discardUnneeded();
    }

private:
    void acceptRange(const SampleRange& range) {
        if (range.timebase == nullptr || range.length < 0) {
            throw OperatorError("control input: a time range needs a timebase and a length >= 0");
        }
        if (!ranges_.empty() && range.startTime() < lastRangeStart_) {
            throw OperatorError("control input: ranges must arrive in order of their start time");
        }
        lastRangeStart_ = range.startTime();
        ranges_.push(range);
    }

    bool ready(const SampleRange& range) const {
        const TimeNs end = range.endTime();
        if (progress_ >= end) return true;
        return std::all_of(buffers_.begin(), buffers_.end(), [&](const auto& buffer) {
            return std::visit([&](const auto& b) { return b.receivedThrough(end); }, buffer);
        });
    }

    void emitReadyRanges() {
        while (!ranges_.empty() && ready(ranges_.front())) {
            const SampleRange range = ranges_.pop();
            for (std::size_t i = 0; i < buffers_.size(); ++i) emitRange(static_cast<int>(i), range);
        }
    }

    void emitRange(int output, const SampleRange& range) {
        const int runs = std::visit(
            [&](const auto& buffer) {
                return buffer.forEachRunIn(range.startTime(), range.endTime(),
                                           [&](auto&& run) { emit(output, Item::signal(std::move(run))); });
            },
            buffers_[static_cast<std::size_t>(output)]);
        if (runs == 0 && !warnedEmpty_[static_cast<std::size_t>(output)]) {
            warnedEmpty_[static_cast<std::size_t>(output)] = true;
            warn("data" + std::to_string(output) + " has no samples for the range at sample " +
                 std::to_string(range.start) + " (+" + std::to_string(range.length) +
                 "); such ranges are skipped on out" + std::to_string(output) + " (reported once)");
        }
    }

    // Ranges still to come start at or after the control input's progress (>= progress_), and the
    // pending ones at or after the oldest pending start: samples before both are never needed again.
    TimeNs neededFrom() const { return ranges_.empty() ? progress_ : std::min(progress_, ranges_.front().startTime()); }

    void discardUnneeded() {
        const TimeNs from = neededFrom();
        for (auto& buffer : buffers_) std::visit([&](auto& b) { b.discardBefore(from); }, buffer);
    }

    // Every future output segment starts at a range start: a pending one or one still to come.
    TimeNs promisedProgress() const { return neededFrom(); }

    std::vector<PerSampleType<SignalBuffer>> buffers_;  // one per data input
    std::vector<bool> warnedEmpty_;                     // per output: an empty range was reported
    RingBuffer<SampleRange> ranges_;                    // received, not yet emitted, in start order
    TimeNs lastRangeStart_ = kBeginningOfTime;
    TimeNs progress_ = kBeginningOfTime;  // minimum progress over all inputs
};

}  // namespace

OperatorDescriptor syncDescriptor() {
    OperatorDescriptor d;
    d.typeName = "segments.sync";
    d.category = "segments";
    d.summary = "Cuts the span of each control time range out of one or more signals";
    d.documentation =
        "For every range on `control`, emits on out<i> the samples of data<i> whose times fall in the range's "
        "time span [start time, end time), converted to data<i>'s own sample indices. Data is buffered "
        "without copying and released once no pending or future range can need it (future ranges start "
        "at or after the control input's progress). A range is emitted once every data input has delivered "
        "samples through its end, or once progress passed its end (then with whatever part exists; a range "
        "with no samples on an input emits nothing there and is reported once). Lost samples inside a range "
        "give one segment per contiguous run.";
    d.inputs = {
        PortSpec{"control", PortType::timeRange(), "ranges to cut out, in order of their start time"},
        PortSpec{"data", PortType::anySignal(), "signals to cut from (any sample type, any rate)", false, "inputs"},
    };
    d.outputs = {PortSpec{"out", PortType::anySignal(), "the part of data<i> covering each range", false, "inputs", "data"}};
    d.params = {
        ParamSpec{"inputs", ParamKind::Int, std::int64_t{1}, 0.0, 64.0, "",
                  "number of data inputs (and outputs); 0 = as many as the bus feeding data*"},
    };
    d.create = [] { return std::make_unique<Sync>(); };
    return d;
}

}  // namespace isochron
