#include "ui/run/telemetry_store.h"

#include <QSaveFile>
#include <QUrl>

#include <algorithm>

namespace isochron::ui {

TelemetryStore::TelemetryStore(QObject* parent) : QObject(parent) {}

int TelemetryStore::beginRun(const QString& label, std::vector<std::string> nodeIds, std::vector<std::string> outputIds,
                             const std::vector<std::string>& sourceIds, std::vector<std::string> internalIds) {
    auto record = std::make_unique<RunRecord>();
    record->label = label;
    record->internalIds = std::move(internalIds);
    record->nodeIds = std::move(nodeIds);
    record->outputIds = std::move(outputIds);
    record->sourceIds = sourceIds;
    for (std::size_t n = 0; n < record->nodeIds.size(); ++n) {
        if (std::find(sourceIds.begin(), sourceIds.end(), record->nodeIds[n]) != sourceIds.end()) record->sources.push_back(n);
    }
    // Every series exists before the first snapshot, so adding points never allocates.
    for (const std::string& id : record->outputIds) makeOutputSeries(*record, id);
    for (const std::string& id : record->nodeIds) makeNodeSeries(*record, id);
    ring(*record, "engine/memory_mib");
    ring(*record, "engine/samples_per_s");
    ring(*record, "engine/source_samples_per_s");
    ring(*record, "engine/source_items_per_s");
    ring(*record, "engine/oldest_queued_ms");
    record->latencySamples.reserve(1 << 16);
    runs_.push_back(std::move(record));
    Q_EMIT runsChanged();
    setRunSecond(0);
    if (!ranks_.isEmpty()) {
        ranks_.clear();
        Q_EMIT ranksChanged();
    }
    return static_cast<int>(runs_.size()) - 1;
}

void TelemetryStore::makeOutputSeries(RunRecord& run, const std::string& id) {
    for (const char* figure : {"items", "latency_ms", "latency_p50_ms", "latency_p95_ms", "items_per_s", "samples_per_s", "utility"}) {
        ring(run, "output/" + id + "/" + figure);
    }
}

void TelemetryStore::makeNodeSeries(RunRecord& run, const std::string& id) {
    for (const char* figure : {"queued", "cost_us", "selectivity"}) {
        auto& slot = run.series["node/" + id + "/" + figure];
        if (!slot) slot = std::make_unique<SeriesRing>(kOperatorHistory);
    }
}

void TelemetryStore::addNodes(const std::vector<std::string>& nodeIds, const std::vector<std::string>& outputIds) {
    if (runs_.empty()) return;
    RunRecord& run = *runs_.back();
    bool added = false;
    for (const std::string& id : nodeIds) {
        if (std::find(run.nodeIds.begin(), run.nodeIds.end(), id) != run.nodeIds.end()) continue;
        if (std::find(run.sourceIds.begin(), run.sourceIds.end(), id) != run.sourceIds.end()) run.sources.push_back(run.nodeIds.size());
        run.nodeIds.push_back(id);
        makeNodeSeries(run, id);
        added = true;
    }
    for (const std::string& id : outputIds) {
        if (std::find(run.outputIds.begin(), run.outputIds.end(), id) != run.outputIds.end()) continue;
        makeOutputSeries(run, id);
        added = true;
    }
    if (added || run.outputIds != outputIds) {
        run.outputIds = outputIds;
        Q_EMIT runsChanged();
    }
}

SeriesRing& TelemetryStore::ring(RunRecord& run, const std::string& key) {
    auto& slot = run.series[key];
    if (!slot) slot = std::make_unique<SeriesRing>();
    return *slot;
}

void TelemetryStore::add(const TelemetrySnapshot& s) {
    if (runs_.empty()) return;
    RunRecord& run = *runs_.back();
    const double t = s.elapsedSeconds;
    run.lastElapsed = t;
    double samplesPerSecond = 0;
    for (const OutputTelemetry& o : s.outputs) {
        if (o.node < 0 || static_cast<std::size_t>(o.node) >= run.nodeIds.size()) continue;
        const std::string prefix = "output/" + run.nodeIds[static_cast<std::size_t>(o.node)] + "/";
        auto find = [&](const char* figure) -> SeriesRing* {
            auto it = run.series.find(prefix + figure);
            return it == run.series.end() ? nullptr : it->second.get();
        };
        if (SeriesRing* r = find("items")) r->push(t, static_cast<double>(o.items));
        if (SeriesRing* r = find("latency_ms")) r->push(t, o.latencyLastMs);
        if (SeriesRing* r = find("latency_p50_ms")) r->push(t, o.latencyP50Ms);
        if (SeriesRing* r = find("latency_p95_ms")) r->push(t, o.latencyP95Ms);
        if (SeriesRing* r = find("items_per_s")) r->push(t, o.itemsPerSecond);
        if (SeriesRing* r = find("samples_per_s")) r->push(t, o.samplesPerSecond);
        if (SeriesRing* r = find("utility")) r->push(t, o.utilityNow);
        samplesPerSecond += o.samplesPerSecond;
        if (o.items > 0 && run.latencySamples.size() < run.latencySamples.capacity()) run.latencySamples.push_back(o.latencyLastMs);
    }
    for (std::size_t n = 0; n < s.nodes.size() && n < run.nodeIds.size(); ++n) {
        const NodeTelemetry& node = s.nodes[n];
        const std::string prefix = "node/" + run.nodeIds[n] + "/";
        if (auto it = run.series.find(prefix + "queued"); it != run.series.end()) it->second->push(t, static_cast<double>(node.queuedItems));
        if (auto it = run.series.find(prefix + "cost_us"); it != run.series.end()) it->second->push(t, node.costNsPerItem / 1000.0);
        if (auto it = run.series.find(prefix + "selectivity"); it != run.series.end()) it->second->push(t, node.selectivity);
    }
    run.series["engine/memory_mib"]->push(t, static_cast<double>(s.liveBytes) / (1024.0 * 1024.0));
    run.series["engine/samples_per_s"]->push(t, samplesPerSecond);
    run.samplesSent.resize(run.nodeIds.size());
    run.itemsSent.resize(run.nodeIds.size());
    for (std::size_t n = 0; n < s.nodes.size() && n < run.nodeIds.size(); ++n) {
        run.samplesSent[n].add(t, s.nodes[n].samplesOut);
        run.itemsSent[n].add(t, s.nodes[n].itemsOut);
    }
    // The input rate is the sum of what the sources' wires show, measured alike.
    std::uint64_t sourceSamples = 0, sourceItems = 0;
    double sourceSamplesPerSecond = 0, sourceItemsPerSecond = 0;
    for (std::size_t n : run.sources) {
        if (n >= s.nodes.size() || n >= run.nodeIds.size()) continue;
        sourceSamples += s.nodes[n].samplesOut;
        sourceItems += s.nodes[n].itemsOut;
        sourceSamplesPerSecond += run.samplesSent[n].perSecond();
        sourceItemsPerSecond += run.itemsSent[n].perSecond();
    }
    run.series["engine/source_samples_per_s"]->push(t, sourceSamplesPerSecond);
    run.series["engine/source_items_per_s"]->push(t, sourceItemsPerSecond);
    run.lastSourceSamples = sourceSamples;
    run.lastSourceItems = sourceItems;
    run.queuedItems = 0;
    run.oldestQueuedMs = 0;
    for (const QueueTelemetry& queue : s.queues) {
        run.queuedItems += queue.items;
        if (queue.items > 0) run.oldestQueuedMs = std::max(run.oldestQueuedMs, queue.oldestWaitMs);
    }
    run.series["engine/oldest_queued_ms"]->push(t, run.oldestQueuedMs);
    if (!s.ranks.empty()) addRanks(run, s);
    Q_EMIT updated();
    setRunSecond(static_cast<int>(t));
}

void TelemetryStore::setRunSecond(int second) {
    if (second == runSecond_) return;
    runSecond_ = second;
    Q_EMIT runSecondChanged();
}

QVariantList TelemetryStore::operatorRanking(const QString& figure) const {
    struct Row {
        QString label;
        int index;
        double value;
    };
    std::vector<Row> rows;
    const QStringList listed = nodes();
    rows.reserve(static_cast<std::size_t>(listed.size()));
    std::string suffix(1, '/');
    suffix += figure.toStdString();
    for (int i = 0; i < listed.size(); ++i) {
        std::string key = "node/";
        key += listed[i].toStdString();
        key += suffix;
        const SeriesRing* ring = series(-1, key);
        rows.push_back(Row{listed[i], i, ring ? ring->lastValue() : 0.0});
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.value > b.value; });
    QVariantList list;
    list.reserve(static_cast<qsizetype>(rows.size()));
    for (const Row& row : rows) list.append(QVariantMap{{"label", row.label}, {"index", row.index}, {"value", row.value}});
    return list;
}

