#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "tests/support/graph_run.h"
#include "tests/support/stream_probes.h"

using namespace isochron;
using namespace isochron::test;

namespace {

// A contiguous stretch of the input stream: its first sample index and its samples.
struct Stretch {
    std::int64_t start;
    std::vector<float> samples;
};

struct ExpectedWindow {
    std::int64_t start;
    std::vector<float> samples;
};

std::vector<float> ramp(std::size_t count, float first) {
    std::vector<float> samples(count);
    for (std::size_t i = 0; i < count; ++i) samples[i] = first + 0.5f * static_cast<float>(i);
    return samples;
}

// Reference: every grid window (origin + k * hop) that lies entirely inside one stretch.
std::vector<ExpectedWindow> referenceWindows(const std::vector<Stretch>& stretches, std::int64_t window, std::int64_t hop) {
    std::vector<ExpectedWindow> windows;
    const std::int64_t origin = stretches.front().start;
    for (const Stretch& s : stretches) {
        const std::int64_t end = s.start + static_cast<std::int64_t>(s.samples.size());
        for (std::int64_t w = origin; w + window <= end; w += hop) {
            if (w < s.start) continue;
            auto first = s.samples.begin() + (w - s.start);
            windows.push_back({w, std::vector<float>(first, first + window)});
        }
    }
    return windows;
}

// The stretches cut into segments of random lengths in [1, maxPiece], one item per batch (or a
// few items per batch, to vary how much arrives per engine round).
FeedScript randomSplit(const std::vector<Stretch>& stretches, const Timebase& tb, std::mt19937& random, std::size_t maxPiece) {
    FeedScript script;
    std::uniform_int_distribution<std::size_t> pieceLength(1, maxPiece);
    std::uniform_int_distribution<int> itemsPerBatch(1, 3);
    std::vector<std::pair<int, Item>> batch;
    int wanted = itemsPerBatch(random);
    for (const Stretch& s : stretches) {
        for (std::size_t at = 0; at < s.samples.size();) {
            const std::size_t take = std::min(pieceLength(random), s.samples.size() - at);
            std::vector<float> piece(s.samples.begin() + static_cast<std::ptrdiff_t>(at),
                                     s.samples.begin() + static_cast<std::ptrdiff_t>(at + take));
            batch.push_back({0, Item::signal(makeSignal(piece, s.start + static_cast<std::int64_t>(at), tb))});
            if (static_cast<int>(batch.size()) == wanted) {
                script.batches.push_back(std::move(batch));
                batch.clear();
                wanted = itemsPerBatch(random);
            }
            at += take;
        }
    }
    if (!batch.empty()) script.batches.push_back(std::move(batch));
    return script;
}

std::string rewindowGraph(std::int64_t window, std::int64_t hop, const std::string& probeNode = "") {
    return std::string(R"({
  "format": "isochron-graph/1",
  "nodes": [
    {"id": "feed", "type": "test.feed", "params": {"name": "rewindow"}},
    {"id": "rewindow", "type": "segments.rewindow", "params": {"window": )") +
           std::to_string(window) + R"(, "hop": )" + std::to_string(hop) + R"(}},
    {"id": "sink", "type": )" + (probeNode.empty() ? R"("test.collect", "params": {"name": "rewindow"}})"
                                                      : R"("test.probe", "params": {"name": ")" + probeNode + R"("}})") +
           R"(
  ],
  "edges": [{"from": "feed.out0", "to": "rewindow.in"}, {"from": "rewindow.out", "to": "sink.in)" +
           (probeNode.empty() ? "0" : "") + R"("}]
})";
}

void checkWindows(const std::vector<Item>& got, const std::vector<ExpectedWindow>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        INFO("window " << i);
        REQUIRE(got[i].kind() == ItemKind::Signal);
        CHECK(got[i].segment().startIndex() == want[i].start);
        CHECK(samplesOf(got[i]) == want[i].samples);
    }
}

}  // namespace

