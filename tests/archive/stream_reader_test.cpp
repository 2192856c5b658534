// StreamReader's get over live and stored data while an ArchiveWriter keeps recording: the test
// thread is the recording (engine) thread and pushes random samples (the reference) with two
// dropouts; a commit trigger holds the writer thread still on request, so what is committed and what
// is only in memory is fixed while the reader reads (no sleeps). Any must give the reference exactly
// across the boundary, dropouts and the unrecorded tail as gaps; Stored and Live their own parts.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

#include "engine/archive/archive_writer.h"
#include "engine/archive/live_streams.h"
#include "engine/archive/stream_reader.h"
#include "tests/support/commit_gate.h"
#include "tests/support/test_files.h"

using namespace isochron;

namespace {

using isochron::test::CommitGate;
using isochron::test::GateReleaser;
using isochron::test::TempFolder;

constexpr int kChannels = 2;
constexpr double kRate = 1000;
constexpr std::int64_t kMaxPiece = 200;
constexpr std::int64_t kLiveSamples = 1500;
/// Dropouts: nothing of them is ever pushed. The first ends up stored, the second live.
constexpr std::pair<std::int64_t, std::int64_t> kDropouts[] = {{1000, 1300}, {4200, 4500}};

const Timebase& recordedTimebase() { return Timebase::get(kRate, 424242, Clock::named("device:stream-reader-test")); }

using Stretches = std::vector<std::pair<std::int64_t, std::int64_t>>;

/// What was pushed of [l, h) (every stretch outside the dropouts below `pushedEnd`).
Stretches recorded(std::int64_t l, std::int64_t h, std::int64_t pushedEnd) {
    Stretches stretches;
    std::int64_t from = l;
    for (auto [start, end] : kDropouts) {
        if (std::min(start, h) > from) stretches.emplace_back(from, std::min({start, h, pushedEnd}));
        from = std::max(from, end);
    }
    if (std::min(h, pushedEnd) > from) stretches.emplace_back(from, std::min(h, pushedEnd));
    std::erase_if(stretches, [](auto stretch) { return stretch.first >= stretch.second; });
    return stretches;
}

/// Checks `pieces` (one channel, from `part`) cover [l, h) in order, that stored ones match the
/// reference on the recorded timebase, and returns the stretches that hold samples (adjacent merged).
Stretches checkPieces(const std::vector<ArchivedPiece>& pieces, const std::vector<float>& reference, std::int64_t l, std::int64_t h) {
    std::int64_t next = l;
    Stretches held;
    for (const ArchivedPiece& piece : pieces) {
        REQUIRE(piece.start == next);
        REQUIRE(piece.length > 0);
        next = piece.end();
        if (piece.isGap()) continue;
        REQUIRE(piece.samples.timebase() == &recordedTimebase());
        REQUIRE(piece.samples.startIndex() == piece.start);
        REQUIRE(piece.samples.length() == piece.length);
        std::vector<float> samples;
        piece.samples.forEachSpan([&](std::span<const float> run) { samples.insert(samples.end(), run.begin(), run.end()); });
        REQUIRE(std::equal(samples.begin(), samples.end(), reference.begin() + piece.start));
        if (!held.empty() && held.back().second == piece.start) held.back().second = piece.end();
        else held.emplace_back(piece.start, piece.end());
    }
    REQUIRE(next == h);
    return held;
}

/// One past the last stored sample the reader sees of `channel`.
std::int64_t storedEnd(const std::vector<ArchivedPiece>& pieces) {
    std::int64_t end = 0;
    for (const ArchivedPiece& piece : pieces) {
        if (!piece.isGap()) end = piece.end();
    }
    return end;
}

}  // namespace

