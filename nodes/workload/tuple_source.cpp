#include "nodes/workload/tuple_source.h"

#include <cmath>
#include <string>

#include "engine/operators/operator.h"
#include "engine/runtime/engine.h"
#include "nodes/io/block_pacer.h"

namespace isochron {
namespace {

/// All streams are one paced sequence of positions cut into blocks (BlockPacer): staggered, block j
/// is one burst for stream j mod streams; aligned, block j holds one burst for every stream.
/// Each item is a scalar whose value is its index within its stream and whose range is its
/// position on the whole sequence's timebase (so one progress promise holds for every stream).
class TupleSource final : public Operator {
protected:
    void onActivate() override {
        streams_ = params().getInt("streams");
        burst_ = params().getInt("burst");
        aligned_ = params().getBool("aligned");
        const double totalRate = params().getReal("rate") * static_cast<double>(streams_);
        timebase_ = &Timebase::get(totalRate, static_cast<TimeNs>(std::llround(params().getReal("start") * 1e9)), Clock::media());
        BlockPacerSettings settings = pacingSettingsFrom(params());
        settings.rateHz = totalRate;
        settings.blockLength = aligned_ ? burst_ * streams_ : burst_;
        const std::int64_t count = params().getInt("count");
        const std::int64_t burstsPerStream = (count + burst_ - 1) / burst_;
        settings.totalLength = count == 0 ? BlockPacerSettings::kForever : burstsPerStream * burst_ * streams_;
        pacer_.configure(settings);
    }

    bool followsWallClock() const override { return pacer_.paced(); }

    SourceStatus onProduce() override {
        const std::int64_t dropped = pacer_.beginRound(productionBudget(), pacer_.paced() ? wallClockNs() : 0);
        if (dropped > 0) warn("fell more than max_lag behind the pace: dropped " + std::to_string(dropped) + " items");
        while (!pacer_.roundOver() && admissionOpen()) {
            auto block = pacer_.nextBlock();
            if (!block) break;
            // Locals, not members, in the loop: emit() is opaque to the compiler, so members would
            // be reloaded (and the divisions redone) for every item.
            const std::int64_t burst = burst_;
            const std::int64_t streams = streams_;
            const Timebase* timebase = timebase_;
            const TimeNs arrival = block->arrivalNs;
            const std::int64_t start = block->start;
            const std::int64_t end = block->end();
            if (aligned_) {
                const std::int64_t blockIndex = start / (burst * streams);
                for (std::int64_t position = start; position < end; ++position) {
                    const std::int64_t offset = position - start;
                    emitScalar(static_cast<int>(offset / burst), blockIndex * burst + offset % burst, timebase, position, arrival);
                }
            } else {
                const std::int64_t blockIndex = start / burst;
                const int stream = static_cast<int>(blockIndex % streams);
                const std::int64_t firstIndex = blockIndex / streams * burst;
                for (std::int64_t position = start; position < end; ++position) {
                    emitScalar(stream, firstIndex + (position - start), timebase, position, arrival);
                }
            }
            if (block->progressDue) emitProgress(timebase->timeOf(end));
        }
        return pacer_.endRound();
    }

    void onParameterChanged(std::string_view name) override {
        if (name == "pace") pacer_.changePace(params().getReal("pace"));
    }

private:
    /// One item: value `index` (its index within its stream) at `position` on the whole sequence.
    void emitScalar(int stream, std::int64_t index, const Timebase* timebase, std::int64_t position, TimeNs arrival) {
        Item item = Item::scalar(static_cast<double>(index), SampleRange{timebase, position, 1});
        item.setArrivalNs(arrival);
        emit(stream, std::move(item));
    }

    std::int64_t streams_ = 1;
    std::int64_t burst_ = 1;
    bool aligned_ = false;
    const Timebase* timebase_ = nullptr;
    BlockPacer pacer_;
};

}  // namespace

OperatorDescriptor tupleSourceDescriptor() {
    OperatorDescriptor d;
    d.typeName = "workload.tuple_source";
    d.category = "workload";
    d.summary = "Input streams of scalar items at a set rate, evenly spaced or in bursts";
    d.documentation =
        "Each of `streams` outputs receives `rate` items per second, in bursts of `burst` items that arrive "
        "together every burst/rate seconds (burst 1: evenly spaced). Staggered (the default), the streams' "
        "bursts are spread evenly over that period; aligned, they all arrive at once. Items are scalars "
        "whose value is their index within their stream, stamped with the time they are due (so latency "
        "counts any delay in admitting them). pace 1 is real time; pace 0 emits as fast as possible.";
    d.outputs = {PortSpec{"out", PortType::scalar(), "one stream of items per output", false, "streams"}};
    d.params = {
        ParamSpec{"streams", ParamKind::Int, std::int64_t{1}, 1.0, 4096.0, "", "number of output streams"},
        ParamSpec{"rate", ParamKind::Real, 1000.0, 1e-3, 1e9, "items/s", "items per second on each stream (at pace 1)"},
        ParamSpec{"burst", ParamKind::Int, std::int64_t{1}, 1.0, 1e6, "items", "items a stream receives at once"},
        ParamSpec{"aligned", ParamKind::Bool, false, {}, {}, "", "all streams' bursts arrive at the same instants"},
        ParamSpec{"count", ParamKind::Int, std::int64_t{0}, 0.0, {}, "items",
                  "items per stream, rounded up to whole bursts (0 = forever)"},
        ParamSpec{"start", ParamKind::Real, 0.0, -1e9, 1e9, "s",
                  "time stamped on the first item (a negative start makes the stream lag others: skew)"},
    };
    for (ParamSpec& spec : pacingParamSpecs()) {
        if (spec.name == "pace") spec.defaultValue = 1.0;
        if (spec.name == "progress_interval") spec.unit = "items";
        d.params.push_back(std::move(spec));
    }
    d.deriveParams = refuseUnusablePace;
    d.create = [] { return std::make_unique<TupleSource>(); };
    d.endlessBecause = [](const ParamSet& params) { return params.getInt("count") == 0 ? std::string("count is 0") : std::string(); };
    return d;
}

}  // namespace isochron
