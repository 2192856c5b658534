// The resample family against libsoxr called once on the whole signal (soxr_oneshot), against the
// time alignment a sine must keep, and for the exact output timebase, over random input splits.
#include <catch2/catch.hpp>

#include <soxr.h>

#include <cmath>
#include <numbers>
#include <random>

#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

/// `samples` at `rateHz` from index `start`, split at random, through `type` with `params`; the output items.
std::vector<Item> resampleItems(const std::string& type, const nlohmann::json& params, const std::vector<float>& samples, double rateHz,
                                std::int64_t start, std::uint32_t seed) {
    const Timebase& timebase = Timebase::get(rateHz, 1'000'000'000);
    std::mt19937 random(seed);
    std::uniform_int_distribution<std::size_t> length(1, 4000);
    FeedScript script;
    for (std::size_t at = 0; at < samples.size();) {
        const std::size_t n = std::min(length(random), samples.size() - at);
        SigSeg<float> segment = makeSignal({samples.begin() + static_cast<std::ptrdiff_t>(at), samples.begin() + static_cast<std::ptrdiff_t>(at + n)},
                                           start + static_cast<std::int64_t>(at), timebase);
        script.batches.push_back({{0, Item::signal(segment)}, {0, Item::progress(segment.endTime())}});
        at += n;
    }
    feedScripts()["resample"] = script;
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "resample"}}}},
                   {{"id", "resampler"}, {"type", type}, {"params", params}},
                   {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "resampled"}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "resampler.in"}}, {{"from", "resampler.out"}, {"to", "sink.in0"}}}}};
    const RunOutcome outcome = runGraph(graph.dump());
    for (const auto& failure : outcome.failures) FAIL(failure);
    REQUIRE(outcome.completed);
    std::vector<Item> items = collections()["resampled"].items[0];
    feedScripts().clear();
    collections().clear();
    return items;
}

std::vector<float> concatenated(const std::vector<Item>& items) {
    std::vector<float> all;
    for (const Item& item : items) {
        for (float v : samplesOf(item)) all.push_back(v);
    }
    return all;
}

std::vector<float> oneshot(const std::vector<float>& x, double inputRate, double outputRate, unsigned long recipe) {
    const std::size_t room = static_cast<std::size_t>(std::ceil(static_cast<double>(x.size()) * outputRate / inputRate)) + 16;
    std::vector<float> y(room);
    std::size_t produced = 0;
    const soxr_io_spec_t io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I);
    const soxr_quality_spec_t quality = soxr_quality_spec(recipe, 0);
    const soxr_runtime_spec_t runtime = soxr_runtime_spec(1);
    REQUIRE(soxr_oneshot(inputRate, outputRate, 1, x.data(), x.size(), nullptr, y.data(), room, &produced, &io, &quality, &runtime) == nullptr);
    y.resize(produced);
    return y;
}

std::vector<float> noise(std::size_t length, std::uint32_t seed) {
    std::mt19937 random(seed);
    std::normal_distribution<float> value(0.0f, 0.3f);
    std::vector<float> x(length);
    for (float& v : x) v = value(random);
    return x;
}

}  // namespace

TEST_CASE("resample.rational streams exactly what libsoxr gives for the whole signal at once", "[resample]") {
    const std::vector<float> x = noise(30000, 1);
    struct Case {
        std::int64_t up, down;
        double inputRate;
        const char* quality;
        unsigned long recipe;
    };
    for (const Case& c : {Case{160, 147, 44100.0, "high", SOXR_HQ}, Case{1, 3, 48000.0, "very_high", SOXR_VHQ}, Case{2, 1, 16000.0, "medium", SOXR_MQ},
                          Case{3, 2, 32000.0, "quick", SOXR_QQ}}) {
        INFO(c.up << "/" << c.down << " from " << c.inputRate << " Hz, " << c.quality);
        const double outputRate = c.inputRate * static_cast<double>(c.up) / static_cast<double>(c.down);
        const std::vector<Item> items = resampleItems("resample.rational", {{"up", c.up}, {"down", c.down}, {"quality", c.quality}}, x, c.inputRate, 0, 5);
        const std::vector<float> got = concatenated(items);
        const std::vector<float> want = oneshot(x, c.inputRate, outputRate, c.recipe);
        REQUIRE(got.size() == want.size());
        CHECK(static_cast<double>(got.size()) == Approx(static_cast<double>(x.size()) * outputRate / c.inputRate).margin(1.0));
        double worst = 0.0;
        for (std::size_t m = 0; m < want.size(); ++m) worst = std::max(worst, static_cast<double>(std::abs(got[m] - want[m])));
        CHECK(worst < 1e-6);
        // The output timebase: the output rate on the input's clock and zero time, numbered from 0 without a hole.
        std::int64_t next = 0;
        for (const Item& item : items) {
            REQUIRE(item.segment().timebase()->rateHz() == outputRate);
            CHECK(item.segment().timebase()->zeroTimeNs() == 1'000'000'000);
            CHECK(item.segment().startIndex() == next);
            next = item.segment().endIndex();
        }
    }
}

TEST_CASE("resample.to_rate keeps a sine in time: output sample m is the sine at m / output rate", "[resample]") {
    const double inputRate = 44100.0, hz = 1000.0;
    std::vector<float> x(44100);
    for (std::size_t n = 0; n < x.size(); ++n) x[n] = static_cast<float>(std::sin(2 * std::numbers::pi * hz * static_cast<double>(n) / inputRate));
    for (double outputRate : {48000.0, 16000.0, 47999.7}) {
        INFO("to " << outputRate << " Hz");
        const std::vector<float> y = concatenated(resampleItems("resample.to_rate", {{"rate_hz", outputRate}}, x, inputRate, 0, 9));
        double worst = 0.0;
        for (std::size_t m = 2000; m + 2000 < y.size(); ++m) {  // away from the edges, where the filter sees silence
            worst = std::max(worst, std::abs(y[m] - std::sin(2 * std::numbers::pi * hz * static_cast<double>(m) / outputRate)));
        }
        CHECK(worst < 1e-3);  // a delay of even 1/10 sample would show as ~0.01
    }
}

TEST_CASE("a stream starting mid-way keeps the input's time: its first output index is the same instant", "[resample]") {
    const std::vector<float> x = noise(5000, 2);
    const std::vector<Item> items = resampleItems("resample.rational", {{"up", 3}, {"down", 2}}, x, 32000.0, 64000, 3);
    REQUIRE(!items.empty());
    const SegmentHandle& first = items.front().segment();
    CHECK(first.startIndex() == 96000);  // 64000 x 3 / 2: 2 s in both
    CHECK(first.startTime() == Timebase::get(32000.0, 1'000'000'000).timeOf(64000));
    // A start with no whole output index at the same instant: numbering restarts at the first sample's time.
    const std::vector<Item> odd = resampleItems("resample.rational", {{"up", 3}, {"down", 2}}, x, 32000.0, 64001, 3);
    REQUIRE(!odd.empty());
    CHECK(odd.front().segment().startIndex() == 0);
    CHECK(odd.front().segment().timebase()->zeroTimeNs() == Timebase::get(32000.0, 1'000'000'000).timeOf(64001));
}
