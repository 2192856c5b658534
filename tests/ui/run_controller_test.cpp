// Running from the editor: the engine runs on its own thread, its report and telemetry arrive in the
// ui thread's models, probes see exactly the samples that flow, and a restart under another
// scheduler replays the same input.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numbers>

#include "engine/plugins/plugin_host.h"
#include "engine/plugins/plugin_manifest.h"
#include "ui/model/edge_list_model.h"
#include "ui/model/graph_document.h"
#include "ui/model/node_list_model.h"
#include "ui/model/problem_list_model.h"
#include "ui/run/probe_kinds.h"
#include "ui/run/probe_ring.h"
#include "ui/run/run_controller.h"

using namespace isochron::ui;

namespace {

// A sine (f = 1 kHz at 48 kHz, amplitude 0.5) of `samples` samples into a null sink, unpaced.
void buildSine(GraphDocument& document, int samples) {
    document.addNode("generators.signal_generator", 0, 0);
    document.addNode("io.null_sink", 240, 0);
    REQUIRE(document.connectPorts("signal_generator", "out", "null_sink", "in").isEmpty());
    REQUIRE(document.setParameter("signal_generator", "duration", samples / 48000.0).isEmpty());
    REQUIRE(document.setParameter("signal_generator", "block", 480).isEmpty());
}

bool waitUntil(const std::function<bool()>& done, int milliseconds = 20000) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < milliseconds) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return done();
}

/// The sine of buildSine for 10 s in real time, running under `run` (telemetry arriving) on return.
void startPacedSine(GraphDocument& document, RunController& run) {
    buildSine(document, 480000);
    REQUIRE(document.setParameter("signal_generator", "pace", 1).isEmpty());
    run.setDocument(&document);
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return run.state() == "running" && run.telemetry()->latest("engine/samples_per_s") > 0; }));
}

}  // namespace

TEST_CASE("a run reports through the ui thread; outputs exclude the probes", "[ui][run]") {
    GraphDocument document;
    buildSine(document, 24000);
    RunController run;
    run.setDocument(&document);
    REQUIRE(run.addProbe("signal_generator.out>null_sink.in", "scope").isEmpty());
    QVariantMap report;
    QObject::connect(&run, &RunController::runFinished, [&](const QVariantMap& summary) { report = summary; });
    REQUIRE(run.start());
    CHECK(run.running());
    REQUIRE(waitUntil([&] { return !run.running(); }));
    CHECK(run.state() == "finished");
    REQUIRE_FALSE(report.isEmpty());
    const QVariantMap sink = report["outputs"].toMap()["null_sink"].toMap();
    CHECK(sink["samples"].toLongLong() == 24000);
    CHECK(report["engine_cpu_s"].toDouble() > 0);
    CHECK(run.telemetry()->runCount() == 1);
    CHECK(run.telemetry()->outputs() == QStringList{"null_sink"});
    CHECK(run.telemetry()->runs().front().toMap()["summary"].toMap()["completed"].toBool());
}

TEST_CASE("a scope probe holds exactly the newest samples of its wire", "[ui][run][probe]") {
    GraphDocument document;
    buildSine(document, 24000);
    RunController run;
    run.setDocument(&document);
    REQUIRE(run.addProbe("signal_generator.out>null_sink.in", "scope").isEmpty());
    const QString key = run.probes().front().toMap()["key"].toString();
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return !run.running(); }));
    const auto ring = ProbeRegistry::instance().find(key.toStdString());
    REQUIRE(ring);
    CHECK(ring->written() == 24000);
    CHECK(ring->rateHz() == 48000);
    std::vector<float> newest(1000);
    REQUIRE(ring->readLatest(newest.data(), newest.size()) == 1000);
    for (int i = 0; i < 1000; ++i) {
        const int n = 23000 + i;
        const double expected = 0.5 * std::sin(2 * std::numbers::pi * 1000.0 * n / 48000.0);
        REQUIRE(newest[static_cast<std::size_t>(i)] == Approx(expected).margin(1e-5));
    }
}

