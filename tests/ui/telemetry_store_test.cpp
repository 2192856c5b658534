// The telemetry store: each snapshot's per-operator figures land in their named series.
#include <catch2/catch.hpp>

#include "ui/run/telemetry_store.h"

using namespace isochron;
using namespace isochron::ui;

TEST_CASE("per-operator cost, queue and selectivity series follow the snapshots", "[ui][telemetry]") {
    TelemetryStore store;
    store.beginRun("df", {"source", "detector"}, {});
    for (int i = 1; i <= 3; ++i) {
        TelemetrySnapshot snapshot;
        snapshot.elapsedSeconds = i / 30.0;
        snapshot.nodes.resize(2);
        snapshot.nodes[1].selectivity = 0.25 * i;
        snapshot.nodes[1].costNsPerItem = 1500.0 * i;
        snapshot.nodes[1].queuedItems = static_cast<std::uint64_t>(i);
        store.add(snapshot);
    }
    CHECK(store.latest("node/detector/selectivity") == Approx(0.75));
    CHECK(store.latest("node/detector/cost_us") == Approx(4.5));
    CHECK(store.latest("node/detector/queued") == 3);
    CHECK(store.latest("node/source/selectivity") == 0);
    const SeriesRing* series = store.series(-1, "node/detector/selectivity");
    REQUIRE(series);
    CHECK(series->size() == 3);
}

TEST_CASE("the input rate is what the sources sent per second, whatever reaches the outputs", "[ui][telemetry]") {
    TelemetryStore store;
    store.beginRun("df", {"source", "detector", "events"}, {"events"}, {"source"});
    TelemetrySnapshot snapshot;
    snapshot.nodes.resize(3);
    snapshot.outputs.resize(1);
    snapshot.outputs[0].node = 2;
    for (int i = 1; i <= 4; ++i) {
        snapshot.elapsedSeconds = 0.5 * i;
        snapshot.nodes[0].samplesOut = 8000u * static_cast<std::uint64_t>(i);  // 16 kS/s
        store.add(snapshot);  // the outputs see events only: 0 samples/s there
    }
    CHECK(store.latest("engine/source_samples_per_s") == Approx(16000));
    CHECK(store.latest("engine/samples_per_s") == 0);
}

TEST_CASE("the input rate of a source sending blocks is its rate at every snapshot, as its wire shows it", "[ui][telemetry]") {
    // The status bar read "input 0 samples/s" and then "139.0 ksamples/s" for a 16 kHz file while its
    // wire showed 12-14 kS/s: a file source sends 4096 samples every 0.256 s, and the status bar took
    // the count over each snapshot's 1/30 s, the wire over a quarter second.
    for (const int block : {4096, 1024, 160}) {
        for (const double snapshotHz : {30.0, 7.0}) {
            INFO(block << "-sample blocks at 16 kHz, " << snapshotHz << " snapshots a second");
            TelemetryStore store;
            store.beginRun("df", {"file", "sink"}, {"sink"}, {"file"});
            TelemetrySnapshot snapshot;
            snapshot.nodes.resize(2);
            const double blockSeconds = block / 16000.0;
            for (int i = 1; i <= static_cast<int>(8 * snapshotHz); ++i) {
                snapshot.elapsedSeconds = i / snapshotHz;
                snapshot.nodes[0].samplesOut = static_cast<std::uint64_t>(block) * static_cast<std::uint64_t>(snapshot.elapsedSeconds / blockSeconds);
                store.add(snapshot);
                if (snapshot.elapsedSeconds < 2) continue;  // a second's window and a block's spacing in
                const double input = store.latest("engine/source_samples_per_s");
                // A block arrives up to one snapshot interval before it is seen: that much, over the window.
                CHECK(input == Approx(16000).epsilon(1.0 / snapshotHz / 0.75 + 0.01));
                CHECK(store.run(-1)->samplesSent[0].perSecond() == input);  // the number the wire's label shows
            }
            // The source stops: after a window without a block, it sends nothing.
            const double stoppedAt = snapshot.elapsedSeconds;
            for (int i = 1; i <= static_cast<int>(2 * snapshotHz); ++i) {
                snapshot.elapsedSeconds = stoppedAt + i / snapshotHz;
                store.add(snapshot);
            }
            CHECK(store.latest("engine/source_samples_per_s") == 0);
        }
    }
}

