// isochron-run --partitions threads: every partition of a graph on a thread of its own in one process
// (no MPI needed). The parasplit samples give exactly the outputs of the same graph run whole, under
// several schedulers; the report lists every node once and each channel delivered what was put in it;
// a slow consumer partition holds its channel at its capacity; a node failing in one partition is
// disabled as in the graph run whole; a stop signal ends every partition with no thread left waiting. Partition numbers
// are labels (0, 2 and 1000 start three threads), and a thread that cannot start ends the run with a
// message, not an abort.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>
#include <sndfile.h>

#include "tests/support/test_files.h"
#include "tests/support/run_command.h"

namespace fs = std::filesystem;
using isochron::test::CommandResult;

using isochron::test::readText;
using isochron::test::readJson;

namespace {

fs::path tempPath(const std::string& name) { return fs::temp_directory_path() / ("isochron-threads-" + std::to_string(getpid()) + "-" + name); }

// isochron-run with `arguments` (a run that hangs is killed after 120 s, and fails the test).
CommandResult run(const std::string& arguments) { return isochron::test::runProgram("timeout -s KILL 120 " ISOCHRON_RUN_BINARY, arguments); }

// FNV-1a over every sample of a sound file (as floats, channel-interleaved), with its frame count.
std::pair<std::uint64_t, sf_count_t> sampleHash(const fs::path& path) {
    SF_INFO info{};
    SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
    REQUIRE(file != nullptr);
    std::vector<float> samples(static_cast<std::size_t>(info.frames * info.channels));
    CHECK(sf_readf_float(file, samples.data(), info.frames) == info.frames);
    sf_close(file);
    std::uint64_t hash = 14695981039346656037ull;
    for (const float sample : samples) {
        std::uint32_t bits;
        std::memcpy(&bits, &sample, sizeof bits);
        for (int b = 0; b < 4; ++b) hash = (hash ^ ((bits >> (8 * b)) & 0xff)) * 1099511628211ull;
    }
    return {hash, info.frames};
}

const std::string kSamples = std::string(ISOCHRON_SOURCE_DIR) + "/samples/";

// The report's node ids, in order.
std::vector<std::string> nodeIds(const nlohmann::json& report) {
    std::vector<std::string> ids;
    for (const auto& [id, node] : report["nodes"].items()) ids.push_back(id);
    return ids;
}

// Every channel of a threads run's report handed on all that was put in it, never more than its
// capacity at once; returns the data items the channels carried.
std::uint64_t checkChannels(const nlohmann::json& report, std::size_t expectedChannels) {
    REQUIRE(report["channels"].size() == expectedChannels);
    std::uint64_t items = 0;
    for (const auto& channel : report["channels"]) {
        INFO(channel.dump());
        CHECK(channel["peak_in_flight"].get<int>() <= channel["capacity"].get<int>());
        CHECK(channel["messages"].get<std::uint64_t>() > channel["items"].get<std::uint64_t>());  // progress and the end travel too
        items += channel["items"].get<std::uint64_t>();
    }
    return items;
}

}  // namespace