TEST_CASE("probes are refused on wires they cannot show", "[ui][run][probe]") {
    GraphDocument document;
    document.addNode("generators.signal_generator", 0, 0);
    document.addNode("detect.silence_detector", 240, 0);
    document.addNode("io.null_sink", 480, 0);
    REQUIRE(document.connectPorts("signal_generator", "out", "silence_detector", "in").isEmpty());
    REQUIRE(document.connectPorts("silence_detector", "ranges", "null_sink", "in").isEmpty());
    RunController run;
    run.setDocument(&document);
    CHECK(run.addProbe("silence_detector.ranges>null_sink.in", "spectrum").contains("time_range"));
    CHECK(run.addProbe("silence_detector.ranges>null_sink.in", "scope").contains("time_range"));
    CHECK(run.addProbe("nope>null_sink.in", "scope").size() > 0);
    CHECK(run.addProbe("signal_generator.out>silence_detector.in", "spectrum").isEmpty());
    CHECK(run.probes().size() == 1);
}

TEST_CASE("restarting under another scheduler replays the same input", "[ui][run]") {
    GraphDocument document;
    RunController run;
    startPacedSine(document, run);
    run.restartWith("fifo");
    REQUIRE(waitUntil([&] { return run.state() == "running" && run.schedulerText() == "fifo"; }));
    CHECK(run.telemetry()->runCount() == 2);
    const QVariantMap first = run.telemetry()->runs().front().toMap();
    CHECK(first["label"] == "df");
    CHECK(first["summary"].toMap()["stopped"].toBool());
    run.stopAll();
    REQUIRE(waitUntil([&] { return !run.running(); }));
    CHECK(run.state() == "stopped");
}

TEST_CASE("a graph that does not validate does not start, and says why", "[ui][run]") {
    GraphDocument document;
    document.addNode("spectral.fft", 0, 0);
    RunController run;
    run.setDocument(&document);
    CHECK_FALSE(run.start());
    CHECK(run.state() == "failed");
    CHECK(run.message().contains("required input is not connected"));
    // The status bar shows the first line alone: it read "failed: The graph cannot run:" and stopped there.
    CHECK(run.message().split('\n').front().contains("node 'fft'"));
    CHECK(run.message().split('\n').front().contains("required input is not connected"));
}

