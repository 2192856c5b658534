// The editor's side of the archive: "Record this wire" adds an io.archive_sink (one undo step, and
// back), and the timeline strip's model shows what the real io.archive_sink stored in a real SQLite
// file after a real run: stretches, gaps and event times, and says when the file is damaged.
#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QUrl>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <random>

#include "engine/archive/archive_store.h"
#include "engine/graph/graph_file.h"
#include "engine/items/event_record.h"
#include "tests/support/graph_run.h"
#include "ui/archive/archive_timeline.h"
#include "ui/archive/archive_timeline_model.h"
#include "ui/canvas/wire_curve.h"
#include "ui/model/edge_list_model.h"
#include "ui/model/node_list_model.h"
#include "ui/model/graph_document.h"

using namespace isochron;
using namespace isochron::ui;
using isochron::test::feedScripts;

namespace {

std::string text(const GraphDocument& document) { return serializeGraph(document.spec()); }

/// Runs the event loop until `done` (the reader thread's result arrives as a queued call), at most 20 s.
bool waitUntil(const std::function<bool()>& done) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < 20000) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return done();
}

/// Two signal outputs and an event output, each wired into a null sink.
void buildFeedGraph(GraphDocument& document) {
    document.addNode("test.feed", 0, 0);
    REQUIRE(document.setParameter("feed", "name", QString("timeline")).isEmpty());
    REQUIRE(document.setParameter("feed", "outputs", 2).isEmpty());
    document.addNode("test.feed", 0, 200);
    REQUIRE(document.setParameter("feed_2", "name", QString("timeline-events")).isEmpty());
    REQUIRE(document.setParameter("feed_2", "type", QString("event")).isEmpty());
    for (const char* sink : {"a", "b", "c"}) {
        const QString id = document.addNode("io.null_sink", 400, 0);
        REQUIRE(document.renameNode(id, sink).isEmpty());
    }
    REQUIRE(document.connectPorts("feed", "out0", "a", "in").isEmpty());
    REQUIRE(document.connectPorts("feed", "out1", "b", "in").isEmpty());
    REQUIRE(document.connectPorts("feed_2", "out0", "c", "in").isEmpty());
}

}  // namespace

TEST_CASE("Record this wire adds an archive sink fed by the wire's output, one undo step each way", "[ui][archive]") {
    GraphDocument document(isochron::test::testRegistry(), nullptr);
    buildFeedGraph(document);
    const std::string before = text(document);
    const QString wire = "feed.out0>a.in";
    CHECK(document.recorderOf(wire).isEmpty());
    CHECK(document.defaultArchivePath() == "recording.archive.sqlite");

    const QString recorder = document.recordWire(wire);
    REQUIRE(recorder == "record_feed_out0");
    const NodeSpec* node = document.spec().findNode(recorder.toStdString());
    REQUIRE(node != nullptr);
    CHECK(node->type == "io.archive_sink");
    CHECK(node->params.at("path") == "recording.archive.sqlite");
    CHECK(node->params.at("stream") == "feed.out0");
    CHECK(node->params.at("channels") == 1);
    CHECK(document.spec().edges.back() == EdgeSpec{"feed", "out0", "record_feed_out0", "in0"});
    CHECK(document.valid());
    CHECK(document.undoText() == "Record feed.out0");
    const std::string recording = text(document);
    // Every wire from that output now says it is recorded, the recorder's own wire too.
    CHECK(document.recorderOf(wire) == recorder);
    CHECK(document.recorderOf("feed.out0>record_feed_out0.in0") == recorder);
    CHECK(document.recorderOf("feed.out1>b.in").isEmpty());
    CHECK(document.recordWire(wire).isEmpty());
    CHECK(document.lastError().contains("already recorded"));

    document.undo();
    CHECK(text(document) == before);
    document.redo();
    CHECK(text(document) == recording);

    CHECK_FALSE(document.toggleRecording(wire));  // stops
    CHECK(text(document) == before);
    CHECK(document.undoText() == "Stop recording feed.out0");
    document.undo();
    CHECK(text(document) == recording);
    CHECK_FALSE(document.stopRecordingWire("feed.out1>b.in"));
    CHECK(document.toggleRecording("feed.out1>b.in"));
    CHECK(document.recorderOf("feed.out1>b.in") == "record_feed_out1");
}

