// Following a telemetry file another process writes: lines read back into the snapshots the engine's
// writer (telemetryToJson) wrote them from, nodes in one order as other ranks' nodes arrive, bad lines
// refused with file, line and field; under MPI a real `mpirun -np 3` job followed from its rank 0 file
// and run from the editor's RunController, its per-rank rows against the ranks' own reports.
#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>

#include <nlohmann/json.hpp>

#include "engine/telemetry/telemetry_json.h"
#include "ui/model/graph_document.h"
#include "ui/run/run_controller.h"
#include "ui/run/telemetry_file_follower.h"
#include "ui/run/telemetry_line.h"

using namespace isochron;
using namespace isochron::ui;

namespace {

// A snapshot of rank 0 with `clicks` and `clicks.out -> highpass.in (rank 1)`, and, once rank 1's
// snapshot arrived, rank 1's `highpass` (an output here) and its totals.
TelemetrySnapshot spreadSnapshot(std::uint64_t sequence, bool withRank1) {
    TelemetrySnapshot s;
    s.sequence = sequence;
    s.wallNs = 1'795'428'244'645'481'798 + static_cast<TimeNs>(sequence);
    s.elapsedSeconds = 0.5 * static_cast<double>(sequence);
    s.engineState = "running";
    s.liveBytes = 262144;
    s.nodes.resize(2);
    s.nodes[0].itemsOut = 10 * sequence;
    s.nodes[0].samplesOut = 40960 * sequence;
    s.nodes[0].watermarkNs = 1'000'000 * static_cast<TimeNs>(sequence);
    s.nodes[1].itemsIn = 10 * sequence;
    s.nodes[1].queuedItems = sequence;
    s.queues.push_back(QueueTelemetry{1, 0, sequence, 4096 * sequence, 0.25, kBeginningOfTime, 0});
    s.outputs.push_back(OutputTelemetry{1, 10 * sequence, 40960 * sequence, 20, 81920, 0.5, 0.4, 0.9, 1.1, 1, 1});
    s.ranks.push_back(RankTelemetry{0, sequence, s.elapsedSeconds, "running", 10 * sequence, 40960 * sequence, 20, 81920, sequence, 0, 0.4, 0.9, 1.1, 262144});
    s.ranks.push_back(RankTelemetry{1, 0, 0, "", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    if (withRank1) {
        NodeTelemetry& highpass = s.nodes.emplace_back();
        highpass.id = "highpass";
        highpass.rank = 1;
        highpass.itemsIn = 7 * sequence;
        highpass.itemsOut = 7 * sequence;
        s.outputs.push_back(OutputTelemetry{2, 7 * sequence, 28672 * sequence, 14, 57344, 2.5, 2.0, 3.0, 3.5, 0.75, 0.8});
        s.ranks[1] = RankTelemetry{1, sequence, s.elapsedSeconds - 0.1, "running", 7 * sequence, 28672 * sequence, 14, 57344, 2, 8192, 2.0, 3.0, 3.5, 131072};
    }
    return s;
}

const std::vector<std::string> kRank0Ids{"clicks", "clicks.out -> highpass.in (rank 1)"};

std::string line(const TelemetrySnapshot& s) { return telemetryToJson(s, kRank0Ids).dump() + "\n"; }

void append(const QString& path, const std::string& text) {
    std::ofstream file(path.toStdString(), std::ios::app | std::ios::binary);
    file << text;
}

bool waitUntil(const std::function<bool()>& done, int milliseconds) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < milliseconds) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return done();
}

}  // namespace