namespace {

std::string fileText(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A 16-bit mono 8 kHz WAV file of 800 zero samples at `path`.
void writeSilentWav(const std::string& path) {
    std::ofstream wav(path, std::ios::binary);
    auto u32 = [&](std::uint32_t v) { wav.write(reinterpret_cast<const char*>(&v), 4); };
    auto u16 = [&](std::uint16_t v) { wav.write(reinterpret_cast<const char*>(&v), 2); };
    const std::uint32_t dataBytes = 1600;
    wav << "RIFF";
    u32(36 + dataBytes);
    wav << "WAVEfmt ";
    u32(16), u16(1), u16(1), u32(8000), u32(16000), u16(2), u16(16);
    wav << "data";
    u32(dataBytes);
    wav << std::string(dataBytes, '\0');
}

/// The one problem the run reported (fails the test when there is not exactly one).
isochron::GraphError runProblem(GraphDocument& document) {
    const std::vector<isochron::GraphError>& problems = document.problems()->problemsOf("run");
    REQUIRE(problems.size() == 1);
    return problems.front();
}

}  // namespace

TEST_CASE("Run refuses a sink that would overwrite the graph file or the recording a source reads, as isochron-run does", "[ui][run][paths]") {
    // The editor's Run applied none of isochron-run's checks: a WAV sink on the graph's own file
    // replaced the graph ("finished", nothing unsaved); a sink on a source's file replaced the recording.
    QTemporaryDir folder;
    REQUIRE(folder.isValid());
    GraphDocument document;
    document.addNode("generators.signal_generator", 0, 0);
    document.addNode("io.wav_file_sink", 240, 0);
    REQUIRE(document.connectPorts("signal_generator", "out", "wav_file_sink", "in0").isEmpty());
    REQUIRE(document.setParameter("signal_generator", "duration", 0.1).isEmpty());
    const QString graphPath = folder.filePath("self.isograph.json");
    REQUIRE(document.setParameter("wav_file_sink", "path", graphPath).isEmpty());
    REQUIRE(document.saveAs(graphPath));
    const std::string graphBefore = fileText(graphPath);
    RunController run;
    run.setDocument(&document);

    SECTION("the graph file itself") {
        CHECK_FALSE(run.start());
        CHECK(run.state() == "failed");
        const std::string cause = "writes (parameter 'path') " + graphPath.toStdString() + ", the graph file itself: it would be overwritten";
        CHECK(run.message().toStdString() == "node 'wav_file_sink' " + cause);  // isochron-run's message
        const isochron::GraphError problem = runProblem(document);
        CHECK(problem.node == "wav_file_sink");
        CHECK(problem.message == cause);
        CHECK(fileText(graphPath) == graphBefore);
    }
    SECTION("the recording a source reads") {
        const QString recording = folder.filePath("in.wav");
        writeSilentWav(recording.toStdString());
        const std::string recordingBefore = fileText(recording);
        document.addNode("io.audio_file_source", 0, 200);
        document.addNode("io.null_sink", 240, 200);
        REQUIRE(document.connectPorts("audio_file_source", "out0", "null_sink", "in").isEmpty());
        REQUIRE(document.setParameter("audio_file_source", "path", recording).isEmpty());
        REQUIRE(document.setParameter("wav_file_sink", "path", recording).isEmpty());
        CHECK_FALSE(run.start());
        CHECK(run.state() == "failed");
        CHECK(run.message() == "node 'wav_file_sink' writes (parameter 'path') " + recording + ", the file node 'audio_file_source' reads (parameter 'path') " +
                                   recording + ": the input would be overwritten; write to another file");
        CHECK(runProblem(document).node == "wav_file_sink");
        CHECK(fileText(recording) == recordingBefore);
    }
}

TEST_CASE("the editor's --report is checked at each start as isochron-run checks it: not the graph file, nor a sink's file", "[ui][run][paths]") {
    // The editor's own --report was written over whatever it named, the graph file included.
    QTemporaryDir folder;
    REQUIRE(folder.isValid());
    GraphDocument document;
    buildSine(document, 4800);
    document.addNode("io.wav_file_sink", 240, 200);
    REQUIRE(document.connectPorts("signal_generator", "out", "wav_file_sink", "in0").isEmpty());
    const QString recording = folder.filePath("out.wav");
    REQUIRE(document.setParameter("wav_file_sink", "path", recording).isEmpty());
    const QString graphPath = folder.filePath("g.isograph.json");
    REQUIRE(document.saveAs(graphPath));
    const std::string graphBefore = fileText(graphPath);
    RunController run;
    run.setDocument(&document);

    SECTION("the graph file itself") {
        run.setReportPath(graphPath);
        CHECK_FALSE(run.start());
        CHECK(run.state() == "failed");
        CHECK(run.message() == "--report " + graphPath + " is the graph file itself: it would be overwritten");
        CHECK(fileText(graphPath) == graphBefore);
    }
    SECTION("the file a sink writes") {
        run.setReportPath(recording);
        CHECK_FALSE(run.start());
        CHECK(run.state() == "failed");
        CHECK(run.message() == "--report " + recording + " is the file node 'wav_file_sink' writes (parameter 'path'): each would clobber the other");
    }
    SECTION("a file of its own: the run starts") {
        run.setReportPath(folder.filePath("report.json"));
        REQUIRE(run.start());
        REQUIRE(waitUntil([&] { return !run.running(); }));
        CHECK(run.state() == "finished");
    }
}

TEST_CASE("Run refuses a sink on the file of any plugin loaded, whether the graph uses it or not, as isochron-run does", "[ui][run][paths]") {
    // The editor protected only the plugins whose operators the graph used.
    QTemporaryDir folder;
    REQUIRE(folder.isValid());
    const std::filesystem::path plugin = folder.filePath("versioned.so").toStdString();
    const std::filesystem::path fixture = std::filesystem::path(ISOCHRON_FIXTURE_DIR) / "versioned_v1.so";
    std::filesystem::copy_file(fixture, plugin);
    std::filesystem::copy_file(isochron::manifestPathFor(fixture), isochron::manifestPathFor(plugin));
    isochron::OperatorRegistry registry;
    isochron::PluginHost host(registry);
    host.load(plugin);
    const std::string pluginBefore = fileText(QString::fromStdString(plugin.string()));
    GraphDocument document;
    buildSine(document, 4800);
    document.addNode("io.wav_file_sink", 240, 200);
    REQUIRE(document.connectPorts("signal_generator", "out", "wav_file_sink", "in0").isEmpty());
    REQUIRE(document.setParameter("wav_file_sink", "path", QString::fromStdString(plugin.string())).isEmpty());
    RunController run;
    run.setDocument(&document);
    run.setPluginHost(&host);
    CHECK_FALSE(run.start());
    CHECK(run.state() == "failed");
    CHECK(runProblem(document).node == "wav_file_sink");
    CHECK_THAT(run.message().toStdString(), Catch::Contains("node 'wav_file_sink' writes (parameter 'path') " + plugin.string()) &&
                                                Catch::Contains("it would be overwritten"));
    CHECK(fileText(QString::fromStdString(plugin.string())) == pluginBefore);
}

TEST_CASE("a run that cannot start shows its cause in the problems panel, named by node", "[ui][run][paths]") {
    // It showed a red "failed", "valid" and "No problems".
    QTemporaryDir folder;
    REQUIRE(folder.isValid());
    GraphDocument document;
    buildSine(document, 4800);
    document.addNode("io.wav_file_sink", 240, 200);
    REQUIRE(document.connectPorts("signal_generator", "out", "wav_file_sink", "in0").isEmpty());
    const QString missing = folder.filePath("no-such-folder/x.wav");
    REQUIRE(document.setParameter("wav_file_sink", "path", missing).isEmpty());
    RunController run;
    run.setDocument(&document);
    CHECK_FALSE(run.start());
    CHECK(run.state() == "failed");
    const isochron::GraphError problem = runProblem(document);
    CHECK(problem.node == "wav_file_sink");
    CHECK(problem.message.find("the folder '" + folder.filePath("no-such-folder").toStdString() + "' does not exist") != std::string::npos);
    CHECK(run.message().toStdString() == "node 'wav_file_sink', " + problem.message);  // as isochron-run --check says it
    CHECK(document.problems()->rowCount() == 1);
}

TEST_CASE("a node that cannot start names itself and its cause in the problems panel", "[ui][run][paths]") {
    // The engine refused to build (an event file is read when its node starts, not when the graph is
    // validated): only a red "failed".
    QTemporaryDir folder;
    REQUIRE(folder.isValid());
    const std::string events = folder.filePath("events.jsonl").toStdString();
    std::ofstream(events) << "not an event line\n";
    GraphDocument document;
    const QString source = document.addNode("io.jsonl_event_source", 0, 0);
    const QString sink = document.addNode("io.null_sink", 240, 0);
    REQUIRE(document.connectPorts(source, "out", sink, "in").isEmpty());
    REQUIRE(document.setParameter(source, "path", QString::fromStdString(events)).isEmpty());
    REQUIRE(document.problems()->rowCount() == 0);
    RunController run;
    run.setDocument(&document);
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return !run.running(); }));
    CHECK(run.state() == "failed");
    const isochron::GraphError problem = runProblem(document);
    CHECK(problem.node == source.toStdString());
    CHECK(problem.message.find("cannot start") != std::string::npos);
    CHECK(problem.message.find(events) != std::string::npos);
    CHECK(run.message().toStdString() == problem.toString());
    CHECK(document.problems()->rowCount() == 1);
}

