#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/engine.h"
#include "tests/support/graph_run.h"
#include "tests/support/stream_probes.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr std::int64_t kWindow = 256;
constexpr double kThreshold = 0.01;

struct Stretch {
    std::int64_t start;
    std::vector<float> samples;
};

// Quiet noise (stddev 1e-4) with loud samples (|x| in [0.5, 1.5]) over [from, to) of the stream.
struct Burst {
    std::int64_t from, to;
};

Stretch quietWithBursts(std::int64_t start, std::size_t count, const std::vector<Burst>& bursts, std::mt19937& random) {
    std::normal_distribution<double> quiet(0.0, 1e-4);
    std::uniform_real_distribution<double> loud(0.5, 1.5);
    Stretch s{start, std::vector<float>(count)};
    for (std::size_t i = 0; i < count; ++i) {
        const std::int64_t index = start + static_cast<std::int64_t>(i);
        bool inBurst = false;
        for (const Burst& b : bursts) inBurst = inBurst || (index >= b.from && index < b.to);
        s.samples[i] = static_cast<float>(inBurst ? (i % 2 ? loud(random) : -loud(random)) : quiet(random));
    }
    return s;
}

// Reference ranges: grid windows (origin + k * window) inside one stretch, classified by a double
// two-pass stddev, grouped when at most `hangover` silent windows separate non-silent ones.
std::vector<SampleRange> referenceRanges(const std::vector<Stretch>& stretches, std::int64_t hangover, const Timebase& tb) {
    struct Open {
        std::int64_t start, end, lastIndex;
        std::size_t stretch;
    };
    std::vector<SampleRange> ranges;
    std::optional<Open> open;
    const std::int64_t origin = stretches.front().start;
    for (std::size_t s = 0; s < stretches.size(); ++s) {
        const Stretch& stretch = stretches[s];
        const std::int64_t end = stretch.start + static_cast<std::int64_t>(stretch.samples.size());
        for (std::int64_t w = origin; w + kWindow <= end; w += kWindow) {
            if (w < stretch.start) continue;
            double mean = 0;
            for (std::int64_t i = w; i < w + kWindow; ++i) mean += stretch.samples[std::size_t(i - stretch.start)];
            mean /= kWindow;
            double squares = 0;
            for (std::int64_t i = w; i < w + kWindow; ++i) {
                const double d = stretch.samples[std::size_t(i - stretch.start)] - mean;
                squares += d * d;
            }
            const double stddev = std::sqrt(squares / kWindow);
            REQUIRE(std::abs(stddev - kThreshold) > 0.5 * kThreshold);  // clear decisions only
            if (stddev <= kThreshold) continue;
            const std::int64_t index = (w - origin) / kWindow;
            if (open && open->stretch == s && index - open->lastIndex - 1 <= hangover) {
                open->end = w + kWindow;
                open->lastIndex = index;
                continue;
            }
            if (open) ranges.push_back({&tb, open->start, open->end - open->start});
            open = Open{w, w + kWindow, index, s};
        }
    }
    if (open) ranges.push_back({&tb, open->start, open->end - open->start});
    return ranges;
}

FeedScript randomSplit(const std::vector<Stretch>& stretches, const Timebase& tb, std::mt19937& random, std::size_t maxPiece) {
    FeedScript script;
    std::uniform_int_distribution<std::size_t> pieceLength(1, maxPiece);
    for (const Stretch& s : stretches) {
        for (std::size_t at = 0; at < s.samples.size();) {
            const std::size_t take = std::min(pieceLength(random), s.samples.size() - at);
            std::vector<float> piece(s.samples.begin() + std::ptrdiff_t(at), s.samples.begin() + std::ptrdiff_t(at + take));
            script.batches.push_back({{0, Item::signal(makeSignal(piece, s.start + std::int64_t(at), tb))}});
            at += take;
        }
    }
    return script;
}

std::string detectorGraph(std::int64_t hangover, double threshold = kThreshold) {
    return R"({"format": "isochron-graph/1", "nodes": [
      {"id": "feed", "type": "test.feed", "params": {"name": "audio"}},
      {"id": "detector", "type": "detect.silence_detector", "params": {"window": )" + std::to_string(kWindow) +
           R"(, "threshold": )" + std::to_string(threshold) + R"(, "hangover": )" + std::to_string(hangover) + R"(}},
      {"id": "probe", "type": "test.probe", "params": {"name": "ranges"}}],
      "edges": [{"from": "feed.out0", "to": "detector.in"}, {"from": "detector.ranges", "to": "probe.in"}]})";
}

void checkRanges(const std::vector<Item>& got, const std::vector<SampleRange>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        INFO("range " << i);
        CHECK(got[i].kind() == ItemKind::TimeRange);
        CHECK(got[i].range() == want[i]);
    }
}

}  // namespace

