// Proof that the detection and localization operators allocate nothing from the system per item or
// per event in their steady state (the buffers of an event no longer than earlier ones are reused),
// and the frame-wise pipeline nothing per frame, track or source.
#include <catch2/catch.hpp>

#include <cmath>

#include "engine/graph/graph_file.h"
#include "engine/operators/operator.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/run_summary.h"
#include "nodes/register_builtin_nodes.h"
#include "tests/allocation/counting_allocator.h"

using namespace isochron;

namespace {

constexpr std::int64_t kEventLength = 4096;
constexpr std::int64_t kEventSpacing = 8192;

// Emits `events` events on outputs 0..3: pooled copies of one noise burst, channel m delayed by m samples.
class ArrayEventSource final : public Operator {
protected:
    void onActivate() override {
        remaining_ = params().getInt("events");
        std::uint32_t state = 12345;
        burst_.resize(static_cast<std::size_t>(kEventLength + 8));
        for (float& sample : burst_) {
            state = state * 1664525u + 1013904223u;
            sample = static_cast<float>(state >> 8) / 16777216.0f - 0.5f;
        }
    }
    SourceStatus onProduce() override {
        if (remaining_-- <= 0) return SourceStatus::finished();
        const Timebase& timebase = Timebase::get(48000);
        for (int channel = 0; channel < 4; ++channel) {
            auto segment = SigSeg<float>::allocate(kEventLength, start_, &timebase);
            std::copy_n(burst_.begin() + 4 - channel, kEventLength, segment.writable().begin());
            emit(channel, Item::signal(std::move(segment)));
        }
        start_ += kEventSpacing;
        emitProgress(timebase.timeOf(start_));
        return SourceStatus::produced();
    }

private:
    std::int64_t remaining_ = 0;
    std::int64_t start_ = 0;
    std::vector<float> burst_;
};

// Emits `windows` scores of 32-sample windows: 10 plus a sawtooth, with a burst of +100 every 500 windows.
class ScoreSource final : public Operator {
protected:
    void onActivate() override { remaining_ = params().getInt("windows"); }
    SourceStatus onProduce() override {
        for (int i = 0; i < 64 && remaining_ > 0; ++i, --remaining_, ++window_) {
            const double score = 10.0 + static_cast<double>(window_ % 7) + (window_ % 500 < 3 ? 100.0 : 0.0);
            emit(0, Item::scalar(score, SampleRange{&Timebase::get(48000), window_ * 32, 32}));
        }
        return remaining_ > 0 ? SourceStatus::produced() : SourceStatus::finished();
    }

private:
    std::int64_t remaining_ = 0;
    std::int64_t window_ = 0;
};

// Emits `blocks` blocks of 4800 samples on outputs 0..3: seeded noise, and every eighth block a burst
// whose samples at mic m are m samples ahead (a plane wave on a 5 cm linear array), so that tracks
// start and end.
class ArrayRecordingSource final : public Operator {
protected:
    void onActivate() override {
        remaining_ = params().getInt("blocks");
        noise_.resize(static_cast<std::size_t>(kBlock + 8));
        burst_.resize(static_cast<std::size_t>(kBlock + 8));
        std::uint32_t state = 777;
        auto next = [&] {
            state = state * 1664525u + 1013904223u;
            return static_cast<float>(state >> 8) / 16777216.0f - 0.5f;
        };
        for (float& sample : noise_) sample = 0.01f * next();
        for (std::size_t i = 0; i < burst_.size(); ++i) burst_[i] = i > 1000 && i < 3000 ? next() : 0.0f;
    }
    SourceStatus onProduce() override {
        if (remaining_-- <= 0) return SourceStatus::finished();
        const Timebase& timebase = Timebase::get(48000);
        for (int channel = 0; channel < 4; ++channel) {
            auto segment = SigSeg<float>::allocate(kBlock, start_, &timebase);
            std::span<float> samples = segment.writable();
            const bool sounding = (start_ / kBlock) % 8 == 3;
            for (std::int64_t i = 0; i < kBlock; ++i) {
                const auto at = static_cast<std::size_t>(i + 4 - channel);
                samples[static_cast<std::size_t>(i)] = noise_[static_cast<std::size_t>((i * (channel + 3)) % kBlock)] + (sounding ? burst_[at] : 0.0f);
            }
            emit(channel, Item::signal(std::move(segment)));
        }
        start_ += kBlock;
        emitProgress(timebase.timeOf(start_));
        return SourceStatus::produced();
    }

private:
    static constexpr std::int64_t kBlock = 4800;
    std::int64_t remaining_ = 0;
    std::int64_t start_ = 0;
    std::vector<float> noise_;
    std::vector<float> burst_;
};

class Discard final : public Operator {
protected:
    void process(int, Item&&) override {}
};

OperatorRegistry& registry() {
    static OperatorRegistry r = [] {
        OperatorRegistry reg;
        registerBuiltinNodes(reg);
        OperatorDescriptor events;
        events.typeName = "test.array_events";
        events.category = "test";
        events.summary = "4-channel events";
        events.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "channel", false, "channels"}};
        events.params = {ParamSpec{"events", ParamKind::Int, std::int64_t{10}, 0.0, 1e9, "", "how many"},
                         ParamSpec{"channels", ParamKind::Int, std::int64_t{4}, 4.0, 4.0, "", "always 4"}};
        events.create = [] { return std::make_unique<ArrayEventSource>(); };
        reg.add(std::move(events));
        OperatorDescriptor recording;
        recording.typeName = "test.array_recording";
        recording.category = "test";
        recording.summary = "4-channel recording";
        recording.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "channel", false, "channels"}};
        recording.params = {ParamSpec{"blocks", ParamKind::Int, std::int64_t{10}, 0.0, 1e9, "", "how many"},
                            ParamSpec{"channels", ParamKind::Int, std::int64_t{4}, 4.0, 4.0, "", "always 4"}};
        recording.create = [] { return std::make_unique<ArrayRecordingSource>(); };
        reg.add(std::move(recording));
        OperatorDescriptor scores;
        scores.typeName = "test.scores";
        scores.category = "test";
        scores.summary = "window scores";
        scores.outputs = {PortSpec{"out", PortType::scalar(), "scores"}};
        scores.params = {ParamSpec{"windows", ParamKind::Int, std::int64_t{10}, 0.0, 1e9, "", "how many"}};
        scores.create = [] { return std::make_unique<ScoreSource>(); };
        reg.add(std::move(scores));
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

