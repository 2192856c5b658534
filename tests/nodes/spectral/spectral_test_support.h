// Helpers for the spectral family's tests: run one operator over scripted items, build windows from
// several storage pieces, and independent double-precision references.
#pragma once

#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/graph_run.h"

namespace isochron::test {

/// What one run of a single operator gave: the engine's outcome and the items of each output.
struct NodeRun {
    RunOutcome outcome;
    std::vector<std::vector<Item>> outputs;  // [output][i]
};

/// Runs feed -> node "op" of `nodeType` with `params` -> collect. The feed's port type is
/// `inputType` and it emits one item of `inputs` per batch into input port `inputPort`; the collector
/// takes the node's `outputPorts`. Throws GraphException when the graph cannot start.
inline NodeRun runNode(const std::string& nodeType, const nlohmann::json& params, const std::string& inputType,
                       const std::string& inputPort, const std::vector<std::string>& outputPorts,
                       const std::vector<Item>& inputs, const std::string& scheduler = "df") {
    nlohmann::json edges = nlohmann::json::array({{{"from", "feed.out0"}, {"to", "op." + inputPort}}});
    for (std::size_t i = 0; i < outputPorts.size(); ++i) {
        edges.push_back({{"from", "op." + outputPorts[i]}, {"to", "sink.in" + std::to_string(i)}});
    }
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         nlohmann::json::array({{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "spectral"}, {"type", inputType}}}},
          {{"id", "op"}, {"type", nodeType}, {"params", params.is_null() ? nlohmann::json::object() : params}},
          {{"id", "sink"},
           {"type", "test.collect"},
           {"params", {{"name", "spectral"}, {"inputs", static_cast<int>(outputPorts.size())}}}}})},
        {"edges", edges}};
    FeedScript script;
    for (const Item& item : inputs) script.batches.push_back({{0, item}});
    feedScripts()["spectral"] = script;
    NodeRun run;
    try {
        run.outcome = runGraph(graph.dump(), scheduler);
    } catch (...) {
        feedScripts().clear();
        collections().clear();
        throw;
    }
    run.outputs = collections()["spectral"].items;
    feedScripts().clear();
    collections().clear();
    return run;
}

/// `count` samples uniform in [-1, 1).
inline std::vector<float> randomSamples(std::size_t count, std::mt19937& random) {
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> samples(count);
    for (float& s : samples) s = uniform(random);
    return samples;
}

/// A segment holding `samples` from `startIndex`, assembled by SigSeg::append from pieces of random
/// lengths (each in its own block), so that it spans several storage pieces.
inline SigSeg<float> randomlySplit(const std::vector<float>& samples, std::int64_t startIndex, const Timebase& timebase,
                                   std::mt19937& random) {
    SigSeg<float> whole;
    std::size_t done = 0;
    while (done < samples.size()) {
        std::uniform_int_distribution<std::size_t> pieceLength(1, std::max<std::size_t>(1, (samples.size() - done + 1) / 2));
        const std::size_t take = std::min(pieceLength(random), samples.size() - done);
        std::vector<float> piece(samples.begin() + static_cast<std::ptrdiff_t>(done),
                                 samples.begin() + static_cast<std::ptrdiff_t>(done + take));
        SigSeg<float> next = makeSignal(piece, startIndex + static_cast<std::int64_t>(done), timebase);
        if (whole.empty()) whole = next;
        else whole.append(next);
        done += take;
    }
    return whole;
}

/// The textbook periodic window ("none", "hann", "hamming", "blackman") of `length` samples, in double:
/// w[n] = a0 - a1 cos(2 pi n / L) + a2 cos(4 pi n / L); a one-sample window is 1.
inline std::vector<double> referenceWindow(const std::string& name, std::size_t length) {
    double a0 = 1.0, a1 = 0.0, a2 = 0.0;
    if (name == "hann") a0 = 0.5, a1 = 0.5;
    if (name == "hamming") a0 = 0.54, a1 = 0.46;
    if (name == "blackman") a0 = 0.42, a1 = 0.5, a2 = 0.08;
    std::vector<double> w(length, 1.0);
    if (length == 1) return w;
    for (std::size_t n = 0; n < length; ++n) {
        const double x = 2.0 * std::numbers::pi * static_cast<double>(n) / static_cast<double>(length);
        w[n] = a0 - a1 * std::cos(x) + a2 * std::cos(2.0 * x);
    }
    return w;
}

/// Bins 0 .. N/2 of the O(N^2) DFT X_k = sum_n x_n e^(-2 pi i k n / N) of `x` zero-padded to `size`.
inline std::vector<std::complex<double>> referenceDft(const std::vector<double>& x, std::size_t size) {
    std::vector<std::complex<double>> bins(size / 2 + 1);
    for (std::size_t k = 0; k < bins.size(); ++k) {
        std::complex<double> sum = 0.0;
        for (std::size_t n = 0; n < x.size(); ++n) {
            // k n mod N keeps the angle small, so the reference stays exact for large N.
            const double angle = -2.0 * std::numbers::pi * static_cast<double>((k * n) % size) / static_cast<double>(size);
            sum += x[n] * std::complex<double>(std::cos(angle), std::sin(angle));
        }
        bins[k] = sum;
    }
    return bins;
}

/// The complex values of a frame<c32> item.
inline std::vector<std::complex<float>> binsOf(const Item& item) {
    std::vector<std::complex<float>> bins;
    for (std::complex<float> bin : item.signal<std::complex<float>>()) bins.push_back(bin);
    return bins;
}

}  // namespace isochron::test