void TelemetryStore::addRanks(RunRecord& run, const TelemetrySnapshot& s) {
    const double t = s.elapsedSeconds;
    ranks_.clear();
    for (const RankTelemetry& r : s.ranks) {
        const std::string prefix = "rank/" + std::to_string(r.rank) + "/";
        ring(run, prefix + "samples_per_s").push(t, r.samplesPerSecond);
        ring(run, prefix + "items_per_s").push(t, r.itemsPerSecond);
        ring(run, prefix + "queued").push(t, static_cast<double>(r.queuedItems));
        ring(run, prefix + "latency_p95_ms").push(t, r.latencyP95Ms);
        ranks_.append(QVariantMap{{"rank", r.rank},
                                  {"state", QString::fromStdString(r.engineState)},
                                  {"items", static_cast<double>(r.items)},
                                  {"samples", static_cast<double>(r.samples)},
                                  {"itemsPerSecond", r.itemsPerSecond},
                                  {"samplesPerSecond", r.samplesPerSecond},
                                  {"queuedItems", static_cast<double>(r.queuedItems)},
                                  {"latencyP95Ms", r.latencyP95Ms}});
    }
    Q_EMIT ranksChanged();
}

void TelemetryStore::endRanks(const QString& ended, const std::map<int, QString>& named) {
    bool changed = false;
    for (QVariant& row : ranks_) {
        QVariantMap map = row.toMap();
        const QString state = map["state"].toString();
        if (!state.isEmpty() && state != "running") continue;
        const auto it = named.find(map["rank"].toInt());
        map["state"] = it != named.end() ? it->second : ended;
        row = map;
        changed = true;
    }
    if (changed) Q_EMIT ranksChanged();
}