TEST_CASE("StreamReader gets an interval across live and stored data while recording goes on, gaps as gaps", "[archive][live]") {
    std::mt19937 random(1313);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::uniform_int_distribution<std::int64_t> pieceLength(1, kMaxPiece);
    constexpr std::int64_t kTotal = 7000;
    std::vector<std::vector<float>> reference(kChannels, std::vector<float>(kTotal));
    for (auto& channel : reference) {
        for (float& sample : channel) sample = value(random);
    }
    TempFolder folder;
    const std::string path = folder.file("live.sqlite");
    ArchivedStreamInfo info;
    info.name = "array";
    info.rateHz = kRate;
    info.zeroTimeNs = recordedTimebase().zeroTimeNs();
    info.clock = recordedTimebase().clock().name();
    info.channels = kChannels;
    CommitGate gate;
    ArchiveWriter::Options options;
    options.commitNs = 2'000'000'000;  // 2000 samples of data per transaction (or 2 s of wall time)
    options.liveSamples = kLiveSamples;
    options.trigger = [&](const CommittedInterval& interval) { gate.trigger(interval); };
    ArchiveWriter writer(std::make_unique<ArchiveStore>(path, ArchiveAccess::Record), info, options);
    const std::shared_ptr<void> published = LiveStreams::instance().publish(path, "array", writer.liveWindow());
    const GateReleaser releaseOnExit{gate};

    // Pushes [from, to) of every channel outside the dropouts, in random pieces, channels interleaved.
    std::vector<std::int64_t> pushed(kChannels, 0);
    const auto push = [&](std::int64_t to) {
        for (bool more = true; more;) {
            more = false;
            for (int c = 0; c < kChannels; ++c) {
                std::int64_t& at = pushed[static_cast<std::size_t>(c)];
                for (auto [start, end] : kDropouts) {
                    if (at >= start && at < end) at = end;
                }
                if (at >= to) continue;
                std::int64_t length = std::min(pieceLength(random), to - at);
                for (auto [start, end] : kDropouts) {
                    if (at < start) length = std::min(length, start - at);
                }
                const std::span<const float> samples(reference[static_cast<std::size_t>(c)].data() + at, static_cast<std::size_t>(length));
                REQUIRE(writer.pushSamples(c, at, SigSeg<float>::copyOf(samples, at, &recordedTimebase())));
                at += length;
                more = true;
            }
        }
    };

    push(2500);
    writer.flush();  // [0, 2500) committed
    {
        std::lock_guard lock(gate.mutex);
        gate.holding = true;
    }
    push(6000);
    gate.awaitHeld();  // a commit of part of [2500, 6000) happened; the writer waits, the rest stays queued
    push(kTotal);      // recording goes on meanwhile

    StreamReader reader(path);
    constexpr std::int64_t l = 500;
    constexpr std::int64_t h = 7500;  // past what was pushed: the tail is a gap
    for (int c = 0; c < kChannels; ++c) {
        INFO("channel " << c);
        const std::vector<float>& samples = reference[static_cast<std::size_t>(c)];
        const std::vector<ArchivedPiece> stored = reader.get("array", c, l, h, StreamPart::Stored);
        const std::int64_t committed = storedEnd(stored);
        CHECK(committed >= 2500);
        CHECK(committed <= gate.interval.end);
        CHECK(committed < kTotal);
        CHECK(checkPieces(stored, samples, l, h) == recorded(l, h, committed));

        const std::vector<ArchivedPiece> any = reader.get("array", c, l, h, StreamPart::Any);
        CHECK(checkPieces(any, samples, l, h) == recorded(l, h, kTotal));
        for (const ArchivedPiece& piece : any) {
            if (piece.isGap()) continue;
            if (piece.origin == PieceOrigin::Stored) CHECK(piece.end() <= committed);
            else CHECK(piece.start >= committed);
        }

        const std::vector<ArchivedPiece> live = reader.get("array", c, l, h, StreamPart::Live);
        const Stretches liveHeld = checkPieces(live, samples, l, h);
        REQUIRE_FALSE(liveHeld.empty());
        const std::int64_t liveStart = liveHeld.front().first;
        // Seamless: the live window reaches back at least to what is committed...
        CHECK(liveStart <= committed);
        CHECK(liveHeld == recorded(liveStart, h, kTotal));
        // ...and is bounded: at the commit, committed pieces more than kLiveSamples older than the
        // newest (which was at least the committed end) were dropped.
        CHECK(liveStart > committed - kLiveSamples - kMaxPiece);
    }

    gate.release();
    writer.flush();
    for (int c = 0; c < kChannels; ++c) {
        INFO("channel " << c << ", everything committed");
        const std::vector<float>& samples = reference[static_cast<std::size_t>(c)];
        CHECK(checkPieces(reader.get("array", c, l, h, StreamPart::Stored), samples, l, h) == recorded(l, h, kTotal));
        const std::vector<ArchivedPiece> any = reader.get("array", c, l, h, StreamPart::Any);
        CHECK(checkPieces(any, samples, l, h) == recorded(l, h, kTotal));
        for (const ArchivedPiece& piece : any) CHECK(piece.origin == PieceOrigin::Stored);
        const Stretches liveHeld = checkPieces(reader.get("array", c, l, h, StreamPart::Live), samples, l, h);
        REQUIRE_FALSE(liveHeld.empty());
        CHECK(liveHeld.front().first <= kTotal - kLiveSamples);
        CHECK(liveHeld.front().first > kTotal - kLiveSamples - kMaxPiece);
    }
    CHECK_THROWS_WITH(reader.get("array", kChannels, l, h), Catch::Contains("no channel 2"));
}

