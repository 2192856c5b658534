// Helpers for the spatial family's tests: feed multichannel events (as segments.sync emits them)
// into spatial operators through the real engine, and cut events out of simulated recordings.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/support/acoustic_simulator.h"
#include "tests/support/graph_run.h"

namespace isochron::test {

/// One multichannel event: channels[m] holds mic m's samples from `startIndex`.
struct ArrayEvent {
    std::vector<std::vector<float>> channels;
    std::int64_t startIndex = 0;
};

/// A segment of `samples` from `startIndex` built from random pieces (several storage blocks).
inline SigSeg<float> piecewiseSignal(const std::vector<float>& samples, std::int64_t startIndex, const Timebase& timebase,
                                     std::mt19937& random) {
    SigSeg<float> whole;
    std::size_t done = 0;
    while (done < samples.size()) {
        std::uniform_int_distribution<std::size_t> pieceLength(1, std::max<std::size_t>(1, samples.size() / 3));
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

/// A feed script emitting each event's channels on outputs 0 .. M-1: one batch per event, the
/// channels in `channelOrder` (default 0 .. M-1), each as one piece or (`random` given) several.
inline FeedScript arrayEventScript(const std::vector<ArrayEvent>& events, const Timebase& timebase,
                                   std::mt19937* random = nullptr, const std::vector<int>& channelOrder = {}) {
    FeedScript script;
    script.outputs = static_cast<int>(events.front().channels.size());
    for (const ArrayEvent& event : events) {
        script.batches.emplace_back();
        for (int i = 0; i < script.outputs; ++i) {
            const int m = channelOrder.empty() ? i : channelOrder[static_cast<std::size_t>(i)];
            const auto& samples = event.channels[static_cast<std::size_t>(m)];
            SigSeg<float> segment = random ? piecewiseSignal(samples, event.startIndex, timebase, *random)
                                           : makeSignal(samples, event.startIndex, timebase);
            script.batches.back().push_back({m, Item::signal(segment)});
        }
    }
    return script;
}

/// The graph feed("array", M outputs) -> bus -> each of `nodes` (id -> {type, params}) -> its own
/// collector named after the node id (one input, the node's `outputPort`).
inline std::string arrayGraph(int channels, const std::vector<std::pair<std::string, nlohmann::json>>& nodes,
                              const std::string& outputPort) {
    nlohmann::json graphNodes = nlohmann::json::array(
        {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "array"}, {"outputs", channels}}}}});
    nlohmann::json edges = nlohmann::json::array();
    for (const auto& [id, node] : nodes) {
        graphNodes.push_back({{"id", id}, {"type", node["type"]}, {"params", node["params"]}});
        graphNodes.push_back({{"id", id + "_sink"}, {"type", "test.collect"}, {"params", {{"name", id}}}});
        edges.push_back({{"from", "feed.out*"}, {"to", id + ".in*"}});
        edges.push_back({{"from", id + "." + outputPort}, {"to", id + "_sink.in0"}});
    }
    return nlohmann::json{{"format", "isochron-graph/1"}, {"nodes", graphNodes}, {"edges", edges}}.dump();
}

/// Samples [start, start + length) of every channel of a simulated recording.
inline ArrayEvent cutEvent(const std::vector<std::vector<float>>& recording, std::int64_t start, std::int64_t length) {
    ArrayEvent event;
    event.startIndex = start;
    for (const auto& channel : recording) {
        event.channels.emplace_back(channel.begin() + start, channel.begin() + start + length);
    }
    return event;
}

/// The value of event attribute `name` (fails the test if missing).
inline double attribute(const Item& item, const std::string& name) {
    const auto value = item.event()->get(name);
    REQUIRE(value.has_value());
    return *value;
}

/// A scene per direction: a source `signal` 3 m away (1.5 m in a room) at each of `directions`,
/// onset at sample 2048 of 8192, `snrDb` of noise, optional room; each cut to samples [1024, 5120)
/// and placed at its own index in one stream (event i starts at i * 8192 + 1024). Seeds follow i.
inline std::vector<ArrayEvent> simulateDirections(const ArrayGeometry& geometry, const std::vector<LookDirection>& directions,
                                                  double snrDb, const std::optional<ShoeboxRoom>& room,
                                                  const SourceSignal& signal, double rateHz = 48000.0) {
    std::vector<ArrayEvent> events;
    for (std::size_t i = 0; i < directions.size(); ++i) {
        Scene scene;
        scene.geometry = geometry;
        scene.rateHz = rateHz;
        scene.lengthSamples = 8192;
        scene.snrDb = snrDb;
        scene.room = room;
        scene.noiseSeed = 1000 + i;
        SimulatedEvent event;
        event.azimuthDegrees = directions[i].azimuthDegrees;
        event.elevationDegrees = directions[i].elevationDegrees;
        event.distanceMetres = room ? 1.5 : 3.0;
        event.onsetSample = 2048;
        event.signal = signal;
        event.signal.seed = 2000 + i;
        scene.events = {event};
        ArrayEvent cut = cutEvent(simulateScene(scene), 1024, 4096);
        cut.startIndex = static_cast<std::int64_t>(i) * 8192 + 1024;
        events.push_back(std::move(cut));
    }
    return events;
}

/// The p-quantile (0..1, nearest rank) of `values`.
inline double quantile(std::vector<double> values, double p) {
    std::sort(values.begin(), values.end());
    const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
    return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

}  // namespace isochron::test