TEST_CASE("the parasplit FIR sample on threads records what it records run whole, under every scheduler", "[runner][threads]") {
    const std::string sample = kSamples + "parasplit-fir-three-ranks.isograph.json";
    // 12 s of noise: 36 windows of 16384 samples, 12 to each replica.
    const auto arguments = [&](const fs::path& prefix, const std::string& scheduler, bool threads) {
        return sample + " --quiet --scheduler " + scheduler + " --set noise.duration=12 --set recording.path=" + prefix.string() + ".wav --report " +
               prefix.string() + ".json" + (threads ? " --partitions threads" : "");
    };
    const fs::path whole = tempPath("fir-whole");
    const CommandResult reference = run(arguments(whole, "df", false));
    INFO(reference.output);
    REQUIRE(reference.status == 0);
    const auto [wholeHash, wholeFrames] = sampleHash(whole.string() + ".wav");
    CHECK(wholeFrames == 12 * 48000);
    const nlohmann::json wholeReport = readJson(whole.string() + ".json");
    for (const char* scheduler : {"df", "fifo", "rtc", "qos", "superbox-mc:workers=2"}) {
        DYNAMIC_SECTION("scheduler " << scheduler) {
            const fs::path spread = tempPath(std::string("fir-threads-") + scheduler);
            const CommandResult threads = run(arguments(spread, scheduler, true));
            INFO(threads.output);
            REQUIRE(threads.status == 0);
            const auto [hash, frames] = sampleHash(spread.string() + ".wav");
            CHECK(frames == wholeFrames);
            CHECK(hash == wholeHash);
            const nlohmann::json report = readJson(spread.string() + ".json");
            CHECK(report["completed"] == true);
            CHECK(report["partitions"] == 3);
            CHECK(nodeIds(report) == nodeIds(wholeReport));  // every node once, no channel ends
            CHECK(report["outputs"]["recording"]["items"] == wholeReport["outputs"]["recording"]["items"]);
            CHECK(report["outputs"]["recording"]["samples"] == 12 * 48000);
            for (const char* node : {"noise", "split", "lowpass0", "lowpass1", "lowpass2", "merge"}) {
                INFO("node " << node);
                CHECK(report["nodes"][node]["samples_out"] == wholeReport["nodes"][node]["samples_out"]);
            }
            // split -> lowpass1, split -> lowpass2, lowpass0 -> merge, lowpass1 -> merge: the windows
            // of two replicas go over, and the outputs of two come back.
            CHECK(checkChannels(report, 4) == 4 * 12);
            fs::remove(spread.string() + ".wav");
            fs::remove(spread.string() + ".json");
        }
    }
    fs::remove(whole.string() + ".wav");
    fs::remove(whole.string() + ".json");
}

TEST_CASE("the fine-grid localizer sample on threads gives the bearings it gives run whole, under every scheduler", "[runner][threads]") {
    const std::string sample = kSamples + "parasplit-fine-grid-localizer.isograph.json";
    const fs::path wholeLines = tempPath("fine-grid-whole.jsonl");
    const CommandResult reference = run(sample + " --quiet --set bearings.path=" + wholeLines.string());
    INFO(reference.output);
    REQUIRE(reference.status == 0);
    const std::string expected = readText(wholeLines);
    CHECK(std::count(expected.begin(), expected.end(), '\n') == 5);  // the recording's five sounds
    for (const char* scheduler : {"df", "fifo", "rtc", "qos"}) {
        DYNAMIC_SECTION("scheduler " << scheduler) {
            const fs::path lines = tempPath(std::string("fine-grid-threads-") + scheduler + ".jsonl");
            const fs::path report = tempPath(std::string("fine-grid-threads-") + scheduler + ".json");
            const CommandResult threads = run(sample + " --quiet --partitions threads --scheduler " + scheduler + " --set bearings.path=" + lines.string() +
                                              " --report " + report.string());
            INFO(threads.output);
            REQUIRE(threads.status == 0);
            CHECK(readText(lines) == expected);
            const nlohmann::json json = readJson(report);
            CHECK(json["partitions"] == 3);
            CHECK(json["nodes"].contains("grid0"));
            CHECK(json["nodes"].contains("grid1"));
            fs::remove(lines);
            fs::remove(report);
        }
    }
    fs::remove(wholeLines);
}

TEST_CASE("a consumer partition held back keeps its channel at its capacity, however much the producer has", "[runner][threads][backpressure]") {
    // 480 blocks made as fast as possible on partition 0; partition 1 spends 2 ms on each.
    const fs::path graph = tempPath("slow-consumer.isograph.json"), report = tempPath("slow-consumer.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "partition": 0, "params": {"duration": 40.96, "block": 4096}},
      {"id": "slow", "type": "workload.universal_box", "partition": 1, "params": {"cost_us": 2000}},
      {"id": "sink", "type": "io.null_sink", "partition": 1}],
      "edges": [{"from": "gen.out", "to": "slow.in0"}, {"from": "slow.out", "to": "sink.in"}]})";
    const CommandResult finished = run(graph.string() + " --quiet --partitions threads --channel-credits 4 --report " + report.string());
    INFO(finished.output);
    REQUIRE(finished.status == 0);
    const nlohmann::json json = readJson(report);
    REQUIRE(json["channels"].size() == 1);
    const nlohmann::json& channel = json["channels"][0];
    CHECK(channel["items"] == 480);
    CHECK(channel["capacity"] == 4);
    CHECK(channel["peak_in_flight"] == 4);     // the ring filled up ...
    CHECK(channel["waits"].get<int>() > 0);    // ... and the producer waited for the consumer
    CHECK(json["outputs"]["sink"]["items"] == 480);
    fs::remove(graph);
    fs::remove(report);
}

