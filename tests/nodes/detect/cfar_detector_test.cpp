#include <catch2/catch.hpp>

#include <random>

#include "tests/support/acoustic_simulator.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr std::int64_t kWindow = 32;  // samples per window, as DETECTAUDIO's
constexpr double kRate = 48000.0;

/// Scores of `count` windows: 10 + N(0, 1) noise, seeded.
std::vector<double> noiseScores(std::size_t count, std::uint64_t seed) {
    GaussianNoise noise(seed);
    std::vector<double> scores(count);
    for (double& score : scores) score = 10.0 + noise.next();
    return scores;
}

/// A feed script of one scalar per window (window i covers samples [i * 32, i * 32 + 32)), in
/// batches of random sizes (`random` given) or `batch` scores each.
FeedScript scoreScript(const std::vector<double>& scores, std::mt19937* random, std::size_t batch = 64) {
    const Timebase& timebase = Timebase::get(kRate);
    FeedScript script;
    std::size_t next = 0;
    while (next < scores.size()) {
        const std::size_t size = random ? std::uniform_int_distribution<std::size_t>(1, 200)(*random) : batch;
        script.batches.emplace_back();
        for (std::size_t i = next; i < std::min(scores.size(), next + size); ++i) {
            const SampleRange window{&timebase, static_cast<std::int64_t>(i) * kWindow, kWindow};
            script.batches.back().push_back({0, Item::scalar(scores[i], window)});
        }
        next += size;
    }
    return script;
}

/// What detect.cfar_detector with `params` made of `scores`: its ranges and the progress it promised.
struct Detection {
    std::vector<SampleRange> events;
    std::vector<TimeNs> progress;
};

Detection detect(const std::vector<double>& scores, const nlohmann::json& params, const std::string& scheduler = "df",
                 std::mt19937* random = nullptr) {
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "scores"}, {"type", "scalar"}}}},
          {{"id", "cfar"}, {"type", "detect.cfar_detector"}, {"params", params}},
          {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "events"}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "cfar.score"}}, {{"from", "cfar.events"}, {"to", "sink.in0"}}}}};
    feedScripts()["scores"] = scoreScript(scores, random);
    const RunOutcome outcome = runGraph(graph.dump(), scheduler);
    CHECK(outcome.completed);
    CHECK(outcome.failures.empty());
    Detection detection;
    for (const Item& item : collections()["events"].items[0]) {
        CHECK(item.kind() == ItemKind::TimeRange);
        detection.events.push_back(item.range());
    }
    detection.progress = collections()["events"].progress[0];
    feedScripts().clear();
    collections().clear();
    return detection;
}

/// Window range [first, first + count) as samples.
SampleRange windows(std::int64_t first, std::int64_t count) { return {&Timebase::get(kRate), first * kWindow, count * kWindow}; }

/// Adds `height` to windows [first, first + count).
void plant(std::vector<double>& scores, std::size_t first, std::size_t count, double height) {
    for (std::size_t i = first; i < first + count; ++i) scores[i] += height;
}

}  // namespace

TEST_CASE("CFAR finds planted bursts exactly, for any split of the scores and every scheduler", "[cfar]") {
    std::vector<double> scores = noiseScores(20000, 1);
    const std::vector<std::pair<std::size_t, std::size_t>> bursts = {{500, 10}, {3000, 1}, {7000, 40}, {12345, 3}, {19990, 5}};
    for (const auto& [first, count] : bursts) plant(scores, first, count, 20.0);
    const nlohmann::json params = {{"q", 6.0}, {"warmup_windows", 200}, {"adapt_windows", 500}};

    const Detection reference = detect(scores, params);
    REQUIRE(reference.events.size() == bursts.size());
    for (std::size_t i = 0; i < bursts.size(); ++i) {
        CHECK(reference.events[i] == windows(static_cast<std::int64_t>(bursts[i].first), static_cast<std::int64_t>(bursts[i].second)));
    }
    std::mt19937 random(3);
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        const Detection got = detect(scores, params, scheduler, &random);
        CHECK(got.events == reference.events);
    }
}

