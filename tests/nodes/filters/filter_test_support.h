// Shared by the filters family's tests: the committed scipy reference designs
// (data/filter_reference.json, written by scripts/make_filter_reference.py), naive direct-form
// filters to compare against, and a runner that feeds a signal split at random through one operator.
#pragma once

#include <cmath>
#include <complex>
#include <fstream>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/graph_run.h"

namespace isochron::test {

/// The parsed reference file (read once).
inline const nlohmann::json& filterReference() {
    static const nlohmann::json reference = [] {
        std::ifstream in(std::string(ISOCHRON_SOURCE_DIR) + "/tests/nodes/filters/data/filter_reference.json");
        return nlohmann::json::parse(in);
    }();
    return reference;
}

/// [[re, im], ...] as complex numbers.
inline std::vector<std::complex<double>> complexValues(const nlohmann::json& pairs) {
    std::vector<std::complex<double>> values;
    for (const auto& pair : pairs) values.emplace_back(pair[0].get<double>(), pair[1].get<double>());
    return values;
}

/// Two tones, a low drift, noise and a click at `rateHz`: something every filter changes.
inline std::vector<float> filterTestSignal(std::size_t length, double rateHz, std::uint32_t seed) {
    std::mt19937 random(seed);
    std::normal_distribution<double> noise(0.0, 0.2);
    std::vector<float> x(length);
    for (std::size_t n = 0; n < length; ++n) {
        const double t = static_cast<double>(n) / rateHz;
        x[n] = static_cast<float>(0.3 + 0.5 * std::sin(2 * std::numbers::pi * 440.0 * t) + 0.3 * std::sin(2 * std::numbers::pi * 7000.0 * t + 1.0) +
                                  noise(random));
    }
    x[length / 3] += 4.0f;
    return x;
}

/// y[n] = sum_k h[k] x[n-k] in double, zeros before the start.
inline std::vector<double> naiveFir(const std::vector<double>& h, const std::vector<float>& x) {
    std::vector<double> y(x.size(), 0.0);
    for (std::size_t n = 0; n < x.size(); ++n) {
        for (std::size_t k = 0; k < h.size() && k <= n; ++k) y[n] += h[k] * x[n - k];
    }
    return y;
}

/// Each section [b0, b1, b2, a0, a1, a2] in direct form I, in double, one after the other.
inline std::vector<double> naiveSos(const std::vector<std::vector<double>>& sos, const std::vector<float>& x) {
    std::vector<double> signal(x.begin(), x.end());
    for (const auto& s : sos) {
        std::vector<double> y(signal.size(), 0.0);
        for (std::size_t n = 0; n < signal.size(); ++n) {
            const double x1 = n >= 1 ? signal[n - 1] : 0.0, x2 = n >= 2 ? signal[n - 2] : 0.0;
            const double y1 = n >= 1 ? y[n - 1] : 0.0, y2 = n >= 2 ? y[n - 2] : 0.0;
            y[n] = (s[0] * signal[n] + s[1] * x1 + s[2] * x2 - s[4] * y1 - s[5] * y2) / s[3];
        }
        signal = std::move(y);
    }
    return signal;
}

/// How a test signal is cut into segments.
enum class Split { Whole, Blocks, RandomPieces };

/// `samples` (starting at index `start`, rate `rateHz`) through `type` with `params` (a JSON object),
/// cut as `split` says (RandomPieces: random lengths, some segments made of two storage pieces).
/// Returns the output samples; checks that the output segments keep the input's indices and timebase.
inline std::vector<float> runFilter(const std::string& type, const nlohmann::json& params, const std::vector<float>& samples,
                                    Split split, double rateHz = 48000.0, std::int64_t start = 0, std::uint32_t seed = 7) {
    const Timebase& timebase = Timebase::get(rateHz);
    std::mt19937 random(seed);
    std::uniform_int_distribution<std::size_t> length(1, 3000);
    FeedScript script;
    for (std::size_t at = 0; at < samples.size();) {
        std::size_t n = split == Split::Whole ? samples.size() : split == Split::Blocks ? 1024 : length(random);
        n = std::min(n, samples.size() - at);
        const std::vector<float> part(samples.begin() + static_cast<std::ptrdiff_t>(at), samples.begin() + static_cast<std::ptrdiff_t>(at + n));
        SigSeg<float> segment;
        if (split == Split::RandomPieces && n >= 2 && random() % 2 == 0) {
            const std::size_t half = n / 2;
            segment = SigSeg<float>::concat(
                makeSignal({part.begin(), part.begin() + static_cast<std::ptrdiff_t>(half)}, start + static_cast<std::int64_t>(at), timebase),
                makeSignal({part.begin() + static_cast<std::ptrdiff_t>(half), part.end()}, start + static_cast<std::int64_t>(at + half), timebase));
        } else {
            segment = makeSignal(part, start + static_cast<std::int64_t>(at), timebase);
        }
        script.batches.push_back({{0, Item::signal(segment)}, {0, Item::progress(segment.endTime())}});
        at += n;
    }
    feedScripts()["filter"] = script;
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "filter"}}}},
                   {{"id", "filter"}, {"type", type}, {"params", params}},
                   {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "filtered"}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "filter.in"}}, {{"from", "filter.out"}, {"to", "sink.in0"}}}}};
    const RunOutcome outcome = runGraph(graph.dump());
    for (const auto& failure : outcome.failures) FAIL(failure);
    REQUIRE(outcome.completed);
    std::vector<float> out;
    std::int64_t expected = start;
    for (const Item& item : collections()["filtered"].items[0]) {
        REQUIRE(item.kind() == ItemKind::Signal);
        CHECK(item.segment().timebase() == &timebase);
        CHECK(item.segment().startIndex() == expected);
        expected = item.segment().endIndex();
        for (float v : samplesOf(item)) out.push_back(v);
    }
    feedScripts().clear();
    collections().clear();
    return out;
}

/// The largest |got - want|, relative to the largest |want| (at least 1).
inline double relativeError(const std::vector<float>& got, const std::vector<double>& want) {
    REQUIRE(got.size() == want.size());
    double worst = 0.0, scale = 1.0;
    for (std::size_t n = 0; n < want.size(); ++n) {
        worst = std::max(worst, std::abs(static_cast<double>(got[n]) - want[n]));
        scale = std::max(scale, std::abs(want[n]));
    }
    return worst / scale;
}

}  // namespace isochron::test