TEST_CASE("a recorder only counts when the output alone feeds it", "[ui][archive]") {
    GraphDocument document(isochron::test::testRegistry(), nullptr);
    buildFeedGraph(document);
    const QString sink = document.addNode("io.archive_sink", 600, 0);
    REQUIRE(document.setParameter(sink, "channels", 2).isEmpty());
    REQUIRE(document.connectPorts("feed", "out0", sink, "in0").isEmpty());
    REQUIRE(document.connectPorts("feed", "out1", sink, "in1").isEmpty());
    CHECK(document.recorderOf("feed.out0>a.in").isEmpty());  // a two-channel recording is the user's own
    CHECK_FALSE(document.stopRecordingWire("feed.out0>a.in"));
    CHECK(document.spec().findNode(sink.toStdString()) != nullptr);
}

TEST_CASE("the default archive sits beside the graph file, named after it", "[ui][archive]") {
    QTemporaryDir folder;
    GraphDocument document;
    document.addNode("generators.signal_generator", 0, 0);
    REQUIRE(document.saveAs(folder.filePath("night watch.isograph.json")));
    CHECK(document.defaultArchivePath() == "night watch.archive.sqlite");
    REQUIRE(document.saveAs(folder.filePath("plain.json")));
    CHECK(document.defaultArchivePath() == "plain.archive.sqlite");
}

TEST_CASE("combineCoverage splits an interval into all, some and no channels like a per-sample count", "[ui][archive]") {
    std::mt19937 random(1313);
    for (int round = 0; round < 300; ++round) {
        const int channelCount = 1 + static_cast<int>(random() % 4);
        constexpr std::int64_t kSpan = 200;
        std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> channels(static_cast<std::size_t>(channelCount));
        std::vector<int> count(kSpan, 0);
        for (auto& stretches : channels) {
            for (std::int64_t at = static_cast<std::int64_t>(random() % 20); at < kSpan;) {
                const std::int64_t end = std::min<std::int64_t>(kSpan, at + 1 + static_cast<std::int64_t>(random() % 40));
                stretches.emplace_back(at, end);
                for (std::int64_t i = at; i < end; ++i) ++count[static_cast<std::size_t>(i)];
                at = end + 1 + static_cast<std::int64_t>(random() % 30);
            }
        }
        const std::int64_t l = static_cast<std::int64_t>(random() % 50), h = kSpan - static_cast<std::int64_t>(random() % 50);
        const ChannelCoverage coverage = combineCoverage(channels, l, h);
        std::vector<char> seen(kSpan, '.');
        for (auto [list, mark] : {std::pair{&coverage.all, 'A'}, std::pair{&coverage.some, 'S'}, std::pair{&coverage.none, 'N'}}) {
            for (std::size_t i = 0; i < list->size(); ++i) {
                const auto [a, b] = (*list)[i];
                REQUIRE(a < b);
                if (i > 0) REQUIRE((*list)[i - 1].second < a);  // merged: no two touching spans
                for (std::int64_t s = a; s < b; ++s) {
                    REQUIRE(seen[static_cast<std::size_t>(s)] == '.');
                    seen[static_cast<std::size_t>(s)] = mark;
                }
            }
        }
        for (std::int64_t s = 0; s < kSpan; ++s) {
            INFO("round " << round << " sample " << s);
            const int c = count[static_cast<std::size_t>(s)];
            const char expected = s < l || s >= h ? '.' : c == channelCount ? 'A' : c > 0 ? 'S' : 'N';
            REQUIRE(seen[static_cast<std::size_t>(s)] == expected);
        }
    }
}

