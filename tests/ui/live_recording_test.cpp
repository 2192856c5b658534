// "Record this wire" on a running graph: the wire records from that moment, through wire taps, into
// the stream its io.archive_sink names, while the graph runs on (no restart, which would replay the
// input from its start); Stop recording ends it. What is stored is exactly what the wire carried: the
// same samples a twin generator's recorder, running as a node since the start, stored at those indices.
#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <functional>

#include "engine/archive/archive_store.h"
#include "ui/model/graph_document.h"
#include "ui/model/problem_list_model.h"
#include "ui/run/run_controller.h"
#include "ui/run/telemetry_store.h"

using namespace isochron;
using namespace isochron::ui;

namespace {

bool waitUntil(const std::function<bool()>& done, int milliseconds = 30000) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < milliseconds) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return done();
}

/// Samples [l, h) of channel 0 of `stream`: value and whether it is stored, per sample.
std::vector<std::pair<float, bool>> samplesOf(ArchiveStore& store, const std::string& stream, std::int64_t l, std::int64_t h) {
    std::vector<std::pair<float, bool>> samples(static_cast<std::size_t>(h - l), {0.0f, false});
    for (const ArchivedPiece& piece : store.get(stream, 0, l, h)) {
        auto at = static_cast<std::size_t>(piece.start - l);
        piece.samples.forEachSpan([&](std::span<const float> run) {
            for (float x : run) samples[at++] = {x, true};
        });
    }
    return samples;
}

/// How many samples of `stream` the archive at `path` holds (0 while it holds none, or no such file or stream yet).
std::int64_t storedSamples(const QString& path, const std::string& stream) {
    try {
        ArchiveStore store(path.toStdString(), ArchiveAccess::Read);
        if (!store.stream(stream)) return 0;
        const std::optional<ArchivedExtent> extent = store.extent(stream);
        return extent ? extent->samples : 0;
    } catch (const ArchiveError&) {
        return 0;
    }
}

}  // namespace

TEST_CASE("Record this wire on a running graph records from then on, without a restart", "[ui][run][archive]") {
    QTemporaryDir folder;
    const QString archive = folder.filePath("live.archive.sqlite");
    GraphDocument document;
    // A paced sine (10 s in real time) into a null sink, and its twin (same parameters) into a
    // reference recorder running as a node from the start. (The same output cannot have both: it
    // would count as recorded already.)
    for (const QString generator : {"signal_generator", "twin"}) {
        const QString id = document.addNode("generators.signal_generator", 0, generator == "twin" ? 200 : 0);
        if (id != generator) REQUIRE(document.renameNode(id, generator).isEmpty());
        REQUIRE(document.setParameter(generator, "duration", 10).isEmpty());
        REQUIRE(document.setParameter(generator, "block", 480).isEmpty());
        REQUIRE(document.setParameter(generator, "pace", 1).isEmpty());
    }
    document.addNode("io.null_sink", 240, 0);
    REQUIRE(document.connectPorts("signal_generator", "out", "null_sink", "in").isEmpty());
    const QString reference = document.addNode("io.archive_sink", 240, 200);
    REQUIRE(document.setParameter(reference, "path", archive).isEmpty());
    REQUIRE(document.setParameter(reference, "stream", QString("reference")).isEmpty());
    REQUIRE(document.connectPorts("twin", "out", reference, "in0").isEmpty());
    REQUIRE(document.saveAs(folder.filePath("live.isograph.json")));

    RunController run;
    run.setDocument(&document);
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return run.state() == "running" && storedSamples(archive, "reference") > 0; }));

    const QString wire = "signal_generator.out>null_sink.in";
    const QString recorder = document.recordWire(wire);
    REQUIRE(!recorder.isEmpty());
    REQUIRE(document.setParameter(recorder, "path", archive).isEmpty());  // the file the test reads, whatever the default
    CHECK(run.liveRecorders() == QStringList{recorder});
    CHECK_FALSE(run.restartNeeded());  // the recording needs none: it records now
    const std::string stream = "signal_generator.out";
    REQUIRE(waitUntil([&] { return storedSamples(archive, stream) >= 24000; }));  // half a second stored

    REQUIRE(document.stopRecordingWire(wire));
    CHECK(run.liveRecorders().isEmpty());
    CHECK(run.state() == "running");
    CHECK(run.telemetry()->runCount() == 1);  // never restarted
    const std::int64_t storedAtStop = storedSamples(archive, stream);
    run.stopAll();
    REQUIRE(waitUntil([&] { return !run.running(); }));
    CHECK(storedSamples(archive, stream) == storedAtStop);  // Stop recording ended it: nothing came after

    ArchiveStore store(archive.toStdString(), ArchiveAccess::Read);
    const ArchivedStreamInfo info = *store.stream(stream);
    CHECK(info.rateHz == 48000);
    CHECK(info.channels == 1);
    CHECK(info.node == recorder.toStdString());
    CHECK(info.producer == "signal_generator (generators.signal_generator)");
    const ArchivedExtent extent = *store.extent(stream);
    CHECK(extent.start > 0);  // from when the wire was toggled, not from sample 0
    const auto live = samplesOf(store, stream, extent.start, extent.end);
    const auto expected = samplesOf(store, "reference", extent.start, extent.end);
    std::int64_t compared = 0, differing = 0;
    for (std::size_t i = 0; i < live.size(); ++i) {
        if (!live[i].second) continue;
        REQUIRE(expected[i].second);
        ++compared;
        if (live[i].first != expected[i].first) ++differing;
    }
    CHECK(compared == extent.samples);
    CHECK(differing == 0);
}