TEST_CASE("CFAR raises no false alarm on 100k windows of Gaussian noise at q = 6", "[cfar]") {
    const std::vector<double> scores = noiseScores(100000, 2);
    CHECK(detect(scores, {{"q", 6.0}, {"warmup_windows", 100}}).events.empty());
    // ... while a low q does fire on the same noise, so the detector is live.
    CHECK(detect(scores, {{"q", 3.0}, {"warmup_windows", 100}}).events.size() > 10);
}

TEST_CASE("CFAR ends an event only when the score falls below the hysteresis threshold", "[cfar]") {
    std::vector<double> scores = noiseScores(3000, 4);
    // q = 12: starts above mean + 12 deviations; with end_ratio 0.5 goes on above mean + 6. The
    // plateau at mean + 9 is 3 deviations from both thresholds.
    plant(scores, 1000, 1, 30.0);  // start
    plant(scores, 1001, 20, 9.0);  // continues
    plant(scores, 2000, 20, 9.0);  // the same level without a start: nothing
    const Detection hysteresis = detect(scores, {{"q", 12.0}, {"end_ratio", 0.5}});
    REQUIRE(hysteresis.events.size() == 1);
    CHECK(hysteresis.events[0] == windows(1000, 21));
    const Detection none = detect(scores, {{"q", 12.0}, {"end_ratio", 1.0}});
    REQUIRE(none.events.size() == 1);
    CHECK(none.events[0] == windows(1000, 1));
}

TEST_CASE("CFAR hold-off keeps a new event from starting too soon after the last one", "[cfar]") {
    std::vector<double> scores = noiseScores(3000, 5);
    plant(scores, 1000, 5, 20.0);
    plant(scores, 1010, 5, 20.0);  // 5 windows after the first event's end
    plant(scores, 1100, 5, 20.0);
    const Detection free = detect(scores, {{"q", 6.0}});
    CHECK(free.events == std::vector<SampleRange>{windows(1000, 5), windows(1010, 5), windows(1100, 5)});
    // With a hold-off of 8 windows the second burst's first 3 windows are held off, the rest is an event.
    const Detection held = detect(scores, {{"q", 6.0}, {"hold_windows", 8}});
    CHECK(held.events == std::vector<SampleRange>{windows(1000, 5), windows(1013, 2), windows(1100, 5)});
}

TEST_CASE("CFAR duration limits, warm-up, and pre/post roll", "[cfar]") {
    std::vector<double> scores = noiseScores(3000, 6);
    plant(scores, 50, 3, 30.0);     // during warm-up: ignored
    plant(scores, 1000, 1, 20.0);   // one window: below min_windows
    plant(scores, 1500, 3, 20.0);
    plant(scores, 2000, 25, 20.0);  // split by max_windows
    const Detection limited = detect(scores, {{"q", 6.0}, {"warmup_windows", 100}, {"min_windows", 2}, {"max_windows", 10}});
    CHECK(limited.events == std::vector<SampleRange>{windows(1500, 3), windows(2000, 10), windows(2010, 10), windows(2020, 5)});

    const Detection rolled = detect(scores, {{"q", 6.0}, {"min_windows", 2}, {"pre_roll", 0.001}, {"post_roll", 0.002}});
    REQUIRE(rolled.events.size() == 2);
    CHECK(rolled.events[0] == SampleRange{&Timebase::get(kRate), 1500 * kWindow - 48, 3 * kWindow + 48 + 96});
    CHECK(rolled.events[1] == SampleRange{&Timebase::get(kRate), 2000 * kWindow - 48, 25 * kWindow + 48 + 96});
}

TEST_CASE("CFAR promises progress as it goes, never past a range it emits later", "[cfar]") {
    std::vector<double> scores = noiseScores(4000, 7);
    plant(scores, 3000, 5, 20.0);
    const Detection detection = detect(scores, {{"q", 6.0}, {"pre_roll", 0.01}});
    REQUIRE(detection.events.size() == 1);
    REQUIRE(detection.progress.size() > 100);  // progress flows long before the end of the stream
    CHECK(std::is_sorted(detection.progress.begin(), detection.progress.end()));
    const TimeNs eventStart = detection.events[0].startTime();
    std::size_t before = 0;
    for (TimeNs t : detection.progress) {
        if (t <= eventStart) ++before;
    }
    CHECK(before > 50);
    // Before the event, progress reached the window the event begins in, less the pre-roll.
    CHECK(std::find(detection.progress.begin(), detection.progress.end(), eventStart) != detection.progress.end());
}
