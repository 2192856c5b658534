// Test helpers for operators over several signals: channels cut at random points (each channel
// differently) and fed interleaved with progress, and the collected samples put back together.
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/support/graph_run.h"

namespace isochron::test {

/// `count` samples of uniform noise in [-amplitude, amplitude].
inline std::vector<float> noise(std::size_t count, std::uint32_t seed, float amplitude = 1.0f) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> uniform(-amplitude, amplitude);
    std::vector<float> samples(count);
    for (float& s : samples) s = uniform(random);
    return samples;
}

/// A feed script with one output per channel: each channel cut into segments of 1..maxPiece samples
/// at random points, the pieces of all channels sent in a random interleaving, each batch followed
/// by progress up to the smallest end any channel has reached.
inline FeedScript randomlySplit(const std::vector<std::vector<float>>& channels, const Timebase& timebase, std::uint32_t seed,
                                std::int64_t maxPiece = 700) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<std::int64_t> pieceLength(1, maxPiece);
    FeedScript script;
    script.outputs = static_cast<int>(channels.size());
    std::vector<std::int64_t> sent(channels.size(), 0);
    for (;;) {
        std::vector<std::size_t> open;
        for (std::size_t c = 0; c < channels.size(); ++c) {
            if (sent[c] < static_cast<std::int64_t>(channels[c].size())) open.push_back(c);
        }
        if (open.empty()) break;
        const std::size_t c = open[std::uniform_int_distribution<std::size_t>(0, open.size() - 1)(random)];
        const std::int64_t length = std::min(pieceLength(random), static_cast<std::int64_t>(channels[c].size()) - sent[c]);
        const std::vector<float> piece(channels[c].begin() + sent[c], channels[c].begin() + sent[c] + length);
        std::vector<std::pair<int, Item>> batch{{static_cast<int>(c), Item::signal(makeSignal(piece, sent[c], timebase))}};
        sent[c] += length;
        batch.push_back({0, Item::progress(timebase.timeOf(*std::min_element(sent.begin(), sent.end())))});
        script.batches.push_back(std::move(batch));
    }
    return script;
}

/// The samples of consecutive signal items, checking that each starts where the previous ended
/// (the first at `firstIndex`).
inline std::vector<float> contiguousSamples(const std::vector<Item>& items, std::int64_t firstIndex = 0) {
    std::vector<float> all;
    std::int64_t next = firstIndex;
    for (const Item& item : items) {
        REQUIRE(item.kind() == ItemKind::Signal);
        CHECK(item.segment().startIndex() == next);
        next = item.segment().endIndex();
        const std::vector<float> samples = samplesOf(item);
        all.insert(all.end(), samples.begin(), samples.end());
    }
    return all;
}

/// A graph: feed "name" with `feeds` outputs -> node `type` with `params` (JSON object text) -> a
/// collector "name" with `collected` inputs. Feed output k goes to the node's input `inputs[k]`, the
/// node's output `outputs[k]` to collector input k.
inline std::string throughOperator(const std::string& name, const std::string& type, const std::string& params,
                                   const std::vector<std::string>& inputs, const std::vector<std::string>& outputs) {
    std::string edges;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        edges += R"({"from": "feed.out)" + std::to_string(k) + R"(", "to": "op.)" + inputs[k] + R"("},)";
    }
    for (std::size_t k = 0; k < outputs.size(); ++k) {
        edges += R"({"from": "op.)" + outputs[k] + R"(", "to": "sink.in)" + std::to_string(k) + R"("},)";
    }
    edges.pop_back();
    return R"({"format": "isochron-graph/1", "nodes": [
        {"id": "feed", "type": "test.feed", "params": {"name": ")" + name + R"(", "outputs": )" + std::to_string(inputs.size()) + R"(}},
        {"id": "op", "type": ")" + type + R"(", "params": )" + params + R"(},
        {"id": "sink", "type": "test.collect", "params": {"name": ")" + name + R"(", "inputs": )" + std::to_string(outputs.size()) + R"(}}],
      "edges": [)" + edges + "]}";
}

}  // namespace isochron::test