TEST_CASE("silence_detector finds planted bursts for any split, hangover and scheduler", "[detect][silence_detector]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(8000);
    std::mt19937 random(1234);
    // Window grid from sample 100: windows [100 + 256k, 356 + 256k). Bursts at arbitrary sample
    // positions, separated by 0..4 silent windows, one touching a single sample of a window, one
    // running to the end of the stream (open at finish).
    const std::int64_t origin = 100;
    auto at = [&](double windows) { return origin + static_cast<std::int64_t>(windows * kWindow); };
    const std::vector<Burst> bursts{
        {at(2.5), at(3.2)},     // windows 2, 3
        {at(4.9), at(5.1)},     // windows 4, 5: adjacent to the previous run
        {at(7.0), at(7.0) + 1}, // window 7 by one sample (1 silent window before it)
        {at(10.3), at(12.0)},   // windows 10, 11 (2 silent before)
        {at(15.5), at(15.6)},   // window 15 (3 silent before)
        {at(20.0), at(20.5)},   // window 20 (4 silent before)
        {at(29.5), at(32.0)},   // windows 29..31: to the end of the stream
    };
    const std::vector<Stretch> stream{quietWithBursts(origin, 32 * kWindow, bursts, random)};
    for (std::int64_t hangover : {0, 1, 2, 3, 5}) {
        const std::vector<SampleRange> want = referenceRanges(stream, hangover, tb);
        for (std::size_t maxPiece : {40u, 300u, 2000u}) {
            feedScripts()["audio"] = randomSplit(stream, tb, random, maxPiece);
            std::vector<Item> firstRun;
            for (const auto& scheduler : schedulerMatrix()) {
                INFO("hangover " << hangover << ", pieces <= " << maxPiece << ", " << scheduler);
                REQUIRE(runGraph(detectorGraph(hangover), scheduler).completed);
                const Probed& got = probes()["ranges"];
                checkRanges(got.items, want);
                if (firstRun.empty()) firstRun = got.items;
                REQUIRE(got.items.size() == firstRun.size());
                for (std::size_t i = 0; i < got.items.size(); ++i) CHECK(sameData(got.items[i], firstRun[i]));
                CHECK(got.brokenPromises == 0);
                CHECK(got.finished);
            }
        }
    }
    // Spot-check the reference itself on the hand-placed bursts.
    CHECK(referenceRanges(stream, 0, tb).size() == 6);  // 2..5 merge (adjacent); 7; 10-11; 15; 20; 29-31
    CHECK(referenceRanges(stream, 1, tb).size() == 5);  // 2..7
    CHECK(referenceRanges(stream, 3, tb).size() == 3);  // 2..15; 20; 29-31
    CHECK(referenceRanges(stream, 5, tb).size() == 2);  // 2..20; 29-31 (8 silent windows between)
    feedScripts().clear();
    probes().clear();
}

TEST_CASE("silence_detector ends a run at lost samples and resumes on the grid", "[detect][silence_detector]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(8000);
    std::mt19937 random(99);
    // A burst runs across a jump from sample 2000 to 2300; the grid stays 0 + 256k.
    const std::vector<Stretch> stream{quietWithBursts(0, 2000, {{1500, 2000}}, random),
                                      quietWithBursts(2300, 3000, {{2300, 3000}}, random)};
    for (std::int64_t hangover : {0, 4}) {
        const std::vector<SampleRange> want = referenceRanges(stream, hangover, tb);
        REQUIRE(want.size() == 2);
        CHECK(want[0] == SampleRange{&tb, 1280, 1792 - 1280});  // windows ending before the jump
        CHECK(want[1].start == 2304);                            // first grid window after it
        for (int trial = 0; trial < 4; ++trial) {
            feedScripts()["audio"] = randomSplit(stream, tb, random, 500);
            for (const auto& scheduler : {std::string("df"), std::string("fifo-slice:burst=3")}) {
                INFO("hangover " << hangover << ", " << scheduler);
                REQUIRE(runGraph(detectorGraph(hangover), scheduler).completed);
                checkRanges(probes()["ranges"].items, want);
            }
        }
    }
    feedScripts().clear();
    probes().clear();
}

TEST_CASE("silence_detector promises progress up to the next possible range start", "[detect][silence_detector]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(8000);
    std::mt19937 random(5);
    const std::vector<Stretch> stream{quietWithBursts(0, 40 * kWindow + 100, {{5 * kWindow, 6 * kWindow}}, random)};
    feedScripts()["audio"] = randomSplit(stream, tb, random, 700);
    for (const auto& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        REQUIRE(runGraph(detectorGraph(0), scheduler).completed);
        const Probed& got = probes()["ranges"];
        checkRanges(got.items, {{&tb, 5 * kWindow, kWindow}});
        CHECK(got.brokenPromises == 0);  // the range came after promises up to its start at most
        REQUIRE(!got.progress.empty());
        // Silence after the burst: the promise reaches the end of the last complete window, with no
        // input progress at all (the feed sends none).
        CHECK(got.progress.back() == tb.timeOf(40 * kWindow));
    }
    feedScripts().clear();
    probes().clear();
}

TEST_CASE("silence_detector declares its parameters and applies a live threshold", "[detect][silence_detector]") {
    registerStreamProbes();
    const OperatorDescriptor* d = testRegistry().find("detect.silence_detector");
    REQUIRE(d != nullptr);
    CHECK(d->findParam("threshold")->live);
    CHECK(d->findParam("threshold")->minimum == 0.0);
    CHECK(std::get<std::int64_t>(d->findParam("window")->defaultValue) == 4096);
    CHECK(d->findParam("window")->unit == "samples");
    CHECK(std::get<std::int64_t>(d->findParam("hangover")->defaultValue) == 0);
    CHECK(d->findParam("hangover")->unit == "windows");
    CHECK_FALSE(d->findParam("window")->live);

    const Timebase& tb = Timebase::get(8000);
    std::mt19937 random(6);
    const std::vector<Stretch> stream{quietWithBursts(0, 10 * kWindow, {{3 * kWindow, 4 * kWindow}}, random)};
    feedScripts()["audio"] = randomSplit(stream, tb, random, 300);
    // Starts deaf (threshold 10); the change posted before the first round applies to every window.
    Engine engine(validateGraph(parseGraph(detectorGraph(0, 10.0)), testRegistry()), parseSchedulerText("fifo"));
    engine.postParameter("detector", "threshold", kThreshold);
    REQUIRE(engine.run().completed);
    checkRanges(probes()["ranges"].items, {{&tb, 3 * kWindow, kWindow}});
    feedScripts().clear();
    probes().clear();
}