TEST_CASE("the timeline shows what io.archive_sink recorded from wires the editor set to record", "[ui][archive]") {
    const Timebase& timebase = Timebase::get(1000, 0, Clock::named("device:timeline-test"));
    constexpr std::int64_t kLength = 3000;
    // Channel 0 misses [1200, 1700), channel 1 misses [500, 600) and [2000, 2100); pieces of 100.
    auto missing = [](int channel, std::int64_t at) {
        return channel == 0 ? at >= 1200 && at < 1700 : (at >= 500 && at < 600) || (at >= 2000 && at < 2100);
    };
    isochron::test::FeedScript signals;
    signals.outputs = 2;
    for (std::int64_t at = 0; at < kLength; at += 100) {
        std::vector<std::pair<int, Item>> batch;
        for (int channel = 0; channel < 2; ++channel) {
            if (!missing(channel, at)) batch.push_back({channel, Item::signal(isochron::test::makeSignal(std::vector<float>(100, 0.25f * channel), at, timebase))});
        }
        signals.batches.push_back(std::move(batch));
    }
    isochron::test::FeedScript events;
    const std::vector<std::int64_t> eventStarts{40, 410, 415, 2990};
    for (std::int64_t start : eventStarts) {
        events.batches.push_back({{0, Item::event(EventRecord::create("clap"), SampleRange{&timebase, start, 5}, 1.0)}});
    }
    feedScripts()["timeline"] = signals;
    feedScripts()["timeline-events"] = events;

    QTemporaryDir folder;
    const QString archive = folder.filePath("session.archive.sqlite");
    GraphDocument document(isochron::test::testRegistry(), nullptr);
    buildFeedGraph(document);
    for (const QString& wire : {QStringLiteral("feed.out0>a.in"), QStringLiteral("feed.out1>b.in"), QStringLiteral("feed_2.out0>c.in")}) {
        const QString recorder = document.recordWire(wire);
        REQUIRE_FALSE(recorder.isEmpty());
        REQUIRE(document.setParameter(recorder, "path", archive).isEmpty());
    }
    const RunOutcome run = isochron::test::runGraph(text(document));
    feedScripts().clear();
    REQUIRE(run.failures.empty());

    ArchiveTimelineModel model;
    int loads = 0;
    QObject::connect(&model, &ArchiveTimelineModel::loaded, [&] { ++loads; });
    model.open(QUrl::fromLocalFile(archive).toString());
    CHECK(model.loading());
    REQUIRE(waitUntil([&] { return loads >= 1 && !model.loading() && !model.checking(); }));  // the lanes, then every page checked for damage
    CHECK_FALSE(model.loading());
    CHECK(model.error().isEmpty());
    CHECK(model.path() == archive);
    REQUIRE(model.rowCount() == 3);
    CHECK(model.axisStart() == 0.0);
    CHECK(model.axisEnd() == Approx(kLength / 1000.0));

    auto role = [&](const QString& stream, int r) {
        const int row = model.rowOf(stream);
        REQUIRE(row >= 0);
        return model.data(model.index(row), r);
    };
    auto spans = [](const QVariant& list) {
        std::vector<std::pair<double, double>> result;
        for (const QVariant& span : list.toList()) result.emplace_back(span.toMap()["start"].toDouble(), span.toMap()["end"].toDouble());
        return result;
    };
    using Spans = std::vector<std::pair<double, double>>;
    CHECK(role("feed.out0", ArchiveTimelineModel::KindRole) == "signal");
    CHECK(spans(role("feed.out0", ArchiveTimelineModel::StoredRole)) == Spans{{0.0, 1.2}, {1.7, 3.0}});
    CHECK(spans(role("feed.out0", ArchiveTimelineModel::GapsRole)) == Spans{{1.2, 1.7}});
    CHECK(spans(role("feed.out0", ArchiveTimelineModel::PartialRole)).empty());
    CHECK(spans(role("feed.out1", ArchiveTimelineModel::StoredRole)) == Spans{{0.0, 0.5}, {0.6, 2.0}, {2.1, 3.0}});
    CHECK(spans(role("feed.out1", ArchiveTimelineModel::GapsRole)) == Spans{{0.5, 0.6}, {2.0, 2.1}});
    CHECK(role("feed.out1", ArchiveTimelineModel::SummaryRole).toString().contains("2 gap(s)"));
    CHECK(role("feed_2.out0", ArchiveTimelineModel::KindRole) == "events");
    CHECK(role("feed_2.out0", ArchiveTimelineModel::EventCountRole).toDouble() == 4);
    std::vector<double> ticks;
    for (const QVariant& t : role("feed_2.out0", ArchiveTimelineModel::TicksRole).toList()) ticks.push_back(t.toDouble());
    CHECK(ticks == std::vector<double>{0.04, 0.41, 0.415, 2.99});

    // Replay an interval of a lane through the graph: the source takes over the recorded output's
    // wires (not its recorder's), in one undo step.
    const std::string recorded = text(document);
    const QString replay = document.replayArchive(archive, "feed.out0", "signal<f32>", 1, 0.5, 1.0, 0, 0);
    REQUIRE(replay == "replay_feed_out0");
    const NodeSpec* source = document.spec().findNode("replay_feed_out0");
    REQUIRE(source != nullptr);
    CHECK(source->type == "io.archive_source");
    CHECK(source->params.at("path") == archive.toStdString());  // untitled graph: the absolute path
    CHECK(source->params.at("stream") == "feed.out0");
    CHECK(source->params.at("from") == 0.5);
    CHECK(source->params.at("duration") == 1.0);
    auto has = [&](const EdgeSpec& edge) {
        return std::find(document.spec().edges.begin(), document.spec().edges.end(), edge) != document.spec().edges.end();
    };
    CHECK(has(EdgeSpec{"replay_feed_out0", "out0", "a", "in"}));
    CHECK_FALSE(has(EdgeSpec{"feed", "out0", "a", "in"}));
    CHECK(has(EdgeSpec{"feed", "out0", "record_feed_out0", "in0"}));
    CHECK(document.valid());
    CHECK(document.selection()->nodes() == QStringList{"replay_feed_out0"});
    document.undo();
    CHECK(text(document) == recorded);
    CHECK(document.replayArchive(archive, "feed.out0", "signal<f32>", 1, 0.5, 0, 0, 0).isEmpty());  // an empty interval

    // An event lane replays as events, on out0, taking over the event output's wire.
    CHECK(role("feed_2.out0", ArchiveTimelineModel::ItemKindRole) == "event");
    CHECK(role("feed.out0", ArchiveTimelineModel::ItemKindRole) == "");
    const QString eventReplay = document.replayArchive(archive, "feed_2.out0", "event", 1, 0.0, 3.0, 0, 0);
    REQUIRE(eventReplay == "replay_feed_2_out0");
    CHECK(document.spec().findNode("replay_feed_2_out0")->params.at("type") == "event");
    CHECK(has(EdgeSpec{"replay_feed_2_out0", "out0", "c", "in"}));
    CHECK(has(EdgeSpec{"feed_2", "out0", "record_feed_2_out0", "in0"}));
    CHECK(document.valid());
    document.undo();
    CHECK(text(document) == recorded);
    CHECK(document.replayArchive(archive, "feed_2.out0", "time_range", 1, 0.0, 3.0, 0, 0).isEmpty());
    CHECK(document.lastError().contains("time_range"));

    // The timeline reads the file as stored: a missing file is an error, the lanes stay empty.
    const int loadsBefore = loads;
    model.open(folder.filePath("no-such.sqlite"));
    REQUIRE(waitUntil([&] { return loads > loadsBefore && !model.loading(); }));  // one read: nothing to check when it fails
    CHECK_FALSE(model.checking());
    CHECK_FALSE(model.error().isEmpty());
    CHECK(model.rowCount() == 0);
}