TEST_CASE("a followed telemetry file gives back what the engine wrote, nodes in one order as ranks arrive", "[ui][telemetry][follow]") {
    QTemporaryDir folder;
    const QString path = folder.filePath("t.rank0.jsonl");
    TelemetryFileFollower follower(path);
    CHECK(follower.readNew().empty());  // not written yet: nothing, and no error
    CHECK(follower.error().isEmpty());

    const std::string first = line(spreadSnapshot(1, false)), second = line(spreadSnapshot(2, true));
    append(path, first + second.substr(0, second.size() / 2));  // the writer is in the middle of line 2
    std::vector<TelemetrySnapshot> read = follower.readNew();
    REQUIRE(read.size() == 1);
    CHECK(follower.nodeIds() == kRank0Ids);
    CHECK(read[0].nodes.size() == 2);
    // What comes back writes out to the very same line.
    CHECK(telemetryToJson(read[0], follower.nodeIds()).dump() + "\n" == first);

    append(path, second.substr(second.size() / 2));
    read = follower.readNew();
    REQUIRE(read.size() == 1);
    CHECK(follower.nodeIds() == std::vector<std::string>{"clicks", "clicks.out -> highpass.in (rank 1)", "highpass"});
    CHECK(follower.outputIds() == std::vector<std::string>{"clicks.out -> highpass.in (rank 1)", "highpass"});
    const TelemetrySnapshot& s = read[0];
    REQUIRE(s.nodes.size() == 3);
    CHECK(s.nodes[2].rank == 1);
    CHECK(s.nodes[2].itemsIn == 14);
    CHECK(s.nodes[2].id.empty());  // named by nodeIds()
    REQUIRE(s.outputs.size() == 2);
    CHECK(s.outputs[1].node == 2);
    CHECK(s.outputs[1].latencyP95Ms == 3.0);
    REQUIRE(s.ranks.size() == 2);
    CHECK(s.ranks[1].items == 14);
    CHECK(s.ranks[1].engineState == "running");
    CHECK(s.queues.at(0).watermarkNs == kBeginningOfTime);
    CHECK(s.nodes[0].watermarkNs == 2'000'000);
    CHECK(telemetryToJson(s, follower.nodeIds()).dump() + "\n" == second);
    CHECK(follower.readNew().empty());
    CHECK(follower.lines() == 2);
}

TEST_CASE("a followed line taken while one call kept the engine names that node, as the engine wrote it", "[ui][telemetry][follow]") {
    TelemetrySnapshot busy = spreadSnapshot(2, true);
    busy.busyNode = 2;
    busy.busySeconds = 1.25;
    const std::string written = line(busy);
    const TelemetryLine read = parseTelemetryLine(written);
    CHECK(read.snapshot.busyNode == 2);
    CHECK(read.nodeIds.at(2) == "highpass");
    CHECK(read.snapshot.busySeconds == 1.25);
    CHECK(telemetryToJson(read.snapshot, read.nodeIds).dump() + "\n" == written);
    CHECK(parseTelemetryLine(line(spreadSnapshot(2, true))).snapshot.busyNode == -1);  // no "busy": between calls
}

TEST_CASE("a bad telemetry line stops the follower with the file, the line and the field", "[ui][telemetry][follow]") {
    QTemporaryDir folder;
    const QString path = folder.filePath("t.jsonl");
    nlohmann::json bad = telemetryToJson(spreadSnapshot(2, true), kRank0Ids);
    bad["nodes"]["highpass"]["items_in"] = -3;
    append(path, line(spreadSnapshot(1, false)) + bad.dump() + "\n" + line(spreadSnapshot(3, true)));
    TelemetryFileFollower follower(path);
    CHECK(follower.readNew().size() == 1);  // the lines before the bad one
    CHECK(follower.error() == path + ":2: nodes.highpass.items_in: is not a whole number >= 0: -3");
    CHECK(follower.readNew().empty());  // and it stays stopped
}