TEST_CASE("rewindow emits the reference windows for any split, window/hop and scheduler", "[segments][rewindow]") {
    const Timebase& tb = Timebase::get(1000);
    const std::vector<Stretch> stream{{-37, ramp(2500, 3.0f)}};
    struct Shape {
        std::int64_t window, hop;
    };
    const std::vector<Shape> shapes{{256, 256}, {100, 37}, {64, 100}, {1, 1}, {7, 3}, {300, 1000}, {2000, 10}};
    std::mt19937 random(2024);
    for (const Shape& shape : shapes) {
        const std::vector<ExpectedWindow> want = referenceWindows(stream, shape.window, shape.hop);
        REQUIRE(!want.empty());
        for (std::size_t maxPiece : {1u, 50u, 700u}) {
            if (maxPiece == 1 && shape.window > 8) continue;  // one-sample segments: small windows only, for speed
            feedScripts()["rewindow"] = randomSplit(stream, tb, random, maxPiece);
            std::vector<Item> first;
            for (const auto& scheduler : schedulerMatrix()) {
                INFO("window " << shape.window << ", hop " << shape.hop << ", pieces <= " << maxPiece << ", " << scheduler);
                RunOutcome outcome = runGraph(rewindowGraph(shape.window, shape.hop), scheduler);
                REQUIRE(outcome.completed);
                REQUIRE(outcome.failures.empty());
                const std::vector<Item>& got = collections()["rewindow"].items[0];
                checkWindows(got, want);
                if (first.empty()) first = got;
                REQUIRE(got.size() == first.size());
                for (std::size_t i = 0; i < got.size(); ++i) CHECK(sameData(got[i], first[i]));
            }
        }
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("rewindow gives the reference windows for segments cut from one storage list", "[segments][rewindow]") {
    // A replaying source's blocks are views of one list: appends extend a view instead of building
    // lists, and the windower holds its samples through the newest segment.
    const Timebase& tb = Timebase::get(1000);
    const std::vector<Stretch> stream{{-37, ramp(2500, 3.0f)}};
    const SigSeg<float> whole = makeSignal(stream.front().samples, stream.front().start, tb);
    std::mt19937 random(77);
    for (const auto& [window, hop] : {std::pair<std::int64_t, std::int64_t>{256, 256}, {100, 37}, {64, 100}, {300, 1000}}) {
        const std::vector<ExpectedWindow> want = referenceWindows(stream, window, hop);
        FeedScript script;
        std::uniform_int_distribution<std::int64_t> pieceLength(1, 700);
        for (std::int64_t at = whole.startIndex(); at < whole.endIndex();) {
            const std::int64_t take = std::min(pieceLength(random), whole.endIndex() - at);
            script.batches.push_back({{0, Item::signal(whole.subseg(at, take))}});
            at += take;
        }
        feedScripts()["rewindow"] = script;
        for (const auto& scheduler : schedulerMatrix()) {
            INFO("window " << window << ", hop " << hop << ", " << scheduler);
            RunOutcome outcome = runGraph(rewindowGraph(window, hop), scheduler);
            REQUIRE(outcome.completed);
            checkWindows(collections()["rewindow"].items[0], want);
        }
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("rewindow passes aligned input segments on as they are", "[segments][rewindow]") {
    const Timebase& tb = Timebase::get(48000);
    FeedScript script;
    std::vector<SigSeg<float>> sent;
    for (int b = 0; b < 12; ++b) {
        sent.push_back(makeSignal(ramp(4096, float(b)), 4096 * b, tb));
        script.batches.push_back({{0, Item::signal(sent.back())}});
    }
    feedScripts()["rewindow"] = script;
    for (const auto& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        REQUIRE(runGraph(rewindowGraph(4096, 4096), scheduler).completed);
        const std::vector<Item>& got = collections()["rewindow"].items[0];
        REQUIRE(got.size() == sent.size());
        for (std::size_t i = 0; i < sent.size(); ++i) {
            CHECK(got[i].segment().list() == sent[i].list());  // the same storage, nothing re-sliced
            CHECK(got[i].segment().startIndex() == sent[i].startIndex());
            CHECK(got[i].segment().length() == 4096);
        }
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("rewindow windows share the input's storage when they span several segments", "[segments][rewindow]") {
    const Timebase& tb = Timebase::get(1000);
    FeedScript script;
    std::vector<SigSeg<float>> sent;
    for (int b = 0; b < 6; ++b) {
        sent.push_back(makeSignal(ramp(30, float(10 * b)), 30 * b, tb));
        script.batches.push_back({{0, Item::signal(sent.back())}});
    }
    feedScripts()["rewindow"] = script;
    REQUIRE(runGraph(rewindowGraph(50, 25), "df").completed);
    const std::vector<Item>& got = collections()["rewindow"].items[0];
    REQUIRE(got.size() == 6);  // starts 0, 25, ..., 125 (125 + 50 <= 180)
    for (const Item& window : got) {
        // Each piece of a window lies inside the block of one input segment.
        window.segment().forEachRun([&](const std::byte* data, std::int64_t count) {
            const bool inSomeInput = std::any_of(sent.begin(), sent.end(), [&](const SigSeg<float>& s) {
                const auto* first = reinterpret_cast<const std::byte*>(s.materialize().data());
                return data >= first && data + count * 4 <= first + 30 * 4;
            });
            CHECK(inSomeInput);
        });
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("rewindow drops windows that would span lost samples and resumes on the grid", "[segments][rewindow]") {
    const Timebase& tb = Timebase::get(1000);
    // Jumps at 1000 -> 1500 and 2210 -> 2211; the grid is 0 + k * hop throughout.
    const std::vector<Stretch> stream{{0, ramp(1000, 0.0f)}, {1500, ramp(710, 7.0f)}, {2211, ramp(900, -3.0f)}};
    std::mt19937 random(8);
    for (auto [window, hop] : {std::pair<std::int64_t, std::int64_t>{256, 128}, {100, 100}, {64, 300}}) {
        const std::vector<ExpectedWindow> want = referenceWindows(stream, window, hop);
        for (int trial = 0; trial < 3; ++trial) {
            feedScripts()["rewindow"] = randomSplit(stream, tb, random, 400);
            for (const auto& scheduler : {std::string("df"), std::string("fifo:burst=1")}) {
                INFO("window " << window << ", hop " << hop << ", " << scheduler);
                REQUIRE(runGraph(rewindowGraph(window, hop), scheduler).completed);
                const std::vector<Item>& got = collections()["rewindow"].items[0];
                checkWindows(got, want);
                for (const Item& w : got) CHECK((w.segment().startIndex() % hop) == 0);
            }
        }
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("rewindow holds progress back to the oldest sample it still holds", "[segments][rewindow]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(1000);
    FeedScript script;
    // Segments of 300 samples, each followed by progress to its end; windows of 1000 every 500.
    for (int b = 0; b < 10; ++b) {
        auto segment = makeSignal(ramp(300, float(b)), 300 * b, tb);
        const TimeNs end = segment.endTime();
        script.batches.push_back({{0, Item::signal(segment)}, {0, Item::progress(end)}});
    }
    feedScripts()["rewindow"] = script;
    for (const auto& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        REQUIRE(runGraph(rewindowGraph(1000, 500, "held"), scheduler).completed);
        const Probed& probed = probes()["held"];
        CHECK(probed.itemCount == 5);  // windows at 0, 500, 1000, 1500, 2000 (2000 + 1000 <= 3000)
        CHECK(probed.brokenPromises == 0);
        REQUIRE(!probed.progress.empty());
        // After the 4th segment (samples up to 1200, progress 1.2 s) only the window at 0 is out
        // and samples from 500 on are held: the promise must not pass 0.5 s.
        for (TimeNs p : probed.progress) CHECK((p <= tb.timeOf(2500) || p == kEndOfTime));
        CHECK(std::find(probed.progress.begin(), probed.progress.end(), tb.timeOf(500)) != probed.progress.end());
        CHECK(probed.finished);
    }
    feedScripts().clear();
    probes().clear();
}

TEST_CASE("rewindow promises progress up to the start of the next window, whatever holds its samples", "[segments][rewindow]") {
    // Segments longer than the hop: the windower may hold the newest segment whole (when its storage
    // list is shared, as a replaying source's blocks are), samples before the next window's start
    // included; its promise must still reach that start, neither earlier nor later.
    registerStreamProbes();
    const Timebase& tb = Timebase::get(1000);
    constexpr std::int64_t kSegment = 1200, kSegments = 6, kWindow = 1000, kHop = 500;
    const SigSeg<float> whole = makeSignal(ramp(kSegment * kSegments, 1.0f), 0, tb);
    // Reference: after the segment ending at `end` (progress to its end follows it), the promise is
    // min(end, start of the first grid window not complete yet).
    std::vector<TimeNs> want;
    for (std::int64_t end = kSegment; end <= kSegment * kSegments; end += kSegment) {
        std::int64_t next = 0;
        while (next + kWindow <= end) next += kHop;
        const TimeNs promise = tb.timeOf(std::min(end, next));
        if (want.empty() || promise > want.back()) want.push_back(promise);
    }
    for (const bool oneList : {true, false}) {
        FeedScript script;
        for (std::int64_t at = 0; at < whole.endIndex(); at += kSegment) {
            SigSeg<float> segment = oneList ? whole.subseg(at, kSegment) : makeSignal(samplesOf(Item::signal(whole.subseg(at, kSegment))), at, tb);
            const TimeNs end = segment.endTime();
            script.batches.push_back({{0, Item::signal(std::move(segment))}, {0, Item::progress(end)}});
        }
        feedScripts()["rewindow"] = script;
        for (const auto& scheduler : schedulerMatrix()) {
            INFO((oneList ? "segments of one list, " : "separate segments, ") << scheduler);
            REQUIRE(runGraph(rewindowGraph(kWindow, kHop, "next"), scheduler).completed);
            const Probed& probed = probes()["next"];
            CHECK(probed.itemCount == (kSegment * kSegments - kWindow) / kHop + 1);
            CHECK(probed.brokenPromises == 0);
            CHECK(probed.progress == want);  // the end of the stream comes as finished, not as a time
            CHECK(probed.finished);
            probes().clear();
        }
    }
    feedScripts().clear();
}

TEST_CASE("rewindow works for every sample type", "[segments][rewindow]") {
    const Timebase& tb = Timebase::get(1000);
    FeedScript script;
    std::vector<std::int16_t> values(90);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int16_t>(i * 3 - 100);
    for (int b = 0; b < 3; ++b) {
        std::span<const std::int16_t> part(values.data() + 30 * b, 30);
        script.batches.push_back({{0, Item::signal(SigSeg<std::int16_t>::copyOf(part, 30 * b, &tb))}});
    }
    feedScripts()["rewindow"] = script;
    std::string graph = rewindowGraph(40, 20);
    const std::string feedParams = R"("name": "rewindow"})";
    graph.replace(graph.find(feedParams), feedParams.size(), R"("name": "rewindow", "type": "signal<i16>"})");
    REQUIRE(runGraph(graph, "df").completed);
    const std::vector<Item>& got = collections()["rewindow"].items[0];
    REQUIRE(got.size() == 3);  // 0, 20, 40
    for (std::size_t w = 0; w < got.size(); ++w) {
        CHECK(got[w].sampleType() == SampleType::Int16);
        std::vector<float> want(values.begin() + 20 * std::ptrdiff_t(w), values.begin() + 20 * std::ptrdiff_t(w) + 40);
        CHECK(samplesOf(got[w]) == want);
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("rewindow declares its parameters with units and ranges", "[segments][rewindow]") {
    const OperatorDescriptor* d = testRegistry().find("segments.rewindow");
    REQUIRE(d != nullptr);
    for (const char* name : {"window", "hop"}) {
        const ParamSpec* p = d->findParam(name);
        REQUIRE(p != nullptr);
        CHECK(p->kind == ParamKind::Int);
        CHECK(std::get<std::int64_t>(p->defaultValue) == 4096);
        CHECK(p->minimum == 1.0);
        CHECK(p->unit == "samples");
    }
    CHECK_THROWS(runGraph(rewindowGraph(0, 4), "df"));
}