TEST_CASE("a node failing in one partition is disabled as in the graph run whole: the sources that fed only it stop", "[runner][threads][faults]") {
    // The recording (partition 2), the only sink, fails at its first write; the noise (partition 0)
    // never ends, so the run ends only if the cut-off reaches back across both channels to it, as
    // in one engine, where a source whose items can reach no working output is stopped.
    const fs::path report = tempPath("failing.json");
    const CommandResult finished = run(kSamples + "parasplit-fir-three-ranks.isograph.json --partitions threads --set noise.duration=0 "
                                                  "--set recording.path=/dev/full --report " + report.string());
    INFO(finished.output);
    CHECK(finished.status == 2);
    CHECK(finished.output.find("error: node 'recording': cannot write '/dev/full'") != std::string::npos);
    const nlohmann::json json = readJson(report);
    // As the graph run whole says: completed, not stopped (no stop was requested, and no partition
    // was ended by another's failure).
    CHECK(json["completed"] == true);
    CHECK(json["stopped"] == false);
    REQUIRE(json["failures"].size() == 1);
    CHECK(json["nodes"]["recording"]["failure"].get<std::string>().find("/dev/full") != std::string::npos);
    CHECK(finished.output.find("node 'noise': stopped early: every path from it ends at a failed node") != std::string::npos);
    fs::remove(report);
}

TEST_CASE("a node failing in a partition other than 0 is named when it fails, even with --quiet", "[runner][threads][faults]") {
    // --quiet prints no summary: the line can only come from the failure listener of partition 2's engine.
    const CommandResult finished = run(kSamples + "parasplit-fir-three-ranks.isograph.json --quiet --partitions threads --set noise.duration=0 "
                                                  "--set recording.path=/dev/full");
    INFO(finished.output);
    CHECK(finished.status == 2);
    CHECK(finished.output.find("isochron-run: error: node 'recording': cannot write '/dev/full'") != std::string::npos);
}

TEST_CASE("only the partitions that hold nodes run on threads, whatever their numbers", "[runner][threads]") {
    const fs::path graph = tempPath("sparse.isograph.json"), report = tempPath("sparse.json"), lines = tempPath("sparse.jsonl");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "partition": 0, "params": {"duration": 2, "block": 4800}},
      {"id": "relay", "type": "segments.pass_through", "partition": 1000},
      {"id": "sink", "type": "io.null_sink", "partition": 2}],
      "edges": [{"from": "gen.out", "to": "relay.in"}, {"from": "relay.out", "to": "sink.in"}]})";
    const CommandResult finished = run(graph.string() + " --quiet --partitions threads --report " + report.string());
    INFO(finished.output);
    REQUIRE(finished.status == 0);
    const nlohmann::json json = readJson(report);
    CHECK(json["completed"] == true);
    CHECK(json["partitions"] == 3);  // not 1001
    CHECK(json["outputs"]["sink"]["samples"] == 2 * 48000);
    CHECK(checkChannels(json, 2) == 2 * 20);  // gen -> relay and relay -> sink, 20 blocks each
    // The plan (printed by builds with MPI, where rank k runs partition k) names the idle ranks in one line.
    const CommandResult check = run(graph.string() + " --check");
    INFO(check.output);
    CHECK(check.status == 0);
    if (check.output.find("partitions: 1001") != std::string::npos) {
        CHECK(check.output.find("ranks 3 to 999: nothing") != std::string::npos);
        CHECK(check.output.find("rank 500:") == std::string::npos);
    }
    fs::remove(graph);
    fs::remove(report);
}