TEST_CASE("telemetry lines that are not what the engine writes are refused, saying why", "[ui][telemetry][follow]") {
    const nlohmann::json good = telemetryToJson(spreadSnapshot(2, true), kRank0Ids);
    CHECK_NOTHROW(parseTelemetryLine(good.dump()));
    const std::vector<std::pair<std::function<void(nlohmann::json&)>, std::string>> cases{
        {[](nlohmann::json& j) { j["format"] = "isochron-telemetry/2"; }, "format: is not \"isochron-telemetry/1\""},
        {[](nlohmann::json& j) { j.erase("sequence"); }, "line: has no \"sequence\""},
        {[](nlohmann::json& j) { j["state"] = "paused"; }, "line.state: is not \"running\", \"finished\" or \"stopped\""},
        {[](nlohmann::json& j) { j["elapsed_s"] = "soon"; }, "line.elapsed_s: is not a number"},
        {[](nlohmann::json& j) { j["nodes"]["clicks"]["items_out"] = 1.5; }, "nodes.clicks.items_out: is not a whole number >= 0"},
        {[](nlohmann::json& j) { j["nodes"]["clicks"]["watermark_ns"] = "soon"; }, "nodes.clicks.watermark_ns: is not null, \"end\" or a whole number"},
        {[](nlohmann::json& j) { j["nodes"]["clicks"]["failure"] = "x"; }, "nodes.clicks.failure: is only written when \"failed\" is true"},
        {[](nlohmann::json& j) { j["outputs"]["nowhere"] = j["outputs"]["highpass"]; }, "outputs.nowhere: names no node of \"nodes\""},
        {[](nlohmann::json& j) { j["outputs"]["highpass"]["rank"] = 0; }, "outputs.highpass.rank: differs from its node's rank"},
        {[](nlohmann::json& j) { j["queues"][0]["node"] = "nowhere"; }, "queues[0].node: names no node of \"nodes\""},
        {[](nlohmann::json& j) { j.erase("ranks"); }, "nodes.clicks.rank: is only written beside a \"ranks\" list"},
        {[](nlohmann::json& j) { j["ranks"] = nlohmann::json::array(); }, "ranks: is not a list of ranks"},
        {[](nlohmann::json& j) { j["ranks"][1]["latency_ms"].erase("p95"); }, "ranks[1].latency_ms: has no \"p95\""},
        {[](nlohmann::json& j) { j["busy"] = {{"node", "nowhere"}, {"seconds", 1.0}}; }, "busy.node: names no node of \"nodes\""},
        {[](nlohmann::json& j) { j["busy"] = {{"node", "highpass"}}; }, "busy: has no \"seconds\""},
    };
    for (const auto& [spoil, message] : cases) {
        nlohmann::json j = good;
        spoil(j);
        INFO(j.dump());
        CHECK_THROWS_WITH(parseTelemetryLine(j.dump()), Catch::StartsWith(message));
    }
    CHECK_THROWS_WITH(parseTelemetryLine("{\"format\": "), Catch::StartsWith("line: is not JSON"));
    CHECK_THROWS_WITH(parseTelemetryLine("[1, 2]"), "line: is not a JSON object");
    CHECK_THROWS_WITH(parseTelemetryLine(std::string(20, '[')), Catch::StartsWith("line: nests deeper than a telemetry snapshot"));
}

namespace {

// Follows `text` as a file through RunController::followTelemetry, the call Run > Follow Telemetry File… makes.
struct FollowedFile {
    QTemporaryDir folder;
    QString path;
    GraphDocument document;
    RunController run;

    explicit FollowedFile(const std::string& text) : path(folder.filePath("followed.jsonl")) {
        append(path, text);
        REQUIRE(document.open(QString::fromStdString(std::string(ISOCHRON_SOURCE_DIR) + "/samples/quickstart.isograph.json")));
        run.setDocument(&document);
        REQUIRE(run.followTelemetry(path));
    }
    std::string message() const { return run.message().toStdString(); }
    std::string expected(const std::string& rest) const { return path.toStdString() + rest; }
};

}  // namespace

TEST_CASE("following a file that is not telemetry fails with the file, the line and the field, and nothing else", "[ui][telemetry][follow]") {
    SECTION("a one-line file of garbage") {
        FollowedFile followed("garbage\n");
        CHECK(followed.run.state() == "failed");
        CHECK(followed.message() == followed.expected(":1: line: is not JSON (at byte 1)"));
    }
    SECTION("an event log, JSON lines of another kind") {
        std::ifstream onsets(std::string(ISOCHRON_SOURCE_DIR) + "/samples/data/doors-east.jsonl");
        const std::string text((std::istreambuf_iterator<char>(onsets)), std::istreambuf_iterator<char>());
        REQUIRE(!text.empty());
        FollowedFile followed(text);
        CHECK(followed.run.state() == "failed");
        CHECK(followed.message() == followed.expected(":1: line: has no \"format\""));
    }
    SECTION("good lines, then a line cut short") {
        const std::string cut = line(spreadSnapshot(3, true)).substr(0, 40);
        FollowedFile followed(line(spreadSnapshot(1, false)) + line(spreadSnapshot(2, true)) + cut + "\n");
        CHECK(followed.run.state() == "failed");
        CHECK(followed.message() == followed.expected(":3: line: is not JSON (at byte 41)"));
        CHECK(followed.run.telemetry()->latest("output/highpass/items") == 14);  // the good lines were read
    }
    SECTION("a snapshot whose sequence is text") {
        FollowedFile followed("{\"format\": \"isochron-telemetry/1\", \"sequence\": \"x\"}\n");
        CHECK(followed.run.state() == "failed");
        CHECK(followed.message() == followed.expected(":1: line.sequence: is not a whole number >= 0: \"x\""));
    }
    SECTION("an empty file waits for its first line") {
        FollowedFile followed("");
        CHECK(followed.run.state() == "running");
        CHECK(followed.run.running());
        followed.run.stop();
        CHECK(followed.run.state() == "stopped");
    }
}