namespace {

/// Runs `document` (a tone of amplitude 0.5) with a scope probe on `wire` and checks that the probed
/// peak follows a live edit of `node`'s amplitude to 0.1 without asking for a restart. The run goes on.
void checkLiveAmplitudeEdit(RunController& run, GraphDocument& document, const QString& wire, const QString& node) {
    REQUIRE(run.addProbe(wire, "scope").isEmpty());
    const auto ring = ProbeRegistry::instance().find(run.probes().front().toMap()["key"].toString().toStdString());
    REQUIRE(run.start());
    std::vector<float> newest(480);
    auto peak = [&] {
        const std::size_t n = ring->readLatest(newest.data(), newest.size());
        float most = 0;
        for (std::size_t i = 0; i < n; ++i) most = std::max(most, std::abs(newest[i]));
        return most;
    };
    REQUIRE(waitUntil([&] { return ring->written() >= 4800; }));
    CHECK(peak() == Approx(0.5).margin(0.01));
    REQUIRE(document.setParameter(node, "amplitude", 0.1).isEmpty());
    const std::uint64_t changedAt = ring->written();
    REQUIRE(waitUntil([&] { return ring->written() >= changedAt + 4800; }));
    CHECK(peak() <= 0.1001f);
    CHECK_FALSE(run.restartNeeded());
}

}  // namespace