TEST_CASE("StreamReader gets items across live and stored data, each once, while recording goes on", "[archive][live]") {
    TempFolder folder;
    const std::string path = folder.file("items.sqlite");
    const Timebase& timebase = Timebase::get(100);
    ArchivedStreamInfo info;
    info.name = "detections";
    info.kind = ArchivedStreamInfo::Kind::Items;
    info.rateHz = timebase.rateHz();
    info.sampleType = "json";
    CommitGate gate;
    ArchiveWriter::Options options;
    options.commitNs = 1'000'000'000;  // 100 samples of item time per transaction
    options.liveSamples = 0;           // only what is not committed stays in memory
    options.trigger = [&](const CommittedInterval& interval) { gate.trigger(interval); };
    ArchiveWriter writer(std::make_unique<ArchiveStore>(path, ArchiveAccess::Record), info, options);
    const std::shared_ptr<void> published = LiveStreams::instance().publish(path, "detections", writer.liveWindow());
    const GateReleaser releaseOnExit{gate};

    // Two items share each start (the order among equals is kept), 10 samples apart.
    std::vector<ArchivedItem> reference;
    for (int i = 0; i < 120; ++i) reference.push_back({10 * (i / 2), 3, "{\"n\":" + std::to_string(i) + "}"});
    const auto push = [&](int from, int to) {
        for (int i = from; i < to; ++i) REQUIRE(writer.pushItem(reference[i].start, reference[i].length, reference[i].json));
    };
    const auto same = [](const std::vector<ArchivedItem>& got, std::vector<ArchivedItem> expected) {
        REQUIRE(got.size() == expected.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            INFO("item " << i);
            CHECK(got[i].start == expected[i].start);
            CHECK(got[i].length == expected[i].length);
            CHECK(got[i].json == expected[i].json);
        }
    };

    push(0, 20);
    writer.flush();
    {
        std::lock_guard lock(gate.mutex);
        gate.holding = true;
    }
    push(20, 80);
    gate.awaitHeld();
    push(80, 120);

    StreamReader reader(path);
    const std::vector<ArchivedItem> stored = reader.getItems("detections", 0, 10000, StreamPart::Stored);
    REQUIRE(stored.size() >= 20);
    REQUIRE(stored.size() < 120);
    same(stored, {reference.begin(), reference.begin() + static_cast<std::ptrdiff_t>(stored.size())});
    // With liveSamples 0 the window holds exactly the uncommitted items.
    same(reader.getItems("detections", 0, 10000, StreamPart::Live), {reference.begin() + static_cast<std::ptrdiff_t>(stored.size()), reference.end()});
    same(reader.getItems("detections", 0, 10000, StreamPart::Any), reference);
    same(reader.getItems("detections", 100, 300, StreamPart::Any), {reference.begin() + 20, reference.begin() + 60});

    gate.release();
    writer.flush();
    same(reader.getItems("detections", 0, 10000, StreamPart::Stored), reference);
    same(reader.getItems("detections", 0, 10000, StreamPart::Any), reference);
    CHECK(reader.getItems("detections", 0, 10000, StreamPart::Live).empty());
}

TEST_CASE("StreamReader with no recorder live reads the archive; Live is one gap", "[archive][live]") {
    TempFolder folder;
    const std::string path = folder.file("stored.sqlite");
    const Timebase& timebase = Timebase::get(kRate);
    {
        ArchiveStore store(path, ArchiveAccess::Record);
        ArchivedStreamInfo info;
        info.name = "mic";
        info.rateHz = kRate;
        const std::int64_t id = store.openStream(info);
        const std::vector<float> samples(100, 0.25f);
        store.appendSamples(id, 0, 50, samples);
        store.commit();
    }
    StreamReader reader(path);
    const std::vector<ArchivedPiece> any = reader.get("mic", 0, 0, 200);
    REQUIRE(any.size() == 3);
    CHECK((any[0].isGap() && any[0].start == 0 && any[0].length == 50));
    CHECK((!any[1].isGap() && any[1].start == 50 && any[1].length == 100 && any[1].samples.timebase() == &timebase));
    CHECK((any[2].isGap() && any[2].start == 150 && any[2].length == 50));
    const std::vector<ArchivedPiece> live = reader.get("mic", 0, 0, 200, StreamPart::Live);
    REQUIRE(live.size() == 1);
    CHECK((live[0].isGap() && live[0].start == 0 && live[0].length == 200));
    CHECK_THROWS_WITH(reader.get("nothing", 0, 0, 200), Catch::Contains("holds no stream 'nothing'"));
}