TEST_CASE("recording a bus wire records all its ports as the channels of one stream", "[ui][archive]") {
    GraphDocument document;
    REQUIRE(document.open(ISOCHRON_SOURCE_DIR "/samples/localize-file.isograph.json"));
    CHECK(document.defaultArchivePath() == "localize-file.archive.sqlite");
    const QString bus = document.recordWire("source.out*>stft.in*");
    REQUIRE(bus == "record_source_out");
    const NodeSpec* node = document.spec().findNode("record_source_out");
    CHECK(node->params.at("channels") == 4);  // the four channels of the array recording
    CHECK(node->params.at("stream") == "source.out");
    CHECK(document.spec().edges.back() == EdgeSpec{"source", "out*", "record_source_out", "in*"});
    const QString events = document.recordWire("tracker.events>events.in");
    CHECK(events == "record_tracker_events");
    CHECK(document.valid());
    // Replaying the recorded bus takes over the bus wire, not the recorder's.
    const QString replay = document.replayArchive("/tmp/elsewhere/localize-file.archive.sqlite", "source.out", "signal<f32>", 4, 1.0, 0.5, 0, 0);
    REQUIRE(replay == "replay_source_out");
    CHECK(document.spec().findNode("replay_source_out")->params.at("path") == "/tmp/elsewhere/localize-file.archive.sqlite");
    CHECK(document.spec().edges.back() == EdgeSpec{"replay_source_out", "out*", "stft", "in*"});
    auto hasBus = [&](const EdgeSpec& edge) {
        return std::find(document.spec().edges.begin(), document.spec().edges.end(), edge) != document.spec().edges.end();
    };
    CHECK_FALSE(hasBus(EdgeSpec{"source", "out*", "stft", "in*"}));
    CHECK(hasBus(EdgeSpec{"source", "out*", "record_source_out", "in*"}));
    CHECK(document.valid());
    document.undo();
    CHECK(hasBus(EdgeSpec{"source", "out*", "stft", "in*"}));
    CHECK(document.recordWire("stft.spectra>activity.spectra").isEmpty());  // custom items: refused, saying why
    INFO(document.lastError().toStdString());
    CHECK(document.lastError().contains("stft.spectra carries custom<spatial.array_spectra>"));
}