TEST_CASE("live parameters reach the running engine; other edits ask for a restart", "[ui][run]") {
    GraphDocument document;
    buildSine(document, 480000);
    REQUIRE(document.setParameter("signal_generator", "pace", 1).isEmpty());
    RunController run;
    run.setDocument(&document);
    checkLiveAmplitudeEdit(run, document, "signal_generator.out>null_sink.in", "signal_generator");
    REQUIRE(document.setParameter("signal_generator", "frequency", 500).isEmpty());  // live too
    CHECK_FALSE(run.restartNeeded());
    REQUIRE(document.setParameter("signal_generator", "block", 960).isEmpty());  // not live
    CHECK(run.restartNeeded());
    run.stopAll();
    REQUIRE(waitUntil([&] { return !run.running(); }));
}

TEST_CASE("probes and live parameters reach inside a subgraph node", "[ui][run][subgraph]") {
    const std::filesystem::path folder = std::filesystem::temp_directory_path() / ("isochron-run-subgraph-test-" + std::to_string(getpid()));
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    GraphDocument document;
    buildSine(document, 480000);
    REQUIRE(document.setParameter("signal_generator", "pace", 1).isEmpty());
    REQUIRE(document.setParameter("signal_generator", "amplitude", 0.5).isEmpty());
    REQUIRE(document.saveAs(QString::fromStdString((folder / "main.isograph.json").string())));
    document.selection()->selectNodes({"signal_generator"});
    REQUIRE(document.groupSelection(QString::fromStdString((folder / "tone.isograph.json").string())).isEmpty());
    RunController run;
    run.setDocument(&document);
    checkLiveAmplitudeEdit(run, document, "tone.out>null_sink.in", "tone");
    run.stopAll();
    REQUIRE(waitUntil([&] { return !run.running(); }));
    std::filesystem::remove_all(folder);
}

