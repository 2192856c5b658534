// Proof that a running graph does not call the system allocator in its steady state: the number of
// malloc calls during a run does not grow with the number of items processed.
#include <catch2/catch.hpp>

#include "engine/graph/graph_file.h"
#include "engine/operators/operator.h"
#include "engine/runtime/engine.h"
#include "nodes/register_builtin_nodes.h"
#include "tests/allocation/counting_allocator.h"

using namespace isochron;

namespace {

// Emits `blocks` fresh pooled segments of 256 samples, one per call.
class PooledSource final : public Operator {
protected:
    void onActivate() override { remaining_ = params().getInt("blocks"); }
    SourceStatus onProduce() override {
        if (remaining_-- <= 0) return SourceStatus::finished();
        auto seg = SigSeg<float>::allocate(256, index_, &Timebase::get(48000));
        auto samples = seg.writable();
        for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<float>(i);
        index_ += 256;
        emit(0, Item::signal(std::move(seg)));
        if (index_ % 4096 == 0) emitProgress(Timebase::get(48000).timeOf(index_));
        return SourceStatus::produced();
    }

private:
    std::int64_t remaining_ = 0;
    std::int64_t index_ = 0;
};

class Discard final : public Operator {
protected:
    void process(int, Item&&) override {}
};

OperatorRegistry& registry() {
    static OperatorRegistry r = [] {
        OperatorRegistry reg;
        registerBuiltinNodes(reg);
        OperatorDescriptor source;
        source.typeName = "test.pooled_source";
        source.category = "test";
        source.summary = "pooled segments";
        source.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "segments"}};
        source.params = {ParamSpec{"blocks", ParamKind::Int, std::int64_t{10}, 0.0, 1e9, "blocks", "how many"}};
        source.create = [] { return std::make_unique<PooledSource>(); };
        reg.add(std::move(source));
        OperatorDescriptor discard;
        discard.typeName = "test.discard";
        discard.category = "test";
        discard.summary = "drops items";
        discard.inputs = {PortSpec{"in", PortType::any(), "anything"}};
        discard.create = [] { return std::make_unique<Discard>(); };
        reg.add(std::move(discard));
        return reg;
    }();
    return r;
}

std::string chainGraph(int blocks) {
    std::string json = R"({"format": "isochron-graph/1", "nodes": [
        {"id": "src", "type": "test.pooled_source", "params": {"blocks": )" + std::to_string(blocks) + R"(}},
        {"id": "p1", "type": "segments.pass_through"}, {"id": "p2", "type": "segments.pass_through"},
        {"id": "p3", "type": "segments.pass_through"}, {"id": "sink", "type": "test.discard"},
        {"id": "tap", "type": "test.discard"}],
      "edges": [{"from": "src.out", "to": "p1.in"}, {"from": "p1.out", "to": "p2.in"}, {"from": "p2.out", "to": "p3.in"},
                {"from": "p3.out", "to": "sink.in"}, {"from": "p1.out", "to": "tap.in"}]})";
    return json;
}

// The filters family in a chain (the FIR by FFT and in direct form, a ten-section cascade, every
// other filter; 256-sample items, so the cascade runs sample by sample, not in lane chunks). Not the
// resamplers yet: the same chain ending in resample.to_rate makes 2 more mallocs in a 20x longer run
// (177 against 179, every time, even after a long warm-up run), not traced down; libsoxr alone, fed
// the same way, stays at 6.
std::string filterChainGraph(int blocks) {
    return R"({"format": "isochron-graph/1", "nodes": [
        {"id": "src", "type": "test.pooled_source", "params": {"blocks": )" + std::to_string(blocks) + R"(}},
        {"id": "fir", "type": "filters.fir", "params": {"taps": 513, "method": "fft"}},
        {"id": "direct", "type": "filters.fir", "params": {"taps": 31, "method": "direct"}},
        {"id": "iir", "type": "filters.chebyshev1", "params": {"order": 10}},
        {"id": "eq", "type": "filters.peaking_eq"}, {"id": "dc", "type": "filters.dc_blocker"},
        {"id": "mean", "type": "filters.moving_average"}, {"id": "median", "type": "filters.median"},
        {"id": "sink", "type": "test.discard"}],
      "edges": [{"from": "src.out", "to": "fir.in"}, {"from": "fir.out", "to": "direct.in"}, {"from": "direct.out", "to": "iir.in"},
                {"from": "iir.out", "to": "eq.in"}, {"from": "eq.out", "to": "dc.in"}, {"from": "dc.out", "to": "mean.in"},
                {"from": "mean.out", "to": "median.in"}, {"from": "median.out", "to": "sink.in"}]})";
}

// malloc calls made by Engine::run() alone (construction and activation excluded).
std::uint64_t allocationsDuringRun(int blocks, const std::string& scheduler, std::string (*graph)(int) = chainGraph) {
    Engine engine(validateGraph(parseGraph(graph(blocks)), registry()), parseSchedulerText(scheduler));
    test::resetAllocationCount();
    RunOutcome outcome = engine.run();
    std::uint64_t count = test::allocationCount();
    REQUIRE(outcome.completed);
    return count;
}

}  // namespace

TEST_CASE("a running graph allocates nothing from the system in its steady state", "[allocation]") {
    for (std::string scheduler : {"df", "fifo", "fifo-slice", "rtc", "df:burst=4", "fifo:burst=4"}) {
        INFO("scheduler " << scheduler);
        allocationsDuringRun(2000, scheduler);  // warm the pool and this thread's caches
        std::uint64_t shortRun = allocationsDuringRun(2000, scheduler);
        std::uint64_t longRun = allocationsDuringRun(40000, scheduler);
        INFO("short run: " << shortRun << " mallocs, long run (20x the items): " << longRun);
        // Warm-up only (queue growth, first pool blocks): the same for 20x more items.
        CHECK(longRun == shortRun);
        CHECK(shortRun < 64);
    }
}

TEST_CASE("filters allocate nothing from the system in their steady state", "[allocation][filters]") {
    allocationsDuringRun(500, "df", filterChainGraph);
    const std::uint64_t shortRun = allocationsDuringRun(500, "df", filterChainGraph);
    const std::uint64_t longRun = allocationsDuringRun(10000, "df", filterChainGraph);
    INFO("short run: " << shortRun << " mallocs, long run (20x the items): " << longRun);
    CHECK(longRun == shortRun);
}

TEST_CASE("the counting allocator sees allocations (so the test above can fail)", "[allocation]") {
    test::resetAllocationCount();
    auto* text = new std::string(1000, 'x');
    asm volatile("" : : "r"(text) : "memory");
    CHECK(test::allocationCount() >= 1);
    delete text;
    std::uint64_t perItemAllocations = 0;
    {
        // A deliberately allocating graph: the same chain with a sink that keeps every item.
        test::resetAllocationCount();
        std::vector<Item> kept;
        for (int i = 0; i < 1000; ++i) kept.push_back(Item::progress(i));
        perItemAllocations = test::allocationCount();
    }
    CHECK(perItemAllocations >= 5);
}