TEST_CASE("in a graph with partitions, the recorder and the replay run on the rank of the output they stand by", "[ui][archive][partition]") {
    GraphDocument document;
    REQUIRE(document.open(ISOCHRON_SOURCE_DIR "/samples/scale-out-three-ranks.isograph.json"));
    // onsets runs on rank 1 and feeds the log on rank 2; rank 0 feeds rank 1.
    const QString recorder = document.recordWire("onsets.onsets>onset-log.in");
    REQUIRE(recorder == "record_onsets_onsets");
    CHECK(document.spec().findNode("record_onsets_onsets")->partition == std::optional<int>(1));
    CHECK(document.recordWire("clicks.out>highpass.in") == "record_clicks_out");
    CHECK(document.spec().findNode("record_clicks_out")->partition == std::optional<int>(0));
    document.undo();
    document.undo();

    GraphDocument unpartitioned(isochron::test::testRegistry(), nullptr);
    buildFeedGraph(unpartitioned);
    REQUIRE(unpartitioned.recordWire("feed.out0>a.in") == "record_feed_out0");
    CHECK_FALSE(unpartitioned.spec().findNode("record_feed_out0")->partition.has_value());  // the file stays without partitions

    // The replay takes over onsets' wire to rank 2 from rank 1, as onsets fed it.
    const QString replay = document.replayArchive("/tmp/elsewhere/x.archive.sqlite", "onsets.onsets", "event", 1, 0.0, 1.0, 0, 0);
    REQUIRE(replay == "replay_onsets_onsets");
    CHECK(document.spec().findNode("replay_onsets_onsets")->partition == std::optional<int>(1));
    CHECK(document.spec().edges.back() == EdgeSpec{"replay_onsets_onsets", "out0", "onset-log", "in"});
    // A stream no node of the graph stands for: no rank of its own to take.
    const QString elsewhere = document.replayArchive("/tmp/elsewhere/x.archive.sqlite", "array", "signal<f32>", 1, 0.0, 1.0, 0, 0);
    REQUIRE(!elsewhere.isEmpty());
    CHECK_FALSE(document.spec().findNode(elsewhere.toStdString())->partition.has_value());
}

