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
