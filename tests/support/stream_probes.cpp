#include "tests/support/stream_probes.h"

#include <algorithm>
#include <random>

#include "engine/memory/memory_pool.h"
#include "engine/operators/operator.h"
#include "tests/support/test_operators.h"

namespace isochron::test {
namespace {

class Probe final : public Operator {
protected:
    void onActivate() override {
        probed_ = &probes()[params().getString("name")];
        *probed_ = Probed{};
        keep_ = params().getBool("keep");
    }
    void process(int, Item&& item) override {
        notePeak();
        ++probed_->itemCount;
        if (!probed_->progress.empty() && item.range().startTime() < probed_->progress.back()) ++probed_->brokenPromises;
        if (keep_) probed_->items.push_back(std::move(item));
    }
    TimeNs onProgress(TimeNs t) override {
        notePeak();
        probed_->progress.push_back(t);
        return t;
    }
    void onFinish() override { probed_->finished = true; }

private:
    void notePeak() { probed_->peakLiveBytes = std::max(probed_->peakLiveBytes, MemoryPool::instance().stats().liveBytes); }

    Probed* probed_ = nullptr;
    bool keep_ = true;
};

class Blocks final : public Operator {
protected:
    void onActivate() override {
        timebase_ = &Timebase::get(params().getReal("rate"));
        blocks_ = params().getInt("blocks");
        block_ = params().getInt("block");
        period_ = params().getInt("period");
        loud_ = params().getInt("loud");
        quiet_ = params().getReal("quiet");
    }
    SourceStatus onProduce() override {
        if (next_ >= blocks_) return SourceStatus::finished();
        std::vector<float> samples = blockSamples(next_, block_, period_, loud_, quiet_);
        SigSeg<float> segment = SigSeg<float>::copyOf(samples, next_ * block_, timebase_);
        const TimeNs end = segment.endTime();
        emit(0, Item::signal(std::move(segment)));
        emitProgress(end);
        ++next_;
        return next_ >= blocks_ ? SourceStatus::finished() : SourceStatus::produced();
    }

private:
    const Timebase* timebase_ = nullptr;
    std::int64_t blocks_ = 0, block_ = 0, period_ = 1, loud_ = 0, next_ = 0;
    double quiet_ = 0;
};

}  // namespace

std::map<std::string, Probed>& probes() {
    static std::map<std::string, Probed> probed;
    return probed;
}

std::vector<float> blockSamples(std::int64_t index, std::int64_t block, std::int64_t period, std::int64_t loud, double quiet) {
    std::mt19937 random(static_cast<std::uint32_t>(index) * 2654435761u + 1u);
    std::normal_distribution<double> gaussian(0.0, index % period < loud ? 1.0 : quiet);
    std::vector<float> samples(static_cast<std::size_t>(block));
    for (auto& s : samples) s = static_cast<float>(gaussian(random));
    return samples;
}

void registerStreamProbes() {
    static const bool registered = [] {
        OperatorDescriptor probe;
        probe.typeName = "test.probe";
        probe.category = "test";
        probe.summary = "Checks progress promises and memory on one input (tests only)";
        probe.inputs = {PortSpec{"in", PortType::any(), "anything"}};
        probe.params = {ParamSpec{"name", ParamKind::String, std::string("probe"), {}, {}, "", "probe name"},
                        ParamSpec{"keep", ParamKind::Bool, true, {}, {}, "", "keep the data items"}};
        probe.create = [] { return std::make_unique<Probe>(); };
        testRegistry().add(std::move(probe));

        OperatorDescriptor blocks;
        blocks.typeName = "test.blocks";
        blocks.category = "test";
        blocks.summary = "Synthesizes noise blocks with loud stretches, lazily (tests only)";
        blocks.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "the blocks"}};
        blocks.params = {ParamSpec{"rate", ParamKind::Real, 48000.0, 1.0, {}, "Hz", "sample rate"},
                         ParamSpec{"blocks", ParamKind::Int, std::int64_t{100}, 0.0, {}, "", "number of blocks"},
                         ParamSpec{"block", ParamKind::Int, std::int64_t{1024}, 1.0, {}, "samples", "block length"},
                         ParamSpec{"period", ParamKind::Int, std::int64_t{10}, 1.0, {}, "blocks", "loud pattern period"},
                         ParamSpec{"loud", ParamKind::Int, std::int64_t{1}, 0.0, {}, "blocks", "loud blocks per period"},
                         ParamSpec{"quiet", ParamKind::Real, 1e-4, 0.0, {}, "", "stddev of the quiet blocks"}};
        blocks.create = [] { return std::make_unique<Blocks>(); };
        testRegistry().add(std::move(blocks));
        return true;
    }();
    (void)registered;
}

}  // namespace isochron::test