TEST_CASE("a replay's wires pass under no node: none seems to feed the recorder beside the live node", "[ui][archive]") {
    // As a new user had it: voice -> onsets -> log in a row, voice's wire recorded (the recorder goes
    // below, between voice and onsets), then an interval of it replayed.
    GraphDocument document;
    const QString voice = document.addNode("generators.signal_generator", 0, 0);
    const QString onsets = document.addNode("level.onset_detector", 400, 0);
    const QString log = document.addNode("io.jsonl_event_sink", 800, 0);
    REQUIRE(document.connectPorts(voice, "out", onsets, "in").isEmpty());
    REQUIRE(document.connectPorts(onsets, "onsets", log, "in").isEmpty());
    const QString recorder = document.recordWire(voice + ".out>" + onsets + ".in");
    REQUIRE(!recorder.isEmpty());
    const QString replay = document.replayArchive("/tmp/elsewhere/x.archive.sqlite", voice + ".out", "signal<f32>", 1, 1.0, 1.0, 0, 0);
    REQUIRE(!replay.isEmpty());
    const QString key = replay + ".out0>" + onsets + ".in";
    const int row = document.edges()->indexOf(key);
    REQUIRE(row >= 0);
    const WireGeometry& wire = document.edges()->geometry()[static_cast<std::size_t>(row)];
    for (const QString& id : {voice, log, recorder}) {
        INFO(id.toStdString());
        const QVariantMap node = document.nodes()->get(id);
        const CanvasRect box{node["posX"].toDouble(), node["posY"].toDouble(), node["boxWidth"].toDouble(), node["boxHeight"].toDouble()};
        CHECK_FALSE(wirePassesOver(wire.from, wire.to, box));
    }
    // Still beside the live node it stands in for, and the recorder still records the live node.
    CHECK(document.nodes()->get(replay)["posX"].toDouble() == document.nodes()->get(voice)["posX"].toDouble());
    CHECK(document.edges()->indexOf(voice + ".out>" + recorder + ".in0") >= 0);
}

TEST_CASE("the timeline follows an archive as a writer adds to it, rows staying rows", "[ui][archive]") {
    QTemporaryDir folder;
    const std::string path = folder.filePath("growing.sqlite").toStdString();
    ArchiveStore writer(path, ArchiveAccess::Record);
    ArchivedStreamInfo info;
    info.name = "mic";
    info.rateHz = 1000;
    const std::int64_t mic = writer.openStream(info);
    writer.appendSamples(mic, 0, 0, std::vector<float>(500, 0.1f));
    writer.commit();

    ArchiveTimelineModel model;
    int loads = 0, resets = 0, inserted = 0;
    QObject::connect(&model, &ArchiveTimelineModel::loaded, [&] { ++loads; });
    QObject::connect(&model, &QAbstractItemModel::modelReset, [&] { ++resets; });
    QObject::connect(&model, &QAbstractItemModel::rowsInserted, [&] { ++inserted; });
    model.open(QString::fromStdString(path));
    REQUIRE(waitUntil([&] { return loads >= 1 && !model.loading(); }));
    REQUIRE(model.rowCount() == 1);
    CHECK(model.axisEnd() == 0.5);
    const int resetsAfterOpen = resets;

    // More samples of the same stream, committed: the model reads them by itself.
    writer.appendSamples(mic, 0, 500, std::vector<float>(700, 0.2f));
    writer.commit();
    REQUIRE(waitUntil([&] { return model.axisEnd() == 1.2; }));
    CHECK(model.rowCount() == 1);

    // A new stream whose name sorts first comes below the one shown, as an inserted row.
    ArchivedStreamInfo events;
    events.name = "a.events";
    events.kind = ArchivedStreamInfo::Kind::Items;
    events.rateHz = 1000;
    events.sampleType = "json";
    const std::int64_t items = writer.openStream(events);
    writer.appendItem(items, 2000, 10, "{\"kind\":\"scalar\",\"value\":3}");
    writer.commit();
    REQUIRE(waitUntil([&] { return model.rowCount() == 2; }));
    CHECK(model.rowOf("mic") == 0);
    CHECK(model.rowOf("a.events") == 1);
    CHECK(model.data(model.index(1), ArchiveTimelineModel::ItemKindRole) == "scalar");
    CHECK(model.axisEnd() == Approx(2.01));
    CHECK(inserted >= 1);
    CHECK(resets == resetsAfterOpen);  // the view was never reset: selection and scroll stay
}