TEST_CASE("a followed file whose rank 0 stopped shows the ranks it left running as stopped", "[ui][telemetry][follow]") {
    TelemetrySnapshot last = spreadSnapshot(3, true);
    last.engineState = "stopped";
    last.ranks[0].engineState = "stopped";  // rank 1 is still "running" in rank 0's last line
    FollowedFile followed(line(spreadSnapshot(1, false)) + line(spreadSnapshot(2, true)) + line(last));
    CHECK(followed.run.state() == "stopped");
    const QVariantList rows = followed.run.telemetry()->ranks();
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].toMap()["state"] == "stopped");
    CHECK(rows[1].toMap()["state"] == "stopped");
}

TEST_CASE("a followed file that stops growing is shown as stale, and Stop ends following it", "[ui][telemetry][follow]") {
    FollowedFile followed(line(spreadSnapshot(1, false)) + line(spreadSnapshot(2, true)));
    CHECK(followed.run.state() == "running");
    CHECK(followed.run.staleSeconds() == 0);
    REQUIRE(waitUntil([&] { return followed.run.staleSeconds() > 0; }, 60000));
    CHECK(followed.run.staleSeconds() >= RunController::kStaleSeconds);
    CHECK(followed.run.state() == "running");  // it may still grow
    // It grows again: fresh.
    append(followed.path, line(spreadSnapshot(3, true)));
    REQUIRE(waitUntil([&] { return followed.run.staleSeconds() == 0; }, 60000));
    CHECK(followed.run.telemetry()->latest("output/highpass/items") == 21);
    followed.run.stop();
    CHECK(followed.run.state() == "stopped");
    CHECK(!followed.run.running());
}

TEST_CASE("a followed line taken while one call kept the engine shows that node as busy until a line without it", "[ui][telemetry][follow]") {
    TelemetrySnapshot busy = spreadSnapshot(2, true);
    busy.busyNode = 2;
    busy.busySeconds = 1.5;
    FollowedFile followed(line(spreadSnapshot(1, false)) + line(busy));
    REQUIRE(waitUntil([&] { return !followed.run.busy().isEmpty(); }, 60000));
    CHECK(followed.run.busy() == "highpass for 1.5 s");
    append(followed.path, line(spreadSnapshot(3, true)));
    REQUIRE(waitUntil([&] { return followed.run.busy().isEmpty(); }, 60000));
    followed.run.stop();
}

#ifdef ISOCHRON_MPIEXEC

namespace {

const std::string kSample = std::string(ISOCHRON_SOURCE_DIR) + "/samples/scale-out-three-ranks.isograph.json";

// mpirun may run as root here (a container), and put 3 ranks on fewer cores.
void allowMpirunHere() {
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
}

nlohmann::json readJsonFile(const QString& path) {
    std::ifstream file(path.toStdString());
    return nlohmann::json::parse(file);
}

// The sample's sinks write into `folder` instead of the samples folder.
void sinksInto(GraphDocument& document, const QTemporaryDir& folder) {
    REQUIRE(document.setParameter("recording", "path", folder.filePath("out.wav")).isEmpty());
    REQUIRE(document.setParameter("onset-log", "path", folder.filePath("onsets.jsonl")).isEmpty());
    REQUIRE(document.setParameter("level-log", "path", folder.filePath("level.jsonl")).isEmpty());
}

}  // namespace