#ifndef ISOCHRON_SANITIZED  // the sanitizers reserve more address space than the limit below allows
TEST_CASE("a partition thread that cannot start ends the run with a message, not an abort", "[runner][threads][faults]") {
    // Eight partitions, each thread's stack 256 MB, in 1 GB of address space: setup fits, and at the
    // latest the fourth thread cannot start. The source never ends, so the threads already running
    // end only if they are stopped.
    const fs::path graph = tempPath("chain.isograph.json");
    std::ostringstream nodes, edges;
    nodes << R"({"id": "gen", "type": "generators.signal_generator", "partition": 0, "params": {"duration": 0}})";
    std::string previous = "gen";
    for (int k = 1; k < 7; ++k) {
        nodes << R"(, {"id": "relay)" << k << R"(", "type": "segments.pass_through", "partition": )" << k << "}";
        edges << (k > 1 ? ", " : "") << R"({"from": ")" << previous << R"(.out", "to": "relay)" << k << R"(.in"})";
        previous = "relay" + std::to_string(k);
    }
    nodes << R"(, {"id": "sink", "type": "io.null_sink", "partition": 7})";
    edges << R"(, {"from": ")" << previous << R"(.out", "to": "sink.in"})";
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [)" << nodes.str() << R"(], "edges": [)" << edges.str() << "]}";
    const CommandResult finished = isochron::test::runProgram(
        "ulimit -s 262144 && ulimit -v 1000000 && exec timeout -s KILL 120 " ISOCHRON_RUN_BINARY,
        graph.string() + " --quiet --partitions threads");
    INFO(finished.output);
    CHECK(finished.status == 1);
    CHECK(finished.output.find("isochron-run: cannot start a thread for partition") != std::string::npos);
    CHECK(finished.output.find("terminate called") == std::string::npos);
    fs::remove(graph);
}
#endif

TEST_CASE("a stop signal ends every partition on threads and the report is written", "[runner][threads][faults]") {
    // A real-time signal for ever, relayed through three partitions: only the signal ends it.
    const fs::path graph = tempPath("endless.isograph.json"), report = tempPath("endless.json"), output = tempPath("endless.txt");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "partition": 0, "params": {"duration": 0, "block": 480, "pace": 1}},
      {"id": "relay", "type": "segments.pass_through", "partition": 1},
      {"id": "sink", "type": "io.null_sink", "partition": 2}],
      "edges": [{"from": "gen.out", "to": "relay.in"}, {"from": "relay.out", "to": "sink.in"}]})";
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        alarm(120);  // a run that hangs ends the test instead of stalling it
        FILE* out = std::fopen(output.c_str(), "w");
        if (!out || dup2(fileno(out), STDOUT_FILENO) < 0 || dup2(fileno(out), STDERR_FILENO) < 0) _exit(127);
        execl(ISOCHRON_RUN_BINARY, ISOCHRON_RUN_BINARY, graph.c_str(), "--partitions", "threads", "--report", report.c_str(), nullptr);
        _exit(127);
    }
    // The run has started once it says so (its signal handlers are in place by then).
    for (int polls = 0; readText(output).find("3 partitions on threads") == std::string::npos; ++polls) {
        REQUIRE(polls < 12000);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE(kill(pid, SIGTERM) == 0);
    int raw = 0;
    REQUIRE(waitpid(pid, &raw, 0) == pid);
    INFO(readText(output));
    REQUIRE(WIFEXITED(raw));
    CHECK(WEXITSTATUS(raw) == 128 + SIGTERM);
    const nlohmann::json json = readJson(report);
    CHECK(json["stopped"] == true);
    CHECK(json["failures"].empty());
    CHECK(nodeIds(json) == std::vector<std::string>{"gen", "relay", "sink"});
    fs::remove(graph);
    fs::remove(report);
    fs::remove(output);
}

TEST_CASE("--partitions takes whole or threads, and a graph without partitions runs whole", "[runner][threads]") {
    const CommandResult bad = run(kSamples + "parasplit-fir-three-ranks.isograph.json --partitions ranks");
    CHECK(bad.status == 1);
    CHECK(bad.output.find("--partitions needs 'whole' or 'threads'") != std::string::npos);
    const fs::path graph = tempPath("plain.isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"duration": 1}}, {"id": "sink", "type": "io.null_sink"}],
      "edges": [{"from": "gen.out", "to": "sink.in"}]})";
    const CommandResult plain = run(graph.string() + " --partitions threads");
    INFO(plain.output);
    CHECK(plain.status == 0);
    CHECK(plain.output.find("the graph has no partitions") != std::string::npos);
    fs::remove(graph);
}
