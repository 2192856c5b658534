// The filters family's operators against naive direct-form filters computed here in double, with
// the coefficients scipy designed (so neither the design nor the fast kernels check themselves),
// over input split whole, in blocks, and at random into one- and two-piece segments.
#include <catch2/catch.hpp>

#include <algorithm>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/schedulers/scheduler.h"
#include "tests/nodes/filters/filter_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kTolerance = 2e-5;  // float output and float accumulation against double references
const Split kSplits[] = {Split::Whole, Split::Blocks, Split::RandomPieces};

nlohmann::json cutoffParams(const nlohmann::json& c) {
    const auto cutoffs = c["cutoffs_hz"].get<std::vector<double>>();
    nlohmann::json params = {{"response", c["response"]}, {"cutoff_hz", cutoffs[0]}};
    if (cutoffs.size() > 1) params["high_cutoff_hz"] = cutoffs[1];
    return params;
}

}  // namespace

TEST_CASE("filters.fir equals the naive convolution with scipy's taps, in direct form and by FFT", "[filters][fir][operators]") {
    const std::vector<float> x = filterTestSignal(12000, 48000.0, 1);
    for (const auto& c : filterReference()["fir"]) {
        const std::vector<double> want = naiveFir(c["h"].get<std::vector<double>>(), x);
        for (const char* method : {"direct", "fft"}) {
            for (Split split : kSplits) {
                INFO(c["response"].get<std::string>() << " " << c["taps"].get<int>() << " taps, " << method << ", split " << int(split));
                nlohmann::json params = cutoffParams(c);
                params["taps"] = c["taps"];
                params["window"] = c["window"];
                params["kaiser_beta"] = c["kaiser_beta"];
                params["method"] = method;
                CHECK(relativeError(runFilter("filters.fir", params, x, split), want) < kTolerance);
            }
        }
    }
    for (const auto& c : filterReference()["kaiser"]) {
        INFO("kaiserord " << c["attenuation_db"].get<double>() << " dB over " << c["transition_hz"].get<double>() << " Hz");
        nlohmann::json params = cutoffParams(c);
        params["taps"] = 0;
        params["transition_hz"] = c["transition_hz"];
        params["attenuation_db"] = c["attenuation_db"];
        CHECK(relativeError(runFilter("filters.fir", params, x, Split::RandomPieces), naiveFir(c["h"].get<std::vector<double>>(), x)) < kTolerance);
    }
}

TEST_CASE("filters.butterworth and filters.chebyshev1 equal scipy's sections run in naive direct form", "[filters][iir][operators]") {
    const std::vector<float> x = filterTestSignal(12000, 48000.0, 2);
    for (const auto& c : filterReference()["iir"]) {
        const std::vector<double> want = naiveSos(c["sos"].get<std::vector<std::vector<double>>>(), x);
        nlohmann::json params = cutoffParams(c);
        params["order"] = c["order"];
        const bool butterworth = c["family"] == "butterworth";
        if (!butterworth) params["ripple_db"] = c["ripple_db"];
        for (Split split : kSplits) {
            INFO(c["family"].get<std::string>() << " " << c["response"].get<std::string>() << " order " << c["order"].get<int>() << ", split " << int(split));
            CHECK(relativeError(runFilter(butterworth ? "filters.butterworth" : "filters.chebyshev1", params, x, split), want) < kTolerance);
        }
    }
}

TEST_CASE("the cookbook equalizers equal the cookbook's biquad run in naive direct form", "[filters][cookbook][operators]") {
    const std::vector<float> x = filterTestSignal(8000, 48000.0, 3);
    for (const auto& c : filterReference()["cookbook"]) {
        const std::string shape = c["shape"].get<std::string>();
        INFO(shape << " at " << c["frequency_hz"].get<double>() << " Hz");
        const auto b = c["b"].get<std::vector<double>>();
        const auto a = c["a"].get<std::vector<double>>();
        const std::vector<double> want = naiveSos({{b[0], b[1], b[2], a[0], a[1], a[2]}}, x);
        nlohmann::json params = {{"frequency_hz", c["frequency_hz"]}, {"gain_db", c["gain_db"]}};
        params[shape == "peaking" ? "q" : "slope"] = c["width"];
        const std::string type = shape == "peaking" ? "filters.peaking_eq" : "filters." + shape;
        CHECK(relativeError(runFilter(type, params, x, Split::RandomPieces), want) < kTolerance);
    }
}

TEST_CASE("filters.dc_blocker removes the offset with unit gain at Nyquist", "[filters][dc_blocker][operators]") {
    const double rate = 16000.0, cutoff = 30.0;
    const std::vector<float> x = filterTestSignal(16000, rate, 4);
    const double pole = std::exp(-2.0 * std::numbers::pi * cutoff / rate), gain = (1.0 + pole) / 2.0;
    std::vector<double> want(x.size());
    for (std::size_t n = 0; n < x.size(); ++n) want[n] = gain * (x[n] - (n ? x[n - 1] : 0.0f)) + pole * (n ? want[n - 1] : 0.0);
    for (Split split : kSplits) {
        const std::vector<float> got = runFilter("filters.dc_blocker", {{"cutoff_hz", cutoff}}, x, split, rate);
        CHECK(relativeError(got, want) < kTolerance);
        double tailMean = 0.0;  // the input's 0.3 offset is gone once the blocker has settled
        for (std::size_t n = x.size() / 2; n < x.size(); ++n) tailMean += got[n];
        CHECK(std::abs(tailMean / static_cast<double>(x.size() / 2)) < 0.01);
    }
}

