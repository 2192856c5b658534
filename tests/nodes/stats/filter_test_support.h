// Shared by the stats filter tests: segments with chosen statistics and their reference values.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "tests/support/graph_run.h"

namespace isochron::test {

/// A float segment of `count` samples with roughly the given mean and stddev, made of several
/// separately allocated pieces when `pieces` > 1 (so statistics must walk the pieces).
inline SigSeg<float> segmentWithStatistics(std::int64_t start, std::size_t count, double mean, double stddev,
                                           int pieces, std::mt19937& random) {
    const Timebase& tb = Timebase::get(8000);
    std::normal_distribution<double> gaussian(mean, stddev);
    std::vector<float> samples(count);
    for (auto& s : samples) s = static_cast<float>(gaussian(random));
    SigSeg<float> segment;
    const std::size_t perPiece = std::max<std::size_t>(1, count / static_cast<std::size_t>(pieces));
    for (std::size_t at = 0; at < count; at += perPiece) {
        const std::size_t take = std::min(perPiece, count - at);
        std::vector<float> piece(samples.begin() + static_cast<std::ptrdiff_t>(at),
                                 samples.begin() + static_cast<std::ptrdiff_t>(at + take));
        segment.append(makeSignal(piece, start + static_cast<std::int64_t>(at), tb));
    }
    return segment;
}

/// Mean and population stddev of a segment, by a naive double-precision two-pass loop.
struct ReferenceStatistics {
    double mean = NAN;
    double stddev = NAN;
};

inline ReferenceStatistics referenceStatistics(const SigSeg<float>& segment) {
    if (segment.empty()) return {};
    double sum = 0;
    for (float s : segment) sum += s;
    const double mean = sum / double(segment.length());
    double squares = 0;
    for (float s : segment) squares += (s - mean) * (s - mean);
    return {mean, std::sqrt(squares / double(segment.length()))};
}

/// feed -> <filterType>(threshold, pass) -> collect, with the collection named "filtered".
inline std::string filterGraph(const std::string& filterType, double threshold, const std::string& pass) {
    return R"({"format": "isochron-graph/1", "nodes": [
      {"id": "feed", "type": "test.feed", "params": {"name": "filter"}},
      {"id": "filter", "type": ")" + filterType + R"(", "params": {"threshold": )" + std::to_string(threshold) +
           R"(, "pass": ")" + pass + R"("}},
      {"id": "sink", "type": "test.collect", "params": {"name": "filtered"}}],
      "edges": [{"from": "feed.out0", "to": "filter.in"}, {"from": "filter.out", "to": "sink.in0"}]})";
}

}  // namespace isochron::test