void TelemetryStore::finishRun(const QVariantMap& summary) {
    if (runs_.empty()) return;
    runs_.back()->summary = summary;
    Q_EMIT runsChanged();
}

void TelemetryStore::clear() {
    runs_.clear();
    ranks_.clear();
    setRunSecond(0);
    Q_EMIT ranksChanged();
    Q_EMIT runsChanged();
    Q_EMIT updated();
}

QStringList TelemetryStore::outputs() const {
    QStringList list;
    if (!runs_.empty()) {
        for (const std::string& id : runs_.back()->outputIds) list.append(QString::fromStdString(id));
    }
    return list;
}

QStringList TelemetryStore::nodes() const {
    QStringList list;
    if (!runs_.empty()) {
        const RunRecord& record = *runs_.back();
        for (const std::string& id : record.nodeIds) {
            if (std::find(record.internalIds.begin(), record.internalIds.end(), id) == record.internalIds.end()) list.append(QString::fromStdString(id));
        }
    }
    return list;
}

const RunRecord* TelemetryStore::run(int index) const {
    if (index < 0) index = static_cast<int>(runs_.size()) - 1;
    if (index < 0 || index >= static_cast<int>(runs_.size())) return nullptr;
    return runs_[static_cast<std::size_t>(index)].get();
}

const SeriesRing* TelemetryStore::series(int index, const std::string& key) const {
    const RunRecord* record = run(index);
    if (!record) return nullptr;
    auto it = record->series.find(key);
    return it == record->series.end() ? nullptr : it->second.get();
}

QVariantList TelemetryStore::runs() const {
    QVariantList list;
    for (const auto& record : runs_) {
        list.append(QVariantMap{{"label", record->label},
                                {"summary", record->summary},
                                {"seconds", record->lastElapsed},
                                {"queuedItems", static_cast<double>(record->queuedItems)},
                                {"oldestQueuedMs", record->oldestQueuedMs}});
    }
    return list;
}

double TelemetryStore::latest(const QString& key) const {
    const SeriesRing* ring = series(-1, key.toStdString());
    return ring ? ring->lastValue() : 0.0;
}

QVariantList TelemetryStore::latencyCdf(int index, int points) const {
    QVariantList list;
    const RunRecord* record = run(index);
    if (!record || record->latencySamples.empty() || points < 2) return list;
    std::vector<double> sorted = record->latencySamples;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < points; ++i) {
        const double p = static_cast<double>(i) / (points - 1);
        const auto at = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1));
        list.append(QVariantMap{{"p", p}, {"latency", sorted[at]}});
    }
    return list;
}

QString TelemetryStore::exportCsv(const QString& pathOrUrl) const {
    const QString path = pathOrUrl.startsWith("file:") ? QUrl(pathOrUrl).toLocalFile() : pathOrUrl;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) return tr("cannot write %1: %2").arg(path, file.errorString());
    file.write(summaryCsv().toUtf8());
    if (!file.commit()) return tr("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

QString TelemetryStore::summaryCsv() const {
    QString csv = "scheduler,output,items,samples,samples_per_s,latency_mean_ms,latency_p50_ms,latency_p95_ms,latency_p99_ms,latency_max_ms,utility_average,queued_items_at_end,oldest_queued_ms_at_end,wall_seconds\n";
    for (const auto& record : runs_) {
        const QVariantMap outputs = record->summary.value("outputs").toMap();
        for (auto it = outputs.begin(); it != outputs.end(); ++it) {
            const QVariantMap o = it.value().toMap();
            const QVariantMap latency = o.value("latency_ms").toMap();
            QString label = record->label;
            label.replace('"', "'");
            csv += QStringLiteral("\"%1\",%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14\n")
                       .arg(label, it.key())
                       .arg(o.value("items").toDouble(), 0, 'g', 12)
                       .arg(o.value("samples").toDouble(), 0, 'g', 12)
                       .arg(o.value("samples_per_s").toDouble(), 0, 'g', 6)
                       .arg(latency.value("mean").toDouble(), 0, 'g', 6)
                       .arg(latency.value("p50").toDouble(), 0, 'g', 6)
                       .arg(latency.value("p95").toDouble(), 0, 'g', 6)
                       .arg(latency.value("p99").toDouble(), 0, 'g', 6)
                       .arg(latency.value("max").toDouble(), 0, 'g', 6)
                       .arg(o.value("utility_average").toDouble(), 0, 'g', 6)
                       .arg(static_cast<double>(record->queuedItems), 0, 'g', 12)
                       .arg(record->oldestQueuedMs, 0, 'g', 6)
                       .arg(record->summary.value("wall_s").toDouble(), 0, 'g', 6);
        }
    }
    return csv;
}

}  // namespace isochron::ui
