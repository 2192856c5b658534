// Helpers for the frame-wise localization operators' tests: feed a multichannel recording in random
// pieces (each channel cut on its own) through a graph, and read the custom payloads that come out.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "tests/nodes/spatial/spatial_test_support.h"

namespace isochron::test {

/// A feed script emitting `recording` (channel m on output m) as segments of 1 .. maxPiece samples,
/// cut at random points per channel when `random` is given (else blocks of maxPiece); one batch per
/// round, each channel's next segment in it.
inline FeedScript recordingScript(const std::vector<std::vector<float>>& recording, const Timebase& timebase, std::mt19937* random,
                                  std::size_t maxPiece = 4096) {
    FeedScript script;
    script.outputs = static_cast<int>(recording.size());
    std::vector<std::size_t> done(recording.size(), 0);
    for (bool more = true; more;) {
        more = false;
        script.batches.emplace_back();
        for (std::size_t m = 0; m < recording.size(); ++m) {
            const std::size_t length = recording[m].size();
            if (done[m] >= length) continue;
            std::size_t take = maxPiece;
            if (random) take = std::uniform_int_distribution<std::size_t>(1, maxPiece)(*random);
            take = std::min(take, length - done[m]);
            const std::vector<float> piece(recording[m].begin() + static_cast<std::ptrdiff_t>(done[m]),
                                           recording[m].begin() + static_cast<std::ptrdiff_t>(done[m] + take));
            script.batches.back().push_back({static_cast<int>(m), Item::signal(makeSignal(piece, static_cast<std::int64_t>(done[m]), timebase))});
            done[m] += take;
            more = more || done[m] < length;
        }
    }
    return script;
}

/// Runs `graphJson` (a "test.feed" named "recording" with one output per channel, collectors named as
/// the caller chose) on `recording` under `scheduler`; the feed and collections are reset first.
inline void runOnRecording(const std::string& graphJson, const std::vector<std::vector<float>>& recording, double rateHz,
                           std::mt19937* random, const std::string& scheduler = "df", std::size_t maxPiece = 4096) {
    feedScripts().clear();
    collections().clear();
    feedScripts()["recording"] = recordingScript(recording, Timebase::get(rateHz), random, maxPiece);
    const RunOutcome outcome = runGraph(graphJson, scheduler);
    INFO((outcome.failures.empty() ? std::string() : outcome.failures.front()));
    REQUIRE(outcome.failures.empty());
}

/// The items collector `name` received on its input 0.
inline std::vector<Item> collected(const std::string& name) { return collections()[name].items.at(0); }

}  // namespace isochron::test