TEST_CASE("filters.moving_average is the mean of the last N samples", "[filters][moving_average][operators]") {
    const std::vector<float> x = filterTestSignal(50000, 48000.0, 5);
    for (int length : {1, 7, 64, 1000}) {
        std::vector<double> want(x.size(), 0.0);
        for (std::size_t n = 0; n < x.size(); ++n) {
            for (std::size_t k = 0; k < static_cast<std::size_t>(length) && k <= n; ++k) want[n] += x[n - k];
            want[n] /= length;
        }
        for (Split split : kSplits) {
            INFO("length " << length << ", split " << int(split));
            CHECK(relativeError(runFilter("filters.moving_average", {{"length", length}}, x, split), want) < 1e-6);
        }
    }
}

TEST_CASE("filters.median is the median of the last N samples (of those so far at the start)", "[filters][median][operators]") {
    std::vector<float> x = filterTestSignal(6000, 48000.0, 6);
    for (std::size_t n = 0; n < x.size(); n += 97) x[n] = 50.0f;  // impulses the median must remove
    for (int length : {1, 4, 5, 31}) {
        std::vector<double> want(x.size());
        for (std::size_t n = 0; n < x.size(); ++n) {
            const std::size_t from = n + 1 >= static_cast<std::size_t>(length) ? n + 1 - static_cast<std::size_t>(length) : 0;
            std::vector<float> window(x.begin() + static_cast<std::ptrdiff_t>(from), x.begin() + static_cast<std::ptrdiff_t>(n + 1));
            std::sort(window.begin(), window.end());
            const std::size_t m = window.size() / 2;
            want[n] = window.size() % 2 ? window[m] : 0.5 * (static_cast<double>(window[m - 1]) + window[m]);
        }
        for (Split split : kSplits) {
            INFO("length " << length << ", split " << int(split));
            const std::vector<float> got = runFilter("filters.median", {{"length", length}}, x, split);
            CHECK(relativeError(got, want) < 1e-7);
        }
    }
}

TEST_CASE("a gap in the input restarts a filter from silence", "[filters][operators]") {
    const std::vector<float> x = filterTestSignal(6000, 48000.0, 8);
    const std::vector<float> before(x.begin(), x.begin() + 2500), after(x.begin() + 2500, x.end());
    const nlohmann::json params = {{"response", "lowpass"}, {"cutoff_hz", 2000.0}, {"order", 6}};
    // The same stream with 500 samples lost between the two halves.
    const Timebase& timebase = Timebase::get(48000.0);
    FeedScript script;
    script.batches.push_back({{0, Item::signal(makeSignal(before, 0, timebase))}});
    script.batches.push_back({{0, Item::signal(makeSignal(after, 3000, timebase))}});
    feedScripts()["filter"] = script;
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "filter"}}}},
                   {{"id", "filter"}, {"type", "filters.butterworth"}, {"params", params}},
                   {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "filtered"}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "filter.in"}}, {{"from", "filter.out"}, {"to", "sink.in0"}}}}};
    REQUIRE(runGraph(graph.dump()).completed);
    const std::vector<Item> got = collections()["filtered"].items[0];
    feedScripts().clear();
    collections().clear();
    REQUIRE(got.size() == 2);
    CHECK(got[1].segment().startIndex() == 3000);
    const std::vector<float> alone = runFilter("filters.butterworth", params, after, Split::Whole, 48000.0, 3000);
    CHECK(samplesOf(got[1]) == alone);
}

TEST_CASE("a live cutoff change reaches the design", "[filters][operators]") {
    const nlohmann::json& c = filterReference()["iir"][0];  // Butterworth lowpass, order 4
    REQUIRE(c["family"] == "butterworth");
    const std::vector<float> x = filterTestSignal(4000, 48000.0, 9);
    const Timebase& timebase = Timebase::get(48000.0);
    FeedScript script;
    script.batches.push_back({{0, Item::signal(makeSignal(x, 0, timebase))}});
    feedScripts()["filter"] = script;
    nlohmann::json params = cutoffParams(c);
    params["order"] = c["order"];
    params["cutoff_hz"] = 9000.0;  // replaced before the first segment by the posted value
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "filter"}}}},
                   {{"id", "filter"}, {"type", "filters.butterworth"}, {"params", params}},
                   {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "filtered"}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "filter.in"}}, {{"from", "filter.out"}, {"to", "sink.in0"}}}}};
    Engine engine(validateGraph(parseGraph(graph.dump()), testRegistry()), parseSchedulerText("df"));
    engine.postParameter("filter", "cutoff_hz", c["cutoffs_hz"][0].get<double>());
    REQUIRE(engine.run().completed);
    const std::vector<Item> got = collections()["filtered"].items[0];
    feedScripts().clear();
    collections().clear();
    REQUIRE(got.size() == 1);
    CHECK(relativeError(samplesOf(got[0]), naiveSos(c["sos"].get<std::vector<std::vector<double>>>(), x)) < kTolerance);
    CHECK_THROWS_AS(engine.postParameter("filter", "order", std::int64_t{2}), std::invalid_argument);  // not live
}