std::string localizationGraph(int events) {
    return R"({"format": "isochron-graph/1", "nodes": [
        {"id": "src", "type": "test.array_events", "params": {"events": )" + std::to_string(events) + R"(}},
        {"id": "gcc", "type": "spatial.gcc_phat", "params": {"geometry": "square4:0.2"}},
        {"id": "srp", "type": "spatial.srp_phat", "params": {"geometry": "square4:0.2", "elevation_max_deg": 30}},
        {"id": "aml", "type": "spatial.aml_doa", "params": {"geometry": "square4:0.2"}},
        {"id": "music", "type": "spatial.music", "params": {"geometry": "square4:0.2", "sources": 2}},
        {"id": "track", "type": "spatial.bearing_tracker"},
        {"id": "d1", "type": "test.discard"}, {"id": "d2", "type": "test.discard"}, {"id": "d3", "type": "test.discard"},
        {"id": "d4", "type": "test.discard"}],
      "edges": [{"from": "src.out*", "to": "gcc.in*"}, {"from": "src.out*", "to": "srp.in*"}, {"from": "src.out*", "to": "aml.in*"},
                {"from": "src.out*", "to": "music.in*"},
                {"from": "gcc.tdoas", "to": "d1.in"}, {"from": "srp.bearings", "to": "track.bearings"},
                {"from": "track.tracks", "to": "d2.in"}, {"from": "aml.bearings", "to": "d3.in"}, {"from": "music.bearings", "to": "d4.in"}]})";
}

