// The telemetry of every run of this session: one record per run (its scheduler, series of every
// plotted figure, the engine's end-of-run summary), filled from the engine's snapshots. The live
// plots show the newest run; the comparison view overlays several.
#pragma once

#include <QObject>
#include <QStringList>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/telemetry/telemetry_snapshot.h"
#include "ui/plots/series_ring.h"
#include "ui/run/windowed_rate.h"

namespace isochron::ui {

/// One run: what ran it and what it measured. Series keys: "output/<id>/items" (reached so far),
/// "output/<id>/latency_ms" (last item),
/// ".../latency_p50_ms", ".../latency_p95_ms", ".../items_per_s", ".../samples_per_s",
/// ".../utility", "node/<id>/queued", "node/<id>/cost_us", "node/<id>/selectivity",
/// "engine/memory_mib", "engine/samples_per_s" (reaching the outputs), "engine/source_samples_per_s"
/// and "engine/source_items_per_s" (sent by the sources: the rate the graph reads its input, the sum
/// of the sources' samplesSent / itemsSent rates, which their wires show),
/// "engine/oldest_queued_ms" (how long the longest-waiting item still in a queue has waited); under mpirun also "rank/<k>/samples_per_s",
/// "rank/<k>/items_per_s", "rank/<k>/queued", "rank/<k>/latency_p95_ms" (made when rank k first appears). [ui thread]
struct RunRecord {
    QString label;  ///< scheduler text, e.g. "fifo-slice:slice_us=28"
    std::vector<std::string> nodeIds;
    std::vector<std::string> outputIds;
    std::vector<std::size_t> sources;  ///< indices into nodeIds of the source nodes
    std::vector<std::string> sourceIds;  ///< their ids (also for nodes added later)
    std::vector<std::string> internalIds;  ///< nodes the editor added to watch the run (never listed to the user)
    std::uint64_t lastSourceSamples = 0;  ///< the sources' samples sent, at the newest snapshot
    std::uint64_t lastSourceItems = 0;    ///< the sources' items sent, at the newest snapshot
    std::vector<WindowedRate> samplesSent;  ///< by node (as nodeIds): how fast it sends samples (wire labels)
    std::vector<WindowedRate> itemsSent;    ///< by node: how fast it sends items
    std::uint64_t queuedItems = 0;  ///< waiting in the queues at the newest snapshot (not yet delivered)
    double oldestQueuedMs = 0;      ///< how long the longest-waiting of them had waited then
    std::map<std::string, std::unique_ptr<SeriesRing>> series;
    QVariantMap summary;  ///< RunSummary as JSON once the run ended (empty before)
    std::vector<double> latencySamples;  ///< latency of the latest item at each snapshot (for CDFs)
    double lastElapsed = 0;
};

/// All runs of the session. [ui thread]
class TelemetryStore : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("owned by a RunController")
    Q_PROPERTY(int runCount READ runCount NOTIFY runsChanged)
    Q_PROPERTY(QStringList outputs READ outputs NOTIFY runsChanged)
    Q_PROPERTY(QStringList nodes READ nodes NOTIFY runsChanged)
    /// One row per rank of a run spread over ranks, from the newest snapshot: rank, state, items, samples
    /// (left the rank so far), itemsPerSecond, samplesPerSecond, queuedItems, latencyP95Ms. Empty in one process.
    Q_PROPERTY(QVariantList ranks READ ranks NOTIFY ranksChanged)
    /// Whole seconds the newest run has run: changes once a second whatever the snapshot rate, so
    /// what is re-sorted or rebuilt over every operator binds to it instead of to each snapshot.
    Q_PROPERTY(int runSecond READ runSecond NOTIFY runSecondChanged)
public:
    /// Points kept per operator series (about 68 s at 30 snapshots/s, past the plots' 30 s window):
    /// a graph has thousands of operators but few outputs, whose series keep the full history.
    static constexpr std::size_t kOperatorHistory = 2048;

    explicit TelemetryStore(QObject* parent = nullptr);

    /// Start a record for a run of `nodeIds`; `outputIds` are the nodes without output ports,
    /// `sourceIds` those without inputs and `internalIds` the editor's own taps (measured, not in `nodes`).
    int beginRun(const QString& label, std::vector<std::string> nodeIds, std::vector<std::string> outputIds,
                 const std::vector<std::string>& sourceIds = {}, std::vector<std::string> internalIds = {});
    /// The newest run also has these nodes and outputs (a run followed from its telemetry file meets
    /// another rank's nodes with that rank's first snapshot); their series are made now. Node ids it has
    /// are skipped; `outputIds` (every output, known ones included) becomes the order outputs() lists.
    void addNodes(const std::vector<std::string>& nodeIds, const std::vector<std::string>& outputIds);
    /// Append one snapshot to the newest run. [no allocation once every series exists]
    void add(const TelemetrySnapshot& snapshot);
    /// The run over ranks has ended: every rank row still without a final state ("running", or "" before
    /// its first snapshot) gets `ended`, or the state `named` gives its rank (a rank mpirun says it killed).
    void endRanks(const QString& ended, const std::map<int, QString>& named = {});
    /// Attach the engine's summary to the newest run.
    void finishRun(const QVariantMap& summary);
    Q_INVOKABLE void clear();

    int runCount() const { return static_cast<int>(runs_.size()); }
    /// Outputs and nodes of the newest run (without the editor's internal ones).
    QStringList outputs() const;
    QStringList nodes() const;
    QVariantList ranks() const { return ranks_; }
    int runSecond() const { return runSecond_; }
    /// The operators of the newest run (as nodes() lists them) by the latest value of `figure`
    /// ("queued", "cost_us", "selectivity"), highest first: [{label, index (in nodes()), value}].
    Q_INVOKABLE QVariantList operatorRanking(const QString& figure) const;
    /// A series of run `run` (-1: the newest), or null.
    const SeriesRing* series(int run, const std::string& key) const;
    const RunRecord* run(int index) const;
    /// Label, summary and per-output figures of each run, for the comparison table, with what was
    /// still queued when its newest snapshot was taken ("queuedItems", "oldestQueuedMs"): a latency
    /// counts delivered items only, so a run that leaves items waiting must show them beside it.
    Q_INVOKABLE QVariantList runs() const;
    /// The latest value of a series of the newest run (0 if none).
    Q_INVOKABLE double latest(const QString& key) const;
    /// Latency quantiles of run `run` at p in [0, 1] from the sampled latencies (for CDF plots).
    Q_INVOKABLE QVariantList latencyCdf(int run, int points) const;
    /// Every run's summary as CSV (one row per run and output).
    Q_INVOKABLE QString summaryCsv() const;
    /// Write summaryCsv() to a file (a path or a file: URL); returns an error message or empty.
    Q_INVOKABLE QString exportCsv(const QString& pathOrUrl) const;

Q_SIGNALS:
    void runsChanged();
    /// New points arrived (plots redraw).
    void updated();
    void ranksChanged();
    void runSecondChanged();

private:
    SeriesRing& ring(RunRecord& run, const std::string& key);
    void makeOutputSeries(RunRecord& run, const std::string& id);
    void makeNodeSeries(RunRecord& run, const std::string& id);
    /// The per-rank series and rows from a snapshot that has ranks.
    void addRanks(RunRecord& run, const TelemetrySnapshot& snapshot);
    void setRunSecond(int second);
    std::vector<std::unique_ptr<RunRecord>> runs_;
    QVariantList ranks_;
    int runSecond_ = 0;
};

}  // namespace isochron::ui