TEST_CASE("an mpirun job's rank 0 telemetry followed in the editor shows each rank as the ranks report it", "[ui][telemetry][follow][mpi]") {
    allowMpirunHere();
    QTemporaryDir folder;
    const QString prefix = folder.filePath("spread");
    const std::string command = std::string(ISOCHRON_MPIEXEC) + " -np 3 --oversubscribe " + ISOCHRON_RUN_BINARY + " " + kSample +
                                " --set recording.path=" + prefix.toStdString() + ".wav --set onset-log.path=" + prefix.toStdString() +
                                "-onsets.jsonl --set level-log.path=" + prefix.toStdString() + "-level.jsonl --report " + prefix.toStdString() +
                                ".json --telemetry " + prefix.toStdString() + ".jsonl > " + prefix.toStdString() + ".out 2>&1";
    REQUIRE(std::system(command.c_str()) == 0);

    GraphDocument document;
    REQUIRE(document.open(QString::fromStdString(kSample)));
    RunController run;
    run.setDocument(&document);
    REQUIRE(run.followTelemetry(prefix + ".rank0.jsonl"));
    // The file was written to its end: following it reads it whole and ends with its last line.
    CHECK(run.state() == "finished");
    CHECK(run.followedFile() == prefix + ".rank0.jsonl");

    const QVariantList rows = run.telemetry()->ranks();
    REQUIRE(rows.size() == 3);
    const QStringList nodes = run.telemetry()->nodes();
    qsizetype nodesReported = 0;
    for (int rank = 0; rank < 3; ++rank) {
        INFO("rank " << rank);
        const nlohmann::json report = readJsonFile(prefix + ".rank" + QString::number(rank) + ".json");
        const QVariantMap row = rows[rank].toMap();
        CHECK(row["rank"].toInt() == rank);
        CHECK(row["state"].toString() == "finished");
        double items = 0, samples = 0;
        for (const auto& [id, output] : report["outputs"].items()) {
            INFO("output " << id);
            items += output["items"].get<double>();
            samples += output["samples"].get<double>();
            // Each output of each rank has its own plots, ending at what the rank reports.
            CHECK(run.telemetry()->latest(QString::fromStdString("output/" + id + "/items")) == output["items"].get<double>());
        }
        CHECK(items > 0);
        CHECK(row["items"].toDouble() == items);
        CHECK(row["samples"].toDouble() == samples);
        for (const auto& [id, node] : report["nodes"].items()) {
            INFO("node " << id);
            ++nodesReported;
            CHECK(nodes.contains(QString::fromStdString(id)));
        }
    }
    CHECK(nodes.size() == nodesReported);  // every node of every rank once, in the per-operator plots
}

TEST_CASE("Run on MPI ranks runs the graph as edited on its partitions and follows every rank to the end", "[ui][telemetry][follow][mpi]") {
    allowMpirunHere();
    QTemporaryDir folder;
    GraphDocument document;
    REQUIRE(document.open(QString::fromStdString(kSample)));
    sinksInto(document, folder);
    // An edit the file does not have: the run must be of the graph as it is in the editor.
    REQUIRE(document.setParameter("clicks", "duration", 2).isEmpty());
    RunController run;
    run.setDocument(&document);
    REQUIRE(run.ranksNeeded() == 3);
    REQUIRE(run.ranksRefusal().isEmpty());

    // The reference: the same graph in the editor's own engine, in one process.
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return !run.running(); }, 60000));
    REQUIRE(run.state() == "finished");
    std::map<std::string, double> alone;
    for (const QString& output : run.telemetry()->outputs()) alone[output.toStdString()] = run.telemetry()->latest("output/" + output + "/items");
    CHECK(alone.size() == 4);  // recording, onset-log, level-log, frames

    REQUIRE(run.startOnRanks());
    CHECK(run.running());
    REQUIRE(waitUntil([&] { return !run.running(); }, 120000));
    INFO(run.message().toStdString());
    REQUIRE(run.state() == "finished");
    CHECK(run.followedFile().endsWith("telemetry.rank0.jsonl"));
    const QVariantList rows = run.telemetry()->ranks();
    REQUIRE(rows.size() == 3);
    for (const QVariant& row : rows) CHECK(row.toMap()["state"].toString() == "finished");
    // The graph's own outputs come first (the run panel opens on the first), then the channel ends.
    const QStringList outputs = run.telemetry()->outputs();
    REQUIRE(outputs.size() > 4);
    for (int i = 0; i < outputs.size(); ++i) CHECK(alone.count(outputs[i].toStdString()) == (i < 4 ? 1U : 0U));
    // Every output of the graph reached, on whichever rank, with what it reached in one process.
    for (const auto& [output, items] : alone) {
        INFO("output " << output);
        CHECK(items > 0);
        CHECK(run.telemetry()->latest(QString::fromStdString("output/" + output + "/items")) == items);
    }
}

TEST_CASE("Run on MPI ranks says why it cannot run a graph without partitions", "[ui][telemetry][follow][mpi]") {
    GraphDocument document;
    document.addNode("generators.signal_generator", 0, 0);
    RunController run;
    run.setDocument(&document);
    CHECK(run.ranksNeeded() == 0);
    CHECK(run.ranksRefusal().startsWith("No node has a partition"));
    CHECK_FALSE(run.startOnRanks());
    CHECK(run.state() == "failed");
    CHECK(run.message() == run.ranksRefusal());
}