TEST_CASE("the editor's internal nodes are measured but not listed", "[ui][telemetry]") {
    TelemetryStore store;
    store.beginRun("df", {"source", "editor_positions", "events"}, {"events"}, {"source"}, {"editor_positions"});
    CHECK(store.nodes() == QStringList{"source", "events"});
    TelemetrySnapshot snapshot;
    snapshot.elapsedSeconds = 0.5;
    snapshot.nodes.resize(3);
    snapshot.nodes[1].queuedItems = 7;
    store.add(snapshot);
    CHECK(store.latest("node/editor_positions/queued") == 7);  // still measured: only the listing leaves it out
}

TEST_CASE("a run spread over ranks gets one row per rank with its throughput, queue and latency", "[ui][telemetry]") {
    TelemetryStore store;
    store.beginRun("df", {"source", "sink"}, {"sink"}, {"source"});
    CHECK(store.ranks().isEmpty());
    TelemetrySnapshot snapshot;
    snapshot.nodes.resize(2);
    store.add(snapshot);  // one process: no rows
    CHECK(store.ranks().isEmpty());
    for (int i = 1; i <= 2; ++i) {
        snapshot.elapsedSeconds = 0.5 * i;
        snapshot.ranks.resize(3);
        for (int rank = 0; rank < 3; ++rank) {
            RankTelemetry& r = snapshot.ranks[static_cast<std::size_t>(rank)];
            r.rank = rank;
            r.engineState = rank == 2 && i == 2 ? "finished" : "running";
            r.samplesPerSecond = 48000.0 * (rank + 1) * i;
            r.itemsPerSecond = 10.0 * rank;
            r.queuedItems = static_cast<std::uint64_t>(rank * 4 + i);
            r.latencyP95Ms = 2.5 * rank + i;
        }
        store.add(snapshot);
    }
    const QVariantList rows = store.ranks();
    REQUIRE(rows.size() == 3);
    for (int rank = 0; rank < 3; ++rank) {
        INFO("rank " << rank);
        const QVariantMap row = rows[rank].toMap();
        CHECK(row["rank"].toInt() == rank);
        CHECK(row["samplesPerSecond"].toDouble() == Approx(96000.0 * (rank + 1)));  // the newest snapshot's
        CHECK(row["queuedItems"].toDouble() == rank * 4 + 2);
        CHECK(row["latencyP95Ms"].toDouble() == Approx(2.5 * rank + 2));
        CHECK(row["state"].toString() == (rank == 2 ? "finished" : "running"));
        const std::string prefix = "rank/" + std::to_string(rank) + "/";
        CHECK(store.latest(QString::fromStdString(prefix + "samples_per_s")) == Approx(96000.0 * (rank + 1)));
        CHECK(store.latest(QString::fromStdString(prefix + "queued")) == rank * 4 + 2);
        const SeriesRing* series = store.series(-1, prefix + "latency_p95_ms");
        REQUIRE(series);
        CHECK(series->size() == 2);
    }
    // A new run starts without the old run's rows.
    store.beginRun("df", {"source"}, {});
    CHECK(store.ranks().isEmpty());
}

TEST_CASE("a run keeps what it left queued beside its latency: a scheduler that delivers little cannot look fast", "[ui][telemetry]") {
    // rtc on an overloaded graph showed p50 206 ms against df's 3288 ms: its latency counted the 85
    // items it delivered while thousands waited in a queue, and the comparison showed nothing of them.
    TelemetryStore store;
    store.beginRun("rtc", {"source", "box", "sink"}, {"sink"}, {"source"});
    TelemetrySnapshot snapshot;
    snapshot.nodes.resize(3);
    snapshot.outputs.resize(1);
    snapshot.outputs[0].node = 2;
    snapshot.outputs[0].items = 85;
    snapshot.outputs[0].latencyP50Ms = 206;
    for (int i = 1; i <= 2; ++i) {
        snapshot.elapsedSeconds = 4.0 * i;
        snapshot.queues = {QueueTelemetry{1, 0, 12000u * static_cast<std::uint64_t>(i), 0, 4000.0 * i, kBeginningOfTime, 0},
                           QueueTelemetry{2, 0, 0, 0, 0.0, kBeginningOfTime, 0}};
        store.add(snapshot);
    }
    const QVariantMap run = store.runs().front().toMap();
    CHECK(run["queuedItems"].toDouble() == 24000);
    CHECK(run["oldestQueuedMs"].toDouble() == Approx(8000));
    CHECK(store.latest("engine/oldest_queued_ms") == Approx(8000));
    const QString csv = store.summaryCsv();
    CHECK(csv.startsWith("scheduler,output,items,samples,samples_per_s,latency_mean_ms,latency_p50_ms,latency_p95_ms,latency_p99_ms,"
                         "latency_max_ms,utility_average,queued_items_at_end,oldest_queued_ms_at_end,wall_seconds\n"));

    snapshot.queues = {QueueTelemetry{1, 0, 0, 0, 0.0, kBeginningOfTime, 0}};
    store.add(snapshot);  // drained: nothing waits, whatever the oldest item once waited
    CHECK(store.runs().front().toMap()["queuedItems"].toDouble() == 0);
    CHECK(store.runs().front().toMap()["oldestQueuedMs"].toDouble() == 0);
}