TEST_CASE("a damaged archive says so in the timeline, though its lanes read whole", "[ui][archive]") {
    // 20 KB of 0xff over an archive's samples: the lanes showed every stream fully stored while get,
    // export and replay failed "database disk image is malformed".
    QTemporaryDir folder;
    const std::string path = folder.filePath("damaged.sqlite").toStdString();
    {
        ArchiveStore writer(path, ArchiveAccess::Record);
        ArchivedStreamInfo info;
        info.name = "mic";
        info.rateHz = 1000;
        const std::int64_t mic = writer.openStream(info);
        std::mt19937 noise(7);
        std::uniform_real_distribution<float> sample(-1.0f, 1.0f);
        std::vector<float> piece(4096);
        for (std::int64_t start = 0; start < 64 * 4096; start += 4096) {
            for (float& s : piece) s = sample(noise);
            writer.appendSamples(mic, 0, start, piece);
        }
        writer.commit();
    }
    ArchiveTimelineModel model;
    int loads = 0;
    QObject::connect(&model, &ArchiveTimelineModel::loaded, [&] { ++loads; });
    model.open(QString::fromStdString(path));
    // Two passes: the lanes (a few rows of totals), then every page (the whole file).
    REQUIRE(waitUntil([&] { return loads >= 1 && !model.loading() && !model.checking(); }));
    CHECK(model.error().isEmpty());
    CHECK(model.damage().isEmpty());  // a sound file: nothing said

    {
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(static_cast<std::streamoff>(std::filesystem::file_size(path) / 2));
        const std::string ones(20 * 1024, '\xff');
        file.write(ones.data(), static_cast<std::streamsize>(ones.size()));
        REQUIRE(file.good());
    }
    ArchiveTimelineModel reopened;
    loads = 0;
    QObject::connect(&reopened, &ArchiveTimelineModel::loaded, [&] { ++loads; });
    int rowsAtFirstLoad = -1;
    QObject::connect(&reopened, &ArchiveTimelineModel::loaded, [&] {
        if (loads == 1) rowsAtFirstLoad = reopened.rowCount();
    });
    // The check is a pass of its own: when it begins the lanes are shown and their reader is free
    // (it ran in the lanes' reader, which then followed no change of the file for as long as it took).
    int rowsWhenCheckBegan = -1;
    bool readingWhenCheckBegan = true;
    QObject::connect(&reopened, &ArchiveTimelineModel::checkChanged, [&] {
        if (!reopened.checking() || rowsWhenCheckBegan >= 0) return;
        rowsWhenCheckBegan = reopened.rowCount();
        readingWhenCheckBegan = reopened.loading();
    });
    reopened.open(QString::fromStdString(path));
    REQUIRE(waitUntil([&] { return loads >= 1 && !reopened.loading() && rowsWhenCheckBegan >= 0 && !reopened.checking(); }));
    CHECK(rowsAtFirstLoad == 1);  // the lanes were shown before the pages were checked
    CHECK(rowsWhenCheckBegan == 1);
    CHECK_FALSE(readingWhenCheckBegan);
    INFO(reopened.error().toStdString());
    CHECK(reopened.error().isEmpty());
    CHECK(reopened.rowCount() == 1);  // the lane still reads
    CHECK(reopened.damage().startsWith(QString::fromStdString("archive '" + path + "' is damaged (SQLite: ")));
    CHECK(reopened.damage().contains("'.recover' command may save what it still holds"));
}