std::string framePipelineGraph(int blocks, const std::string& method) {
    return R"({"format": "isochron-graph/1", "nodes": [
        {"id": "src", "type": "test.array_recording", "params": {"blocks": )" + std::to_string(blocks) + R"(}},
        {"id": "stft", "type": "spatial.array_stft"},
        {"id": "activity", "type": "detect.spectral_activity"},
        {"id": "array", "type": "spatial.frame_directions", "params": {"geometry": "linear4:0.05", "method": ")" + method + R"("}},
        {"id": "tracker", "type": "spatial.source_tracker"},
        {"id": "d1", "type": "test.discard"}, {"id": "d2", "type": "test.discard"}, {"id": "d3", "type": "test.discard"}],
      "edges": [{"from": "src.out*", "to": "stft.in*"}, {"from": "stft.spectra", "to": "activity.spectra"},
                {"from": "activity.activity", "to": "array.activity"}, {"from": "array.directions", "to": "tracker.directions"},
                {"from": "tracker.events", "to": "d1.in"}, {"from": "tracker.background", "to": "d2.in"},
                {"from": "tracker.tracks", "to": "d3.in"}]})";
}

std::string detectionGraph(int windows) {
    return R"({"format": "isochron-graph/1", "nodes": [
        {"id": "src", "type": "test.scores", "params": {"windows": )" + std::to_string(windows) + R"(}},
        {"id": "cfar", "type": "detect.cfar_detector", "params": {"q": 3, "warmup_windows": 50, "pre_roll": 0.001}},
        {"id": "sink", "type": "test.discard"}],
      "edges": [{"from": "src.out", "to": "cfar.score"}, {"from": "cfar.events", "to": "sink.in"}]})";
}

// malloc calls made by Engine::run() alone (construction and activation excluded); `itemsInto`, if
// given, receives how many items node "d1" (the first discard) took.
std::uint64_t allocationsDuringRun(const std::string& graph, std::uint64_t* itemsIntoFirstDiscard = nullptr) {
    Engine engine(validateGraph(parseGraph(graph), registry()), parseSchedulerText("df"));
    test::resetAllocationCount();
    RunOutcome outcome = engine.run();
    std::uint64_t count = test::allocationCount();
    REQUIRE(outcome.completed);
    REQUIRE(outcome.failures.empty());
    if (itemsIntoFirstDiscard) {
        for (const NodeSummary& node : summarizeRun(engine, outcome).nodes) {
            if (node.node == "d1") *itemsIntoFirstDiscard = node.itemsIn;
        }
    }
    return count;
}

}  // namespace

TEST_CASE("localization operators allocate nothing per event in their steady state", "[allocation]") {
    allocationsDuringRun(localizationGraph(20));  // warm the pool, the plan cache and interned names
    const std::uint64_t shortRun = allocationsDuringRun(localizationGraph(20));
    const std::uint64_t longRun = allocationsDuringRun(localizationGraph(400));
    INFO("20 events: " << shortRun << " mallocs, 400 events: " << longRun);
    CHECK(longRun == shortRun);
}

TEST_CASE("the frame-wise localization pipeline allocates nothing per frame or source in its steady state", "[allocation]") {
    for (const char* method : {"srp_phat", "music", "gevd_music"}) {
        INFO(method);
        allocationsDuringRun(framePipelineGraph(40, method));
        std::uint64_t shortSources = 0, longSources = 0;
        const std::uint64_t shortRun = allocationsDuringRun(framePipelineGraph(40, method), &shortSources);
        const std::uint64_t longRun = allocationsDuringRun(framePipelineGraph(400, method), &longSources);
        INFO("40 blocks (4 s): " << shortRun << " mallocs, " << shortSources << " sources; 400 blocks (40 s): " << longRun
                                 << " mallocs, " << longSources << " sources");
        CHECK(longSources >= 50);  // a burst every 0.8 s: tracks start and end throughout
        CHECK(longRun == shortRun);
    }
}

TEST_CASE("the CFAR detector allocates nothing per window or event in its steady state", "[allocation]") {
    allocationsDuringRun(detectionGraph(5000));
    const std::uint64_t shortRun = allocationsDuringRun(detectionGraph(5000));
    const std::uint64_t longRun = allocationsDuringRun(detectionGraph(100000));
    INFO("5000 windows: " << shortRun << " mallocs, 100000 windows: " << longRun);
    CHECK(longRun == shortRun);
}