TEST_CASE("the input rate of sources of events or tuples is counted in items per second", "[ui][telemetry]") {
    // The status bar said "input 0 samples/s" for a tuple source sending thousands of items a second.
    TelemetryStore store;
    store.beginRun("df", {"tuples", "sink"}, {"sink"}, {"tuples"});
    TelemetrySnapshot snapshot;
    snapshot.nodes.resize(2);
    for (int i = 1; i <= 3; ++i) {
        snapshot.elapsedSeconds = 0.5 * i;
        snapshot.nodes[0].itemsOut = 1000u * static_cast<std::uint64_t>(i);  // 2000 items/s
        store.add(snapshot);
    }
    CHECK(store.latest("engine/source_items_per_s") == Approx(2000));
    CHECK(store.latest("engine/source_samples_per_s") == 0);
}

TEST_CASE("on a 1 000-operator run the per-operator legends are rebuilt once a second, not per snapshot", "[ui][telemetry]") {
    // The editor stayed black for two minutes on a chain of 1 000 operators: every snapshot (30 a
    // second) re-sorted and rebuilt both per-operator legends over all 1 000 operators. What they
    // bind to now changes once per second of the run, however many operators and snapshots.
    constexpr int operators = 1000;
    std::vector<std::string> ids;
    for (int n = 0; n < operators; ++n) ids.push_back("b" + std::to_string(n));
    TelemetryStore store;
    store.beginRun("df", ids, {});
    int seconds = 0, snapshots = 0;
    QObject::connect(&store, &TelemetryStore::runSecondChanged, [&] { ++seconds; });
    QObject::connect(&store, &TelemetryStore::updated, [&] { ++snapshots; });
    TelemetrySnapshot snapshot;
    snapshot.nodes.resize(operators);
    for (int i = 1; i <= 90; ++i) {  // 3 s at 30 snapshots a second
        snapshot.elapsedSeconds = i / 30.0;
        for (int n = 0; n < operators; ++n) snapshot.nodes[static_cast<std::size_t>(n)].queuedItems = static_cast<std::uint64_t>((n * 7 + i) % 1000);
        store.add(snapshot);
    }
    CHECK(snapshots == 90);  // one notification per snapshot, none per operator
    CHECK(seconds == 3);
    CHECK(store.runSecond() == 3);

    const QVariantList ranking = store.operatorRanking("queued");
    REQUIRE(ranking.size() == operators);
    bool highestFirst = true;
    for (int r = 1; r < operators; ++r) highestFirst = highestFirst && ranking[r - 1].toMap()["value"].toDouble() >= ranking[r].toMap()["value"].toDouble();
    CHECK(highestFirst);
    const QVariantMap top = ranking.front().toMap();
    CHECK(top["value"].toDouble() == 999);
    CHECK(store.latest("node/" + top["label"].toString() + "/queued") == 999);
    CHECK(ids[static_cast<std::size_t>(top["index"].toInt())] == top["label"].toString().toStdString());
}

TEST_CASE("an operator's history is bounded apart from the outputs', so 1 000 operators fit in memory", "[ui][telemetry]") {
    // 8 192 points for each of 3 figures of 1 000 operators held 393 MB of history.
    TelemetryStore store;
    store.beginRun("df", {"source", "box", "sink"}, {"sink"}, {"source"});
    const SeriesRing* queued = store.series(-1, "node/box/queued");
    const SeriesRing* latency = store.series(-1, "output/sink/latency_ms");
    REQUIRE(queued);
    REQUIRE(latency);
    CHECK(queued->capacity() == TelemetryStore::kOperatorHistory);
    const double bytesFor1000Operators = 1000.0 * 3 * 2 * sizeof(double) * static_cast<double>(queued->capacity());
    CHECK(bytesFor1000Operators < 120e6);
    CHECK(queued->capacity() / 30.0 > 60);  // still more than the plots' 30 s window at 30 snapshots a second
    CHECK(latency->capacity() > queued->capacity());  // an output's series keeps the comparison's long runs
}
