// io.archive_sink's committed output (a trigger for the graph): with committed_output 1 it emits an
// event "committed" over each stretch newly committed on every channel. The events follow one another
// without overlap from the first sample to the end, on the recorded timebase; when one reaches the
// next operator its stretch is already readable in the archive (checked by reading the file from a
// second ArchiveStore as each event arrives, by a probe operator downstream). A second recording into
// the same stream announces from where it began.
#include <catch2/catch.hpp>

#include <mutex>
#include <random>

#include "engine/archive/archive_store.h"
#include "engine/operators/operator.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

constexpr int kChannels = 2;
constexpr std::int64_t kTotal = 24000;

/// What test.committed_probe saw: each event, and whether its stretch was stored on every channel
/// when the event reached it.
struct Probed {
    Item event;
    bool stored = false;
};
std::mutex probedMutex;
std::vector<Probed> probed;

/// test.committed_probe: reads each arriving event's stretch of stream "array" (kChannels channels)
/// from the archive `path` with an ArchiveStore of its own.
class CommittedProbe final : public Operator {
protected:
    void process(int, Item&& item) override {
        ArchiveStore store(params().getString("path"), ArchiveAccess::Read);
        bool stored = true;
        for (int c = 0; c < kChannels; ++c) {
            for (const ArchivedPiece& piece : store.get("array", c, item.range().start, item.range().start + item.range().length)) {
                stored = stored && !piece.isGap();
            }
        }
        std::lock_guard lock(probedMutex);
        probed.push_back({std::move(item), stored});
    }
};

/// Adds test.committed_probe to the test registry (once).
void registerProbe() {
    if (testRegistry().find("test.committed_probe")) return;
    OperatorDescriptor d;
    d.typeName = "test.committed_probe";
    d.category = "test";
    d.summary = "Reads each event's stretch from an archive";
    d.inputs = {PortSpec{"in", PortType::event(), "committed events"}};
    d.params = {ParamSpec{"path", ParamKind::Path, std::string(), {}, {}, "", "archive"}};
    d.create = [] { return std::make_unique<CommittedProbe>(); };
    testRegistry().add(std::move(d));
}

const Timebase& recordedTimebase() { return Timebase::get(8000, 5550000, Clock::named("device:committed-output-test")); }

/// Both channels of [0, kTotal) in random pieces, each channel cut differently, so a commit can hold
/// one channel further than the other.
FeedScript twoChannels(std::mt19937& random, std::int64_t offset) {
    std::uniform_int_distribution<std::int64_t> pieceLength(1, 700);
    FeedScript script;
    script.outputs = kChannels;
    std::int64_t at[kChannels] = {offset, offset};
    while (at[0] < offset + kTotal || at[1] < offset + kTotal) {
        std::vector<std::pair<int, Item>> batch;
        for (int c = 0; c < kChannels; ++c) {
            if (at[c] >= offset + kTotal) continue;
            const std::int64_t length = std::min(pieceLength(random), offset + kTotal - at[c]);
            std::vector<float> samples(static_cast<std::size_t>(length));
            for (std::int64_t i = 0; i < length; ++i) samples[static_cast<std::size_t>(i)] = static_cast<float>((at[c] + i) % 1000) / 1000.0f + c;
            batch.push_back({c, Item::signal(makeSignal(samples, at[c], recordedTimebase()))});
            at[c] += length;
        }
        script.batches.push_back(std::move(batch));
    }
    return script;
}

}  // namespace

TEST_CASE("io.archive_sink's committed output announces each committed stretch as an event, in order", "[io][archive]") {
    registerProbe();
    std::mt19937 random(99);
    for (const std::string& scheduler : {std::string("df"), std::string("superbox-mc:workers=2")}) {
        INFO("scheduler " << scheduler);
        TempDir dir;
        const std::string path = dir.file("committed.sqlite");
        for (std::int64_t offset : {std::int64_t{0}, kTotal}) {  // a second recording appends to the stream
            INFO("recording from sample " << offset);
            feedScripts()["two"] = twoChannels(random, offset);
            const json graph = {
                {"format", "isochron-graph/1"},
                {"nodes",
                 {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "two"}, {"outputs", kChannels}}}},
                  {{"id", "rec"},
                   {"type", "io.archive_sink"},
                   {"params", {{"path", path}, {"stream", "array"}, {"channels", kChannels}, {"commit_s", 0.05}, {"committed_output", 1}}}},
                  {{"id", "probe"}, {"type", "test.committed_probe"}, {"params", {{"path", path}}}}}},
                {"edges",
                 {{{"from", "feed.out0"}, {"to", "rec.in0"}},
                  {{"from", "feed.out1"}, {"to", "rec.in1"}},
                  {{"from", "rec.committed0"}, {"to", "probe.in"}}}},
            };
            const RunOutcome outcome = runGraph(graph.dump(), scheduler);
            feedScripts().clear();
            REQUIRE(outcome.failures.empty());
            std::lock_guard lock(probedMutex);
            // How many events depends on how far the writer thread got while the feed ran (at the
            // latest, the final flush commits the rest): at least one, together covering everything.
            REQUIRE_FALSE(probed.empty());
            std::int64_t next = offset;
            for (const auto& [event, stored] : probed) {
                CHECK(stored);
                REQUIRE(event.kind() == ItemKind::Event);
                CHECK(std::string(event.event()->label()) == "committed");
                CHECK(event.range().timebase == &recordedTimebase());
                CHECK(event.range().start == next);
                CHECK(event.range().length > 0);
                next = event.range().start + event.range().length;
            }
            CHECK(next == offset + kTotal);
            probed.clear();
        }
    }
}