TEST_CASE("probes come and go on a running graph without restarting it", "[ui][run][probe]") {
    GraphDocument document;
    RunController run;
    startPacedSine(document, run);
    REQUIRE(run.addProbe("signal_generator.out>null_sink.in", "scope").isEmpty());
    for (const QString kind : {"spectrum", "waterfall", "level"}) {  // each shares the wire's ring
        REQUIRE(run.addProbe("signal_generator.out>null_sink.in", kind).isEmpty());
        CHECK(run.probes().back().toMap()["view"].toString() == findProbeKind(kind)->view);
    }
    REQUIRE(run.probes().size() == 4);
    const QString scope = run.probes().front().toMap()["key"].toString();
    const auto ring = ProbeRegistry::instance().find(scope.toStdString());
    REQUIRE(ring);
    for (const QVariant& probe : run.probes()) CHECK(ProbeRegistry::instance().find(probe.toMap()["key"].toString().toStdString()) == ring);
    REQUIRE(waitUntil([&] { return ring->written() >= 4800; }));
    run.removeProbe(scope);
    CHECK(ProbeRegistry::instance().find(scope.toStdString()) == nullptr);
    CHECK(run.state() == "running");
    CHECK(run.telemetry()->runCount() == 1);  // never restarted
    // The samples the probe saw are the sine from where it was attached: consecutive, amplitude 0.5.
    std::vector<float> newest(480);
    REQUIRE(ring->readLatest(newest.data(), newest.size()) == 480);
    const float peak = std::abs(*std::max_element(newest.begin(), newest.end(), [](float a, float b) { return std::abs(a) < std::abs(b); }));
    CHECK(peak == Approx(0.5).margin(0.01));
    run.stopAll();
    REQUIRE(waitUntil([&] { return !run.running(); }));
}

TEST_CASE("only the probe kinds that can show a wire are offered for it", "[ui][run][probe]") {
    GraphDocument document;
    document.addNode("generators.signal_generator", 0, 0);
    document.addNode("segments.rewindow", 240, 0);
    document.addNode("spectral.fft", 480, 0);
    document.addNode("spectral.magnitude", 720, 0);
    document.addNode("io.null_sink", 960, 0);
    REQUIRE(document.connectPorts("signal_generator", "out", "rewindow", "in").isEmpty());
    REQUIRE(document.connectPorts("rewindow", "out", "fft", "in").isEmpty());
    REQUIRE(document.connectPorts("fft", "spectrum", "magnitude", "spectrum").isEmpty());
    REQUIRE(document.connectPorts("magnitude", "magnitude", "null_sink", "in").isEmpty());
    RunController run;
    run.setDocument(&document);
    auto fits = [&](const QString& wire) {
        QStringList names;
        for (const QVariant& kind : run.probeKindsFor(wire)) {
            if (kind.toMap()["fits"].toBool()) names.append(kind.toMap()["name"].toString());
        }
        return names;
    };
    CHECK(fits("rewindow.out>fft.in") == QStringList{"scope", "spectrum", "waterfall", "level"});  // windows are signals
    CHECK(fits("magnitude.magnitude>null_sink.in") == QStringList{"scope"});  // frames: no spectrum
    CHECK(fits("fft.spectrum>magnitude.spectrum").isEmpty());                 // complex frames: nothing
    const QVariantMap spectrum = run.probeKindsFor("magnitude.magnitude>null_sink.in").at(1).toMap();
    REQUIRE(spectrum["name"] == "spectrum");
    CHECK(spectrum["why"].toString().contains("frame<f32>"));
    CHECK(run.addProbe("magnitude.magnitude>null_sink.in", "spectrum") == spectrum["why"].toString());
}

TEST_CASE("opening another graph forgets the last one's runs, probes and states", "[ui][run]") {
    GraphDocument document;
    buildSine(document, 24000);
    RunController run;
    run.setDocument(&document);
    REQUIRE(run.addProbe("signal_generator.out>null_sink.in", "scope").isEmpty());
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return run.state() == "finished"; }));
    CHECK(run.telemetry()->runCount() == 1);
    REQUIRE(document.open(QStringLiteral(ISOCHRON_SOURCE_DIR "/samples/quickstart.isograph.json")));
    CHECK(run.state() == "idle");
    CHECK(run.schedulerText().isEmpty());
    CHECK(run.telemetry()->runCount() == 0);
    CHECK(run.probes().isEmpty());
    CHECK(run.localization()->events()->rowCount() == 0);
}