namespace {

/// How many items of `stream` the archive at `path` holds (0 while none, or no such file or stream yet).
std::int64_t storedItems(const QString& path, const std::string& stream) {
    try {
        ArchiveStore store(path.toStdString(), ArchiveAccess::Read);
        if (!store.stream(stream)) return 0;
        const std::optional<ArchivedExtent> extent = store.extent(stream);
        return extent ? extent->rows : 0;
    } catch (const ArchiveError&) {
        return 0;
    }
}

/// A scalar or event wire to record live: the operator computing it from a paced generator's output.
struct ItemWire {
    const char* kind;
    const char* type;  ///< the operator
    const char* port;  ///< its output
    std::vector<std::pair<const char*, QVariant>> generatorParams, operatorParams;
};

}  // namespace

TEST_CASE("Record this wire on a running graph records a scalar or event wire from then on, the items the wire carried", "[ui][run][archive]") {
    const ItemWire wire = GENERATE(ItemWire{"scalar", "level.peak_meter", "level", {}, {{"interval", 480}}},
                                   ItemWire{"event", "level.onset_detector", "onsets", {{"waveform", QString("clicks")}, {"click_interval", 0.05}}, {{"min_gap", 0.01}}});
    INFO(wire.kind);
    QTemporaryDir folder;
    const QString archive = folder.filePath("live.archive.sqlite");
    GraphDocument document;
    // As for signals: the wire's operator, fed by a paced generator, into a null sink; its twin (same
    // parameters, same input) into a reference recorder running as a node from the start.
    for (const QString name : {"source", "twin_source"}) {
        const QString generator = document.addNode("generators.signal_generator", 0, name == "twin_source" ? 200 : 0);
        if (generator != name) REQUIRE(document.renameNode(generator, name).isEmpty());
        REQUIRE(document.setParameter(name, "duration", 10).isEmpty());
        REQUIRE(document.setParameter(name, "block", 480).isEmpty());
        REQUIRE(document.setParameter(name, "pace", 1).isEmpty());
        for (const auto& [parameter, value] : wire.generatorParams) REQUIRE(document.setParameter(name, parameter, value).isEmpty());
        const QString computed = name == "source" ? "computed" : "twin";
        const QString node = document.addNode(wire.type, 120, name == "twin_source" ? 200 : 0);
        if (node != computed) REQUIRE(document.renameNode(node, computed).isEmpty());
        for (const auto& [parameter, value] : wire.operatorParams) REQUIRE(document.setParameter(computed, parameter, value).isEmpty());
        REQUIRE(document.connectPorts(name, "out", computed, "in").isEmpty());
    }
    document.addNode("io.null_sink", 240, 0);
    REQUIRE(document.connectPorts("computed", wire.port, "null_sink", "in").isEmpty());
    const QString reference = document.addNode("io.archive_sink", 240, 200);
    REQUIRE(document.setParameter(reference, "path", archive).isEmpty());
    REQUIRE(document.setParameter(reference, "stream", QString("reference")).isEmpty());
    REQUIRE(document.connectPorts("twin", wire.port, reference, "in0").isEmpty());
    REQUIRE(document.saveAs(folder.filePath("live.isograph.json")));

    RunController run;
    run.setDocument(&document);
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return run.state() == "running" && storedItems(archive, "reference") > 0; }));

    const QString recorded = QString("computed.%1>null_sink.in").arg(wire.port);
    const QString recorder = document.recordWire(recorded);
    REQUIRE(!recorder.isEmpty());
    // Its default file is the graph's archive, the one the test reads. (Setting the path would end the
    // live recording and start another: the items between the two would be missing.)
    CHECK(run.liveRecorders() == QStringList{recorder});  // not refused "records from the next start"
    CHECK_FALSE(run.restartNeeded());
    const std::string stream = std::string("computed.") + wire.port;
    REQUIRE(waitUntil([&] { return storedItems(archive, stream) >= 10; }));

    REQUIRE(document.stopRecordingWire(recorded));
    CHECK(run.liveRecorders().isEmpty());
    CHECK(run.telemetry()->runCount() == 1);  // never restarted
    const std::int64_t storedAtStop = storedItems(archive, stream);
    run.stopAll();
    REQUIRE(waitUntil([&] { return !run.running(); }));
    CHECK(storedItems(archive, stream) == storedAtStop);

    ArchiveStore store(archive.toStdString(), ArchiveAccess::Read);
    const ArchivedStreamInfo info = *store.stream(stream);
    CHECK(info.kind == ArchivedStreamInfo::Kind::Items);
    CHECK(info.sampleType == "json");
    CHECK(info.rateHz == 48000);
    CHECK(info.node == recorder.toStdString());
    CHECK(info.producer == std::string("computed (") + wire.type + ")");
    const ArchivedExtent extent = *store.extent(stream);
    CHECK(extent.start > 0);  // from when the wire was toggled
    // Every item the wire carried from its first recorded item to its last, as the recorder node stored its twin's.
    const std::vector<ArchivedItem> live = store.getItems(stream, extent.start, extent.end);
    const std::vector<ArchivedItem> expected = store.getItems("reference", extent.start, live.back().start + 1);
    const auto startsOf = [](const std::vector<ArchivedItem>& items) {
        std::string text;
        for (const ArchivedItem& item : items) text += std::to_string(item.start) + " ";
        return text;
    };
    INFO("live starts: " << startsOf(live) << "\nreference starts: " << startsOf(expected));
    REQUIRE(live.size() == expected.size());
    std::size_t differing = 0;
    for (std::size_t i = 0; i < live.size(); ++i) {
        differing += live[i].start != expected[i].start || live[i].length != expected[i].length || live[i].json != expected[i].json;
    }
    CHECK(differing == 0);
    CHECK(live.front().json.find(std::string("\"kind\":\"") + wire.kind + "\"") != std::string::npos);
}
