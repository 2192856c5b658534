#include <catch2/catch.hpp>

#include "tests/nodes/stats/filter_test_support.h"

using namespace isochron;
using namespace isochron::test;

TEST_CASE("mean_filter forwards exactly the segments on the pass side, by reference", "[stats][mean_filter]") {
    std::mt19937 random(12);
    std::uniform_real_distribution<double> mean(-1.0, 1.0);
    std::uniform_real_distribution<double> stddev(0.0, 0.5);
    std::uniform_int_distribution<std::size_t> length(1, 5000);
    std::uniform_int_distribution<int> pieces(1, 6);
    const double threshold = 0.2;
    std::vector<SigSeg<float>> sent;
    std::vector<double> means;
    FeedScript script;
    std::int64_t at = 1000;
    while (sent.size() < 120) {
        SigSeg<float> segment = segmentWithStatistics(at, length(random), mean(random), stddev(random), pieces(random), random);
        const ReferenceStatistics want = referenceStatistics(segment);
        at = segment.endIndex();
        if (std::abs(want.mean - threshold) < 1e-4) continue;  // too close to call in float
        sent.push_back(segment);
        means.push_back(want.mean);
        script.batches.push_back({{0, Item::signal(segment)}});
    }
    feedScripts()["filter"] = script;
    for (const std::string pass : {"above", "below"}) {
        std::vector<const SigSeg<float>*> want;
        for (std::size_t i = 0; i < sent.size(); ++i) {
            if (pass == "above" ? means[i] > threshold : means[i] < threshold) want.push_back(&sent[i]);
        }
        REQUIRE(want.size() > 10);
        REQUIRE(want.size() < sent.size() - 10);
        for (const auto& scheduler : schedulerMatrix()) {
            INFO("pass " << pass << ", " << scheduler);
            REQUIRE(runGraph(filterGraph("stats.mean_filter", threshold, pass), scheduler).completed);
            const std::vector<Item>& got = collections()["filtered"].items[0];
            REQUIRE(got.size() == want.size());
            for (std::size_t i = 0; i < want.size(); ++i) {
                CHECK(got[i].segment().list() == want[i]->list());
                CHECK(got[i].segment().startIndex() == want[i]->startIndex());
            }
        }
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("mean_filter defaults to passing segments below a live threshold", "[stats][mean_filter]") {
    const OperatorDescriptor* d = testRegistry().find("stats.mean_filter");
    REQUIRE(d != nullptr);
    CHECK(d->findParam("threshold")->live);
    CHECK_FALSE(d->findParam("threshold")->minimum.has_value());  // a mean may be negative
    CHECK(std::get<std::string>(d->findParam("pass")->defaultValue) == "below");
}

TEST_CASE("rewindow -> stddev_filter -> mean_filter keeps the windows a reference selects", "[stats][segments]") {
    // XStream's STATFILTER chain over a stream split at random, under every scheduler.
    std::mt19937 random(77);
    const Timebase& tb = Timebase::get(8000);
    const std::int64_t window = 512;
    std::vector<float> stream;
    std::uniform_real_distribution<double> level(-1.0, 1.0);
    std::uniform_real_distribution<double> spread(0.0, 2.0);
    for (int w = 0; w < 200; ++w) {
        std::normal_distribution<double> gaussian(level(random), spread(random));
        for (std::int64_t i = 0; i < window; ++i) stream.push_back(static_cast<float>(gaussian(random)));
    }
    const double alpha = 1.0;  // stddev above
    const double beta = 0.0;   // mean below
    std::vector<std::int64_t> wantStarts;
    for (std::int64_t start = 0; start + window <= std::int64_t(stream.size()); start += window) {
        const ReferenceStatistics s = referenceStatistics(makeSignal(
            std::vector<float>(stream.begin() + start, stream.begin() + start + window), start, tb));
        REQUIRE(std::abs(s.stddev - alpha) > 1e-4);  // every decision is clear in float arithmetic
        REQUIRE(std::abs(s.mean - beta) > 1e-4);
        if (s.stddev > alpha && s.mean < beta) wantStarts.push_back(start);
    }
    REQUIRE(wantStarts.size() > 20);
    FeedScript script;
    std::uniform_int_distribution<std::size_t> pieceLength(1, 1500);
    for (std::size_t at = 0; at < stream.size();) {
        const std::size_t take = std::min(pieceLength(random), stream.size() - at);
        std::vector<float> piece(stream.begin() + std::ptrdiff_t(at), stream.begin() + std::ptrdiff_t(at + take));
        script.batches.push_back({{0, Item::signal(makeSignal(piece, std::int64_t(at), tb))}});
        at += take;
    }
    feedScripts()["filter"] = script;
    const std::string graph = R"({"format": "isochron-graph/1", "nodes": [
      {"id": "feed", "type": "test.feed", "params": {"name": "filter"}},
      {"id": "window", "type": "segments.rewindow", "params": {"window": 512, "hop": 512}},
      {"id": "stddev", "type": "stats.stddev_filter", "params": {"threshold": 1.0}},
      {"id": "mean", "type": "stats.mean_filter", "params": {"threshold": 0.0}},
      {"id": "sink", "type": "test.collect", "params": {"name": "filtered"}}],
      "edges": [{"from": "feed.out0", "to": "window.in"}, {"from": "window.out", "to": "stddev.in"},
                {"from": "stddev.out", "to": "mean.in"}, {"from": "mean.out", "to": "sink.in0"}]})";
    for (const auto& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        REQUIRE(runGraph(graph, scheduler).completed);
        const std::vector<Item>& got = collections()["filtered"].items[0];
        REQUIRE(got.size() == wantStarts.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            CHECK(got[i].segment().startIndex() == wantStarts[i]);
            CHECK(got[i].segment().length() == window);
        }
    }
    feedScripts().clear();
    collections().clear();
}