TEST_CASE("opening another graph while one runs stops it without reporting its end", "[ui][run]") {
    GraphDocument document;
    RunController run;
    int reports = 0;
    QObject::connect(&run, &RunController::runFinished, [&] { ++reports; });
    startPacedSine(document, run);
    document.newGraph();
    REQUIRE(waitUntil([&] { return !run.running(); }));
    CHECK(run.state() == "idle");
    CHECK(run.telemetry()->runCount() == 0);
    CHECK(reports == 0);
}

TEST_CASE("opening another localization graph clears the last one's bearings", "[ui][run][localization]") {
    // The two samples have the same localization outputs, so only the new document tells them apart.
    GraphDocument document;
    REQUIRE(document.open(QStringLiteral(ISOCHRON_SOURCE_DIR "/samples/localize-file.isograph.json")));
    RunController run;
    run.setDocument(&document);
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return !run.running(); }, 60000));
    REQUIRE(run.localization()->events()->rowCount() >= 4);
    REQUIRE(document.open(QStringLiteral(ISOCHRON_SOURCE_DIR "/samples/localize-live.isograph.json")));
    CHECK(run.localization()->events()->rowCount() == 0);
    CHECK(run.localization()->positions().empty());
    CHECK(run.state() == "idle");
}

namespace {

/// The watermark lag a wire's live text shows, in ms ("wm −205 ms", "wm −2.2 s", "wm 0 ms"); -1 if none.
double watermarkLagMs(const QString& text) {
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("wm (−?)([0-9.]+) (ms|s)")).match(text);
    if (!m.hasMatch()) return -1;
    return m.captured(2).toDouble() * (m.captured(3) == "s" ? 1000.0 : 1.0);
}

}  // namespace

TEST_CASE("wires show how far each stream's watermark lags the input, and a join the skew of its inputs", "[ui][run]") {
    // The fusion sample delays array b's link by 2 s (jitter 200 ms on both links): paced, the
    // band join's right input trails the sources by at least the delay, its left by less than a
    // second, and the join reports about the delay between them.
    GraphDocument document;
    REQUIRE(document.open(QStringLiteral(ISOCHRON_SOURCE_DIR "/samples/fusion-two-arrays.isograph.json")));
    for (const char* array : {"a", "b"}) REQUIRE(document.setParameter(array, "pace", 1).isEmpty());
    RunController run;
    run.setDocument(&document);
    auto liveText = [&](const char* wire) {
        return document.edges()->data(document.edges()->index(document.edges()->indexOf(wire)), EdgeListModel::LiveTextRole).toString();
    };
    auto skewText = [&] { return document.nodes()->get("join").value("skewText").toString(); };
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return watermarkLagMs(liveText("link_b.out>join.right")) >= 2000 && !skewText().isEmpty(); }));
    const QString right = liveText("link_b.out>join.right"), left = liveText("link_a.out>join.left");
    INFO("right: " << right.toStdString() << ", left: " << left.toStdString() << ", join: " << skewText().toStdString());
    CHECK(right.contains("/s · wm −"));  // the rate first, then the watermark
    CHECK(watermarkLagMs(left) >= 0);
    CHECK(watermarkLagMs(left) < 1000);
    const QRegularExpressionMatch skew = QRegularExpression(QStringLiteral("^skew ([0-9.]+) s$")).match(skewText());
    REQUIRE(skew.hasMatch());
    CHECK(skew.captured(1).toDouble() >= 1.5);
    CHECK(skew.captured(1).toDouble() <= 2.5);
    CHECK(document.nodes()->get("locate").value("skewText").toString().isEmpty());  // one input: no skew
    run.stopAll();
    REQUIRE(waitUntil([&] { return !run.running(); }));
}