#endif

#ifdef ISOCHRON_MPIEXEC

TEST_CASE("Stop on an mpirun job shows every rank stopped, as asked and not as a warning", "[ui][telemetry][follow][mpi]") {
    allowMpirunHere();
    QTemporaryDir folder;
    GraphDocument document;
    REQUIRE(document.open(QString::fromStdString(kSample)));
    sinksInto(document, folder);
    REQUIRE(document.setParameter("clicks", "duration", 600).isEmpty());
    REQUIRE(document.setParameter("clicks", "pace", 1).isEmpty());
    RunController run;
    run.setDocument(&document);
    REQUIRE(run.startOnRanks());
    // Every rank has sent a snapshot to rank 0.
    auto everyRankRunning = [&] {
        const QVariantList rows = run.telemetry()->ranks();
        return rows.size() == 3 && std::all_of(rows.begin(), rows.end(), [](const QVariant& row) { return row.toMap()["state"] == "running"; });
    };
    REQUIRE(waitUntil(everyRankRunning, 120000));
    // And rank 2's recording has samples: a Stop before its first leaves no recording to check below
    // (paced sources send at most 10 ms a turn, so under load that can take a while).
    REQUIRE(waitUntil([&] { return run.telemetry()->latest("output/recording/items") > 0; }, 120000));
    run.stop();
    REQUIRE(waitUntil([&] { return !run.running(); }, 120000));
    INFO(run.message().toStdString());
    CHECK(run.state() == "stopped");
    for (const QVariant& row : run.telemetry()->ranks()) CHECK(row.toMap()["state"] == "stopped");
    CHECK(run.message().endsWith("every rank ended its run at the Stop (SIGUSR2)"));
    // Every rank exits 140 on SIGUSR2, which Open MPI reports as a job aborted for a non-zero status:
    // not shown, nor each rank's confirmation; what else the ranks said is, not as a warning.
    const QString notices = run.notices().join('\n');
    INFO(notices.toStdString());
    CHECK_FALSE(run.noticesWarn());
    CHECK_FALSE(notices.contains("non-zero"));
    CHECK_FALSE(notices.contains("stopped by signal"));
    CHECK_FALSE(notices.contains("Forwarding signal"));
    CHECK_FALSE(notices.contains("-----"));
    if (!run.notices().isEmpty()) CHECK(run.notices().front().startsWith("Stopped as asked: Stop sent SIGUSR2 to mpirun"));
    // Rank 2's sink had the time to close: the recording is there, not left as a .partial.
    CHECK(QFileInfo::exists(folder.filePath("out.wav")));
    CHECK(!QFileInfo::exists(folder.filePath("out.wav.partial")));
}

TEST_CASE("Run on MPI ranks finds the files its subgraph nodes' parameters name", "[ui][telemetry][follow][mpi]") {
    allowMpirunHere();
    QTemporaryDir folder;
    GraphDocument document;
    REQUIRE(document.open(QString::fromStdString(std::string(ISOCHRON_SOURCE_DIR) + "/samples/scale-out-field-arrays.isograph.json")));
    RunController run;
    run.setDocument(&document);
    // The reference: the editor's own engine, in one process.
    REQUIRE(document.setParameter("positions", "path", folder.filePath("alone.jsonl")).isEmpty());
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return !run.running(); }, 120000));
    REQUIRE(run.state() == "finished");

    REQUIRE(document.setParameter("positions", "path", folder.filePath("ranks.jsonl")).isEmpty());
    REQUIRE(run.startOnRanks());
    REQUIRE(waitUntil([&] { return !run.running(); }, 180000));
    INFO(run.message().toStdString());
    REQUIRE(run.state() == "finished");
    std::ifstream alone(folder.filePath("alone.jsonl").toStdString()), ranks(folder.filePath("ranks.jsonl").toStdString());
    const std::string aloneText((std::istreambuf_iterator<char>(alone)), std::istreambuf_iterator<char>());
    const std::string ranksText((std::istreambuf_iterator<char>(ranks)), std::istreambuf_iterator<char>());
    CHECK(!aloneText.empty());
    CHECK(ranksText == aloneText);
}

#endif
