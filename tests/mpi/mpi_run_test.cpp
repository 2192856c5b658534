// isochron-run under `mpirun -np 3` on this machine: a partitioned graph gives exactly the outputs of
// the same graph in one process, a consumer rank held back bounds what a channel has in flight (by its
// credit counters), a killed rank ends the whole run within 2 s with a message naming it, and
// partitions that cannot run, or files that clash across ranks, are refused before anything starts.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>
#include <sndfile.h>

#include "tests/support/test_files.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

using isochron::test::readText;
using isochron::test::readJson;

namespace {

fs::path tempPath(const std::string& name) { return fs::temp_directory_path() / ("isochron-mpi-" + std::to_string(getpid()) + "-" + name); }

// `mpirun -np ranks isochron-run arguments...` (ranks = 0: isochron-run alone), standard output and
// error into `outputPath`. mpirun is allowed to run as root and to put 3 ranks on fewer cores.
pid_t launch(const std::vector<std::string>& command, const fs::path& outputPath);

pid_t start(int ranks, const std::vector<std::string>& arguments, const fs::path& outputPath) {
    std::vector<std::string> command;
    if (ranks > 0) command = {ISOCHRON_MPIEXEC, "-np", std::to_string(ranks), "--oversubscribe"};
    command.push_back(ISOCHRON_RUN_BINARY);
    command.insert(command.end(), arguments.begin(), arguments.end());
    return launch(command, outputPath);
}

// `command` (a program and its arguments), standard output and error into `outputPath`.
pid_t launch(const std::vector<std::string>& command, const fs::path& outputPath) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
        signal(SIGINT, SIG_DFL);  // a test started in the background inherits SIGINT ignored, and mpirun keeps that
        FILE* out = std::fopen(outputPath.c_str(), "w");
        if (!out || dup2(fileno(out), STDOUT_FILENO) < 0 || dup2(fileno(out), STDERR_FILENO) < 0) _exit(127);
        std::vector<char*> argv;
        for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));  // execvp does not change them
        argv.push_back(nullptr);
        execvp(argv[0], argv.data());
        _exit(127);
    }
    return pid;
}

// Exit status (1000 + signal if killed), or -1 if it was still running after `limit` (then killed:
// a hang fails the test instead of hanging it).
int waitAtMost(pid_t pid, std::chrono::duration<double> limit) {
    const auto deadline = Clock::now() + limit;
    int raw = 0;
    while (waitpid(pid, &raw, WNOHANG) == 0) {
        if (Clock::now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &raw, 0);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : 1000 + WTERMSIG(raw);
}

// How many times `word` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& word) {
    std::size_t count = 0;
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + word.size())) ++count;
    return count;
}

struct Finished {
    int status;
    std::string output;
};

Finished run(int ranks, const std::vector<std::string>& arguments) {
    const fs::path output = tempPath("output.txt");
    const int status = waitAtMost(start(ranks, arguments, output), std::chrono::seconds(120));
    Finished finished{status, readText(output)};
    fs::remove(output);
    return finished;
}

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

// The rank processes mpirun `launcher` started, by rank (read from their environment).
std::map<int, pid_t> ranksOf(pid_t launcher) {
    std::map<int, pid_t> ranks;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::istringstream stat(readText(entry.path() / "stat"));
        std::string pid, comm, state;
        pid_t parent = 0;
        stat >> pid >> comm >> state >> parent;
        if (parent != launcher) continue;
        std::ifstream environ(entry.path() / "environ");
        for (std::string variable; std::getline(environ, variable, '\0');) {
            if (variable.starts_with("OMPI_COMM_WORLD_RANK=")) ranks[std::stoi(variable.substr(21))] = std::stoi(name);
        }
    }
    return ranks;
}

// Waits until every one of the `count` ranks mpirun `launcher` started runs its part (each prints
// "[rank k] running ..." into `output`); their processes by rank. Fails (killing mpirun) after 60 s.
std::map<int, pid_t> waitUntilRanksRun(pid_t launcher, const fs::path& output, int count) {
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    for (;;) {
        const std::string text = readText(output);
        const std::map<int, pid_t> ranks = ranksOf(launcher);
        bool running = static_cast<int>(ranks.size()) == count;
        for (int rank = 0; rank < count; ++rank) running = running && text.find("[rank " + std::to_string(rank) + "] running") != std::string::npos;
        if (running) return ranks;
        if (Clock::now() > deadline) {
            kill(launcher, SIGKILL);
            waitpid(launcher, nullptr, 0);
            FAIL("the ranks did not start: " << text);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

const std::string kSample = std::string(ISOCHRON_SOURCE_DIR) + "/samples/scale-out-three-ranks.isograph.json";

// The sample graph's file outputs redirected to `prefix`*.
std::vector<std::string> outputsTo(const fs::path& prefix, const fs::path& report) {
    return {kSample, "--set", "recording.path=" + prefix.string() + ".wav", "--set", "onset-log.path=" + prefix.string() + "-onsets.jsonl",
            "--set", "level-log.path=" + prefix.string() + "-level.jsonl", "--report", report.string()};
}

}  // namespace

TEST_CASE("the sample graph on three ranks writes exactly what it writes in one process", "[mpi]") {
    const fs::path alone = tempPath("alone"), spread = tempPath("spread");
    const Finished one = run(0, outputsTo(alone, alone.string() + ".json"));
    INFO(one.output);
    REQUIRE(one.status == 0);
    const Finished three = run(3, outputsTo(spread, spread.string() + ".json"));
    INFO(three.output);
    REQUIRE(three.status == 0);

    // Every line the ranks printed went out whole, starting with its rank ("[rank k] ").
    std::istringstream lines(three.output);
    for (std::string line; std::getline(lines, line);) {
        INFO(line);
        CHECK(std::regex_search(line, std::regex(R"(^\[rank [0-2]\] )")));
        CHECK(line.find("[rank ", 1) == std::string::npos);
    }

    // Every sink runs on rank 2: its figures are the single process's.
    const nlohmann::json whole = readJson(alone.string() + ".json");
    const nlohmann::json rank2 = readJson(spread.string() + ".rank2.json");
    CHECK(rank2["rank"] == 2);
    for (const char* sink : {"recording", "onset-log", "level-log", "frames"}) {
        INFO("sink " << sink);
        CHECK(whole["outputs"][sink]["items"].get<std::uint64_t>() > 0);
        CHECK(rank2["outputs"][sink]["items"] == whole["outputs"][sink]["items"]);
        CHECK(rank2["outputs"][sink]["samples"] == whole["outputs"][sink]["samples"]);
    }
    const auto [aloneHash, aloneFrames] = sampleHash(alone.string() + ".wav");
    const auto [spreadHash, spreadFrames] = sampleHash(spread.string() + ".wav");
    CHECK(aloneFrames == 480000);  // 10 s at 48 kHz
    CHECK(spreadFrames == aloneFrames);
    CHECK(spreadHash == aloneHash);
    for (const char* log : {"-onsets.jsonl", "-level.jsonl"}) {
        INFO("log " << log);
        const std::string expected = readText(alone.string() + log);
        CHECK(!expected.empty());
        CHECK(readText(spread.string() + log) == expected);
    }

    // Every channel delivered all it sent: the senders' counts are the receivers'.
    std::map<int, nlohmann::json> sentOn, receivedOn;
    for (int rank = 0; rank < 3; ++rank) {
        const nlohmann::json report = readJson(spread.string() + ".rank" + std::to_string(rank) + ".json");
        for (const auto& channel : report["channels"]) (channel["direction"] == "send" ? sentOn : receivedOn)[channel["channel"].get<int>()] = channel;
    }
    CHECK(sentOn.size() == 6);
    CHECK(receivedOn.size() == 6);
    for (const auto& [index, sent] : sentOn) {
        INFO("channel " << index);
        CHECK(sent["items"] == receivedOn[index]["items"]);
        CHECK(sent["samples"] == receivedOn[index]["samples"]);
        CHECK(sent["messages"] == receivedOn[index]["messages"]);
        CHECK(sent["peak_in_flight"].get<int>() <= sent["credits"].get<int>());
    }
    for (const fs::path& base : {alone, spread}) {
        for (const char* suffix : {".wav", "-onsets.jsonl", "-level.jsonl", ".json", ".rank0.json", ".rank1.json", ".rank2.json"}) fs::remove(base.string() + suffix);
    }
}

TEST_CASE("an output feeding two nodes on one other rank crosses once and gives the outputs of one process", "[mpi][fanout]") {
    // gen on rank 0 feeds a filter and a meter, both on rank 1, and the recording's second channel on rank 2.
    constexpr int rate = 48000, block = 4096;
    constexpr double duration = 3.0;
    const fs::path graph = tempPath("fan-out.isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "partition": 0,
       "params": {"waveform": "clicks", "rate": )" << rate << R"(, "duration": )" << duration << R"(, "block": )" << block << R"(, "click_interval": 0.25}},
      {"id": "highpass", "type": "filters.butterworth", "partition": 1, "params": {"response": "highpass", "cutoff_hz": 200}},
      {"id": "level", "type": "level.peak_meter", "partition": 1, "params": {"interval": 4800}},
      {"id": "recording", "type": "io.wav_file_sink", "partition": 2, "params": {"path": "unused.wav", "channels": 2, "format": "float32"}},
      {"id": "level-log", "type": "io.jsonl_event_sink", "partition": 1, "params": {"path": "unused.jsonl"}}],
      "edges": [{"from": "gen.out", "to": "highpass.in"}, {"from": "gen.out", "to": "level.in"}, {"from": "gen.out", "to": "recording.in1"},
                {"from": "highpass.out", "to": "recording.in0"}, {"from": "level.level", "to": "level-log.in"}]})";
    const auto arguments = [&](const fs::path& prefix) {
        return std::vector<std::string>{graph.string(), "--set", "recording.path=" + prefix.string() + ".wav", "--set",
                                        "level-log.path=" + prefix.string() + ".jsonl", "--report", prefix.string() + ".json"};
    };
    const fs::path alone = tempPath("fan-out-alone"), spread = tempPath("fan-out-spread");
    const Finished one = run(0, arguments(alone));
    INFO(one.output);
    REQUIRE(one.status == 0);
    const Finished three = run(3, arguments(spread));
    INFO(three.output);
    REQUIRE(three.status == 0);

    const auto [aloneHash, aloneFrames] = sampleHash(alone.string() + ".wav");
    const auto [spreadHash, spreadFrames] = sampleHash(spread.string() + ".wav");
    CHECK(aloneFrames == static_cast<sf_count_t>(duration * rate));
    CHECK(spreadFrames == aloneFrames);
    CHECK(spreadHash == aloneHash);
    const std::string levels = readText(alone.string() + ".jsonl");
    CHECK(!levels.empty());
    CHECK(readText(spread.string() + ".jsonl") == levels);

    // Rank 0 sends gen.out once to each other rank: two channels, each carrying every block once.
    const nlohmann::json producer = readJson(spread.string() + ".rank0.json");
    const nlohmann::json consumer = readJson(spread.string() + ".rank1.json");
    const std::uint64_t blocks = (static_cast<std::uint64_t>(duration * rate) + block - 1) / block;
    REQUIRE(producer["channels"].size() == 2);
    for (const auto& sent : producer["channels"]) {
        INFO(sent.dump());
        CHECK(sent["direction"] == "send");
        CHECK(sent["items"] == blocks);
        CHECK(sent["samples"] == static_cast<std::uint64_t>(duration * rate));
    }
    CHECK(producer["channels"][0]["to"] == nlohmann::json::array({"highpass.in", "level.in"}));
    CHECK(producer["channels"][0]["peer_rank"] == 1);
    std::vector<nlohmann::json> received;
    for (const auto& c : consumer["channels"]) {
        if (c["direction"] == "receive") received.push_back(c);
    }
    REQUIRE(received.size() == 1);
    CHECK(received[0]["channel"] == producer["channels"][0]["channel"]);
    CHECK(received[0]["items"] == blocks);
    CHECK(received[0]["messages"] == producer["channels"][0]["messages"]);
    for (const fs::path& base : {alone, spread}) {
        for (const char* suffix : {".wav", ".jsonl", ".json", ".rank0.json", ".rank1.json", ".rank2.json"}) fs::remove(base.string() + suffix);
    }
    fs::remove(graph);
}

namespace {

// `source` -> parallel.split (`splitParams`) -> three copies of `replica` -> parallel.merge -> `sink`,
// replica k on rank k: the split's rank 0 sends to ranks 1 and 2, the merge and the sink run on rank 2.
std::string parasplitGraph(const std::string& source, const std::string& splitParams, const std::string& replica, const std::string& sink,
                           const std::string& sinkPort) {
    std::string nodes = R"({"format": "isochron-graph/1", "nodes": [
      {"id": "source", "partition": 0, )" + source + R"(},
      {"id": "split", "type": "parallel.split", "partition": 0, "params": {"outputs": 3, )" + splitParams + R"(}},
      {"id": "merge", "type": "parallel.merge", "partition": 2, "params": {"inputs": 3}},
      {"id": "sink", "partition": 2, )" + sink + "}";
    std::string edges = R"({"from": "source.out", "to": "split.in"}, {"from": "merge.out", "to": "sink.)" + sinkPort + R"("})";
    for (int k = 0; k < 3; ++k) {
        const std::string id = "work" + std::to_string(k), n = std::to_string(k);
        nodes += ",\n{\"id\": \"" + id + "\", \"partition\": " + n + ", " + replica + "}";
        edges += ", {\"from\": \"split.out" + n + "\", \"to\": \"" + id + ".in\"}, {\"from\": \"" + id + ".out\", \"to\": \"merge.in" + n + "\"}";
    }
    return nodes + "],\n\"edges\": [" + edges + "]}";
}

// The reference: `source` -> one `replica` -> `sink`, in one process.
std::string unsplitGraph(const std::string& source, const std::string& replica, const std::string& sink, const std::string& sinkPort) {
    return R"({"format": "isochron-graph/1", "nodes": [{"id": "source", )" + source + R"(}, {"id": "work", )" + replica + R"(},
      {"id": "sink", )" + sink + R"(}], "edges": [{"from": "source.out", "to": "work.in"}, {"from": "work.out", "to": "sink.)" + sinkPort + R"("}]})";
}

/// An io.wav_file_sink node's body that records one float channel to `prefix`.wav.
std::string wavSinkAt(const fs::path& prefix) {
    return R"("type": "io.wav_file_sink", "params": {"channels": 1, "format": "float32", "path": ")" + prefix.string() + R"(.wav"})";
}

/// The run in one process and the parasplit run recorded the same `frames` samples; returns how many
/// the run in one process recorded.
sf_count_t checkSameRecording(const fs::path& alone, const fs::path& spread, sf_count_t frames) {
    const auto [aloneHash, aloneFrames] = sampleHash(alone.string() + ".wav");
    const auto [spreadHash, spreadFrames] = sampleHash(spread.string() + ".wav");
    CHECK(aloneFrames == frames);
    CHECK(spreadFrames == aloneFrames);
    CHECK(spreadHash == aloneHash);
    return aloneFrames;
}

/// Removes what a parasplit run wrote next to `prefix`: its WAV and the three ranks' reports.
void removeRunFiles(const fs::path& prefix) {
    for (const char* suffix : {".wav", ".rank0.json", ".rank1.json", ".rank2.json"}) fs::remove(prefix.string() + suffix);
}

// Every channel of the reports `prefix`.rankK.json delivered what it sent; returns the samples sent.
std::uint64_t checkChannelsDelivered(const fs::path& prefix) {
    std::map<int, nlohmann::json> sentOn, receivedOn;
    for (int rank = 0; rank < 3; ++rank) {
        const nlohmann::json report = readJson(prefix.string() + ".rank" + std::to_string(rank) + ".json");
        for (const auto& channel : report["channels"]) (channel["direction"] == "send" ? sentOn : receivedOn)[channel["channel"].get<int>()] = channel;
    }
    CHECK(sentOn.size() == 4);  // split -> work1, split -> work2, work0 -> merge, work1 -> merge
    std::uint64_t samples = 0;
    for (const auto& [index, sent] : sentOn) {
        INFO("channel " << index);
        CHECK(sent["items"] == receivedOn[index]["items"]);
        CHECK(sent["messages"] == receivedOn[index]["messages"]);
        samples += sent["samples"].get<std::uint64_t>();
    }
    return samples;
}

const std::string kNoise = R"("type": "generators.signal_generator", "params": {"waveform": "noise", "rate": 48000, "duration": 2, "block": 4096})";

void checkSignalParasplit(const std::string& name, const std::string& splitParams, const std::string& replica) {
    const fs::path alone = tempPath(name + "-alone"), spread = tempPath(name + "-spread"), graphs = tempPath(name);
    std::ofstream(graphs.string() + "-unsplit.json") << unsplitGraph(kNoise, replica, wavSinkAt(alone), "in0");
    std::ofstream(graphs.string() + "-split.json") << parasplitGraph(kNoise, splitParams, replica, wavSinkAt(spread), "in0");
    const Finished one = run(0, {graphs.string() + "-unsplit.json"});
    INFO(one.output);
    REQUIRE(one.status == 0);
    const Finished three = run(3, {graphs.string() + "-split.json", "--report", spread.string() + ".json"});
    INFO(three.output);
    REQUIRE(three.status == 0);
    const sf_count_t aloneFrames = checkSameRecording(alone, spread, 2 * 48000);
    // Two thirds of the windows cross to ranks 1 and 2, and two of the replicas' outputs to rank 2.
    CHECK(checkChannelsDelivered(spread) > static_cast<std::uint64_t>(aloneFrames));
    removeRunFiles(alone);
    removeRunFiles(spread);
    fs::remove(graphs.string() + "-unsplit.json");
    fs::remove(graphs.string() + "-split.json");
}

}  // namespace

TEST_CASE("parasplit over three ranks: round-robin windows give the unsplit output", "[mpi][parasplit]") {
    checkSignalParasplit("round-robin", R"("routing": "round_robin", "window": 5000)", R"("type": "math.abs")");
}

TEST_CASE("parasplit over three ranks: windows with overlap through FIR replicas give the unsplit output", "[mpi][parasplit]") {
    checkSignalParasplit("overlap", R"("routing": "overlap", "window": 6000, "overlap": 126)",
                         R"("type": "filters.fir", "params": {"taps": 127, "cutoff_hz": 3000, "method": "direct"})");
}

TEST_CASE("the parasplit sample on three ranks records what its filter records unsplit in one process", "[mpi][parasplit]") {
    const fs::path alone = tempPath("fir-alone"), spread = tempPath("fir-spread"), reference = tempPath("fir-unsplit.json");
    // The sample's source and filter, with no split.
    std::ofstream(reference) << unsplitGraph(R"("type": "generators.signal_generator", "params": {"waveform": "noise", "rate": 48000, "duration": 4, "block": 4096})",
                                             R"("type": "filters.fir", "params": {"taps": 1023, "cutoff_hz": 4000, "method": "direct"})",
                                             wavSinkAt(alone), "in0");
    const Finished one = run(0, {reference.string()});
    INFO(one.output);
    REQUIRE(one.status == 0);
    const std::string sample = std::string(ISOCHRON_SOURCE_DIR) + "/samples/parasplit-fir-three-ranks.isograph.json";
    const Finished three = run(3, {sample, "--set", "recording.path=" + spread.string() + ".wav", "--report", spread.string() + ".json"});
    INFO(three.output);
    REQUIRE(three.status == 0);
    checkSameRecording(alone, spread, 4 * 48000);
    checkChannelsDelivered(spread);
    removeRunFiles(alone);
    removeRunFiles(spread);
    fs::remove(reference);
}

TEST_CASE("parasplit over three ranks: events by key give the unsplit output", "[mpi][parasplit]") {
    const fs::path events = tempPath("keyed.jsonl"), alone = tempPath("keyed-alone"), spread = tempPath("keyed-spread"), graphs = tempPath("keyed");
    {
        std::ofstream out(events);
        for (int i = 0; i < 400; ++i) {
            out << R"({"t_start": )" << 0.01 * i << R"(, "t_end": )" << 0.01 * i + 0.005 << R"(, "label": "door", "score": 1.0, "door_id": )"
                << (i * 7 + i / 5) % 9 << "}\n";
        }
    }
    const std::string source = R"("type": "io.jsonl_event_source", "params": {"path": ")" + events.string() + R"("})";
    const auto logSink = [](const fs::path& prefix) { return R"("type": "io.jsonl_event_sink", "params": {"path": ")" + prefix.string() + R"(.jsonl"})"; };
    const std::string replica = R"("type": "segments.pass_through")";
    std::ofstream(graphs.string() + "-unsplit.json") << unsplitGraph(source, replica, logSink(alone), "in");
    std::ofstream(graphs.string() + "-split.json")
        << parasplitGraph(source, R"("routing": "by_key", "key": "door_id")", replica, logSink(spread), "in");
    const Finished one = run(0, {graphs.string() + "-unsplit.json"});
    INFO(one.output);
    REQUIRE(one.status == 0);
    const Finished three = run(3, {graphs.string() + "-split.json", "--report", spread.string() + ".json"});
    INFO(three.output);
    REQUIRE(three.status == 0);
    const std::string expected = readText(alone.string() + ".jsonl");
    CHECK(std::count(expected.begin(), expected.end(), '\n') == 400);
    CHECK(readText(spread.string() + ".jsonl") == expected);
    checkChannelsDelivered(spread);
    for (const char* suffix : {".jsonl", ".rank0.json", ".rank1.json", ".rank2.json"}) {
        fs::remove(alone.string() + suffix);
        fs::remove(spread.string() + suffix);
    }
    fs::remove(events);
    fs::remove(graphs.string() + "-unsplit.json");
    fs::remove(graphs.string() + "-split.json");
}

TEST_CASE("a consumer rank held back keeps its channel at its credits, however much the producer has", "[mpi][backpressure]") {
    // 480 blocks made as fast as possible on rank 0; rank 1 spends 2 ms on each.
    const fs::path graph = tempPath("slow-consumer.isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "partition": 0, "params": {"duration": 40.96, "block": 4096}},
      {"id": "slow", "type": "workload.universal_box", "partition": 1, "params": {"cost_us": 2000}},
      {"id": "sink", "type": "io.null_sink", "partition": 1}],
      "edges": [{"from": "gen.out", "to": "slow.in0"}, {"from": "slow.out", "to": "sink.in"}]})";
    const fs::path report = tempPath("slow-consumer.json");
    const Finished finished = run(2, {graph.string(), "--channel-credits", "4", "--report", report.string()});
    INFO(finished.output);
    REQUIRE(finished.status == 0);
    const nlohmann::json producer = readJson(tempPath("slow-consumer.rank0.json"));
    const nlohmann::json consumer = readJson(tempPath("slow-consumer.rank1.json"));
    REQUIRE(producer["channels"].size() == 1);
    const nlohmann::json& sent = producer["channels"][0];
    CHECK(sent["items"] == 480);
    CHECK(sent["credits"] == 4);
    CHECK(sent["peak_in_flight"] == 4);         // the window filled up ...
    CHECK(sent["credit_waits"].get<int>() > 0);  // ... and the producer waited for the consumer
    CHECK(consumer["channels"][0]["items"] == 480);
    CHECK(consumer["outputs"]["sink"]["items"] == 480);
    fs::remove(graph);
    fs::remove(tempPath("slow-consumer.rank0.json"));
    fs::remove(tempPath("slow-consumer.rank1.json"));
}

TEST_CASE("a killed rank ends the run on every rank within 2 s, naming the rank; the others' reports say it was lost", "[mpi][faults]") {
    // A real-time signal for ever: the run ends only when something ends it.
    const fs::path graph = tempPath("endless.isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "partition": 0, "params": {"duration": 0, "block": 480, "pace": 1}},
      {"id": "relay", "type": "segments.pass_through", "partition": 1},
      {"id": "sink", "type": "io.null_sink", "partition": 2}],
      "edges": [{"from": "gen.out", "to": "relay.in"}, {"from": "relay.out", "to": "sink.in"}]})";
    const fs::path output = tempPath("endless.txt");
    const fs::path report = tempPath("endless.json");
    const pid_t launcher = start(3, {graph.string(), "--report", report.string()}, output);
    const std::map<int, pid_t> ranks = waitUntilRanksRun(launcher, output, 3);
    const auto killed = Clock::now();
    REQUIRE(kill(ranks.at(1), SIGKILL) == 0);
    const int status = waitAtMost(launcher, std::chrono::seconds(20));
    const double seconds = std::chrono::duration<double>(Clock::now() - killed).count();
    const std::string text = readText(output);
    INFO(text);
    CHECK(status != -1);  // no hang
    CHECK(status != 0);
    CHECK(seconds < 2.0);
    CHECK(text.find("process rank 1") != std::string::npos);  // mpirun names the dead rank
    CHECK(text.find("signal 9") != std::string::npos);
    // The survivors end too (exited: no process, or a zombie nobody reaped yet). mpirun may return
    // while one is still writing its report on a loaded machine: a bound on a hang, not a timing.
    for (const auto& [rank, pid] : ranks) {
        INFO("rank " << rank);
        std::string state = "R";
        for (int tick = 0; tick < 500 && !(state.empty() || state == "Z"); ++tick) {
            if (tick > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
            std::istringstream stat(readText("/proc/" + std::to_string(pid) + "/stat"));
            std::string ignored;
            state.clear();
            stat >> ignored >> ignored >> state;
        }
        CHECK((state.empty() || state == "Z"));
    }
    // The survivors, stopped by mpirun's SIGTERM, wrote their reports: rank 1 never told its end.
    for (const int rank : {0, 2}) {
        INFO("rank " << rank);
        const nlohmann::json survivor = readJson(tempPath("endless.rank" + std::to_string(rank) + ".json"));
        CHECK(survivor["end"] == "stopped: signal 15 (SIGTERM)");
        CHECK(survivor["rank_ends"] == nlohmann::json::array({"stopped: signal 15 (SIGTERM)", "lost: rank 1 ended without a word", "stopped: signal 15 (SIGTERM)"}));
    }
    CHECK(!fs::exists(tempPath("endless.rank1.json")));
    for (const int rank : {0, 2}) fs::remove(tempPath("endless.rank" + std::to_string(rank) + ".json"));
    fs::remove(graph);
    fs::remove(output);
}

TEST_CASE("SIGUSR2 to mpirun stops every rank cleanly: each writes its whole report, saying every rank was stopped", "[mpi][stop]") {
    // A real-time signal for ever on three ranks: only a stop ends it.
    const fs::path graph = tempPath("stop.isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "partition": 0, "params": {"duration": 0, "block": 480, "pace": 1}},
      {"id": "relay", "type": "segments.pass_through", "partition": 1},
      {"id": "sink", "type": "io.null_sink", "partition": 2}],
      "edges": [{"from": "gen.out", "to": "relay.in"}, {"from": "relay.out", "to": "sink.in"}]})";
    const fs::path output = tempPath("stop.txt");
    const fs::path report = tempPath("stop.json");
    const pid_t launcher = start(3, {graph.string(), "--report", report.string()}, output);
    waitUntilRanksRun(launcher, output, 3);
    REQUIRE(kill(launcher, SIGUSR2) == 0);  // mpirun passes it on to every rank as it is
    const int status = waitAtMost(launcher, std::chrono::seconds(30));
    const std::string text = readText(output);
    INFO(text);
    CHECK(status == 128 + SIGUSR2);
    for (const int rank : {0, 1, 2}) CHECK(text.find("[rank " + std::to_string(rank) + "] isochron-run: stopped by signal 12 (SIGUSR2") != std::string::npos);
    const nlohmann::json stopped = nlohmann::json::array({"stopped: signal 12 (SIGUSR2)", "stopped: signal 12 (SIGUSR2)", "stopped: signal 12 (SIGUSR2)"});
    for (const int rank : {0, 1, 2}) {
        INFO("rank " << rank);
        const fs::path path = tempPath("stop.rank" + std::to_string(rank) + ".json");
        REQUIRE(fs::exists(path));
        const nlohmann::json written = readJson(path);
        CHECK(written["stopped"] == true);
        CHECK(written["failures"].empty());
        CHECK(written["end"] == "stopped: signal 12 (SIGUSR2)");
        CHECK(written["rank_ends"] == stopped);
        CHECK(!written["nodes"].empty());
        CHECK(written["channels"].size() == (rank == 1 ? 2u : 1u));
        fs::remove(path);
    }
    fs::remove(graph);
    fs::remove(output);
}

TEST_CASE("Ctrl-C to mpirun reads as a stop on every rank: each says mpirun was interrupted, claiming no death, and its report says stopped", "[mpi][stop]") {
    const fs::path graph = tempPath("interrupt.isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "partition": 0, "params": {"duration": 0, "block": 480, "pace": 1}},
      {"id": "relay", "type": "segments.pass_through", "partition": 1},
      {"id": "sink", "type": "io.null_sink", "partition": 2}],
      "edges": [{"from": "gen.out", "to": "relay.in"}, {"from": "relay.out", "to": "sink.in"}]})";
    const fs::path output = tempPath("interrupt.txt");
    const fs::path report = tempPath("interrupt.json");
    const pid_t launcher = start(3, {graph.string(), "--report", report.string()}, output);
    waitUntilRanksRun(launcher, output, 3);
    REQUIRE(kill(launcher, SIGINT) == 0);  // Open MPI 4.1 turns it into SIGTERM for every rank
    const int status = waitAtMost(launcher, std::chrono::seconds(30));
    const std::string text = readText(output);
    INFO(text);
    CHECK(status != -1);
    CHECK(status != 0);  // mpirun's own status (1; each rank's is 130): docs/scale-out.md says so
    // Every rank told the others it stopped on SIGTERM, so none died: the ranks know it was an interruption.
    CHECK(text.find("died, which") == std::string::npos);
    const nlohmann::json stopped = nlohmann::json::array({"stopped: signal 15 (SIGTERM)", "stopped: signal 15 (SIGTERM)", "stopped: signal 15 (SIGTERM)"});
    for (const int rank : {0, 1, 2}) {
        INFO("rank " << rank);
        CHECK(occurrences(text, "[rank " + std::to_string(rank) + "] isochron-run: stopped: mpirun was interrupted (Ctrl-C, or SIGTERM to mpirun)") == 1);
        const fs::path path = tempPath("interrupt.rank" + std::to_string(rank) + ".json");
        REQUIRE(fs::exists(path));
        const nlohmann::json written = readJson(path);
        CHECK(written["stopped"] == true);
        CHECK(written["failures"].empty());
        CHECK(written["rank_ends"] == stopped);
        fs::remove(path);
    }
    fs::remove(graph);
    fs::remove(output);
}

TEST_CASE("partitions that cannot run on the ranks started are refused, naming the node", "[mpi][errors]") {
    const Finished finished = run(2, {kSample});
    INFO(finished.output);
    CHECK(finished.status != 0);
    CHECK(finished.output.find("node 'recording', field 'partition'") != std::string::npos);
    CHECK(finished.output.find("mpirun -np 3") != std::string::npos);
}

TEST_CASE("--check prints the partition plan and refuses partitions that feed each other", "[mpi][check]") {
    const Finished plan = run(0, {"--check", std::string(ISOCHRON_SOURCE_DIR) + "/samples/parasplit-fir-three-ranks.isograph.json"});
    INFO(plan.output);
    CHECK(plan.status == 0);
    CHECK(plan.output.find("partitions: 3 (mpirun -np 3)") != std::string::npos);
    CHECK(plan.output.find("  rank 1: lowpass1\n") != std::string::npos);
    CHECK(plan.output.find("  rank 2: lowpass2, merge, recording\n") != std::string::npos);
    CHECK(plan.output.find("  channel 0: split.out1 -> lowpass1.in (rank 0 -> rank 1, signal<f32>)") != std::string::npos);
    CHECK(plan.output.find("  channel 3: lowpass1.out -> merge.in1 (rank 1 -> rank 2, signal<f32>)") != std::string::npos);

    const fs::path graph = tempPath("cycle.isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator"},
      {"id": "there", "type": "segments.pass_through", "partition": 1},
      {"id": "back", "type": "segments.pass_through"},
      {"id": "sink", "type": "io.null_sink", "partition": 1}],
      "edges": [{"from": "gen.out", "to": "there.in"}, {"from": "there.out", "to": "back.in"}, {"from": "back.out", "to": "sink.in"}]})";
    const Finished cycle = run(0, {"--check", graph.string()});
    INFO(cycle.output);
    CHECK(cycle.status != 0);
    CHECK(cycle.output.find("partitions 0, 1 feed each other") != std::string::npos);
    // The edge running back and the node whose move makes a pipeline.
    CHECK(cycle.output.find("there.out on rank 1 -> back.in on rank 0") != std::string::npos);
    CHECK(cycle.output.find("put node 'back' in partition 1") != std::string::npos);
    CHECK(cycle.output.find("valid") == std::string::npos);  // "valid" only when every check passed
    const Finished quiet = run(0, {"--check", "--quiet", graph.string()});
    INFO(quiet.output);
    CHECK(quiet.status != 0);
    CHECK(quiet.output.find("partitions 0, 1 feed each other") != std::string::npos);
    fs::remove(graph);
}

TEST_CASE("--check on ranks counts each rank's nodes of the graph, and its channel ends apart", "[mpi][check]") {
    // Each rank said "valid (3 nodes)" for its part of a 4-node graph: its ends of the channels to
    // other ranks were counted as nodes.
    const fs::path graph = tempPath("count.isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0.1, "block": 400}},
      {"id": "tap", "type": "io.null_sink"},
      {"id": "relay", "type": "segments.pass_through", "partition": 1},
      {"id": "out", "type": "io.null_sink", "partition": 2}],
      "edges": [{"from": "gen.out", "to": "tap.in"}, {"from": "gen.out", "to": "relay.in"}, {"from": "relay.out", "to": "out.in"}]})";
    const Finished check = run(3, {graph.string(), "--check"});
    INFO(check.output);
    CHECK(check.status == 0);
    const std::string valid = "] " + graph.string() + ": valid (";
    CHECK(occurrences(check.output, "[rank 0" + valid + "2 of the graph's 4 nodes on this rank, and 1 channel end to other ranks)\n") == 1);
    CHECK(occurrences(check.output, "[rank 1" + valid + "1 of the graph's 4 nodes on this rank, and 2 channel ends to other ranks)\n") == 1);
    CHECK(occurrences(check.output, "[rank 2" + valid + "1 of the graph's 4 nodes on this rank, and 1 channel end to other ranks)\n") == 1);
    const Finished alone = run(0, {graph.string(), "--check"});
    CHECK(alone.output.find(graph.string() + ": valid (4 nodes)\n") != std::string::npos);
    fs::remove(graph);
}

TEST_CASE("a --telemetry path no rank can write is refused once, by rank 0; every rank leaves with status 1", "[mpi][errors][paths]") {
    // Each rank printed its own refusal (t.rank0.jsonl, t.rank1.jsonl, t.rank2.jsonl: words that differ
    // by the rank's file name only), where a refusal every rank shares is printed once.
    const fs::path folder = tempPath("no-such-folder");
    const fs::path graph = tempPath("telemetry-refused.isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0.1, "block": 400}},
      {"id": "out", "type": "io.null_sink", "partition": 1}], "edges": [{"from": "gen.out", "to": "out.in"}]})";
    const Finished finished = run(3, {graph.string(), "--telemetry", (folder / "t.jsonl").string()});
    INFO(finished.output);
    CHECK(finished.status == 1);
    CHECK(occurrences(finished.output, "the folder '" + folder.string() + "' does not exist") == 1);
    CHECK(occurrences(finished.output, "[rank 0] isochron-run: --telemetry") == 1);
    CHECK(finished.output.find((folder / "t.rank0.jsonl").string()) != std::string::npos);
    CHECK(finished.output.find("MPI_ABORT") == std::string::npos);
    CHECK(finished.output.find("] running ") == std::string::npos);
    fs::remove(graph);
}

TEST_CASE("ranks given no partition are named once at the start, with why and what to start instead", "[mpi][idle]") {
    // Ranks 1 and 2 printed an empty summary after the run and nothing said why they had nothing to do.
    const fs::path graph = tempPath("idle.isograph.json");
    auto writeGraph = [&](int sinkPartition) {
        std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
          {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0.1, "block": 400}},
          {"id": "out", "type": "io.null_sink", "partition": )" << sinkPartition << R"(}], "edges": [{"from": "gen.out", "to": "out.in"}]})";
    };
    writeGraph(0);
    const Finished whole = run(3, {graph.string()});
    INFO(whole.output);
    CHECK(whole.status == 0);
    CHECK(occurrences(whole.output, "[rank 0] isochron-run: note: ranks 1 and 2 of the 3 started run no node and only wait for the others to end: the "
                                    "graph puts every node into partition 0 (it has no partitions), so rank 0 runs it whole.") == 1);
    CHECK(occurrences(whole.output, "run no node") == 1);
    writeGraph(1);
    const Finished two = run(3, {graph.string()});
    INFO(two.output);
    CHECK(two.status == 0);
    CHECK(occurrences(two.output, "[rank 0] isochron-run: note: rank 2 of the 3 started runs no node and only waits for the others to end: the graph "
                                  "puts nodes into partitions 0 and 1 only. Start mpirun -np 2 (docs/scale-out.md)") == 1);
    CHECK(occurrences(two.output, "runs no node") == 1);
    const Finished fitting = run(2, {graph.string()});
    INFO(fitting.output);
    CHECK(fitting.status == 0);
    CHECK(fitting.output.find("no node") == std::string::npos);
    fs::remove(graph);
}

TEST_CASE("a sink of one rank that cannot write its file ends the run on every rank before it starts, naming the node", "[mpi][faults]") {
    const fs::path folder = tempPath("no-such-folder");
    const Finished finished = run(3, {kSample, "--set", "recording.path=" + (folder / "out.wav").string(), "--set",
                                      "onset-log.path=" + tempPath("o.jsonl").string(), "--set", "level-log.path=" + tempPath("l.jsonl").string()});
    INFO(finished.output);
    CHECK(finished.status != -1);
    CHECK(finished.status != 0);
    // Refused by every rank's check of the whole graph's files (the recording is rank 2's), before any
    // node starts: the ranks agree, and rank 0 says it for all.
    CHECK(occurrences(finished.output, "[rank 0] isochron-run: node 'recording', parameter 'path': cannot write") == 1);
    CHECK(occurrences(finished.output, "the folder '" + folder.string() + "' does not exist") == 1);
    CHECK(finished.output.find("MPI_ABORT") == std::string::npos);
    fs::remove(tempPath("o.jsonl"));
    fs::remove(tempPath("l.jsonl"));
}

TEST_CASE("a rank whose node cannot start refuses the run with the others: one message, no rank runs, every rank leaves with status 1", "[mpi][faults]") {
    // An hour of real-time signal through the three ranks into a recording on rank `failing`, which
    // cannot start: its file cannot be created (refused by the node as it starts, not by the output
    // path check). Rank 0 reads telemetry, so the ranks would also agree on it before they run.
    for (const int failing : {0, 2}) {
        INFO("the recording on rank " << failing);
        const std::vector<int> partitions = failing == 0 ? std::vector<int>{1, 2, 0} : std::vector<int>{0, 1, 2};
        const fs::path graph = tempPath("cannot-start.isograph.json");
        std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
          {"id": "gen", "type": "generators.signal_generator", "partition": )" << partitions[0] << R"(, "params": {"duration": 3600, "block": 480, "pace": 1}},
          {"id": "relay", "type": "segments.pass_through", "partition": )" << partitions[1] << R"(},
          {"id": "recording", "type": "io.wav_file_sink", "partition": )" << partitions[2] << R"(, "params": {"path": "/proc/version"}}],
          "edges": [{"from": "gen.out", "to": "relay.in"}, {"from": "relay.out", "to": "recording.in0"}]})";
        const fs::path report = tempPath("cannot-start.json");
        const fs::path telemetry = tempPath("cannot-start.jsonl");
        const fs::path output = tempPath("cannot-start.txt");
        // 60 s is a safety net against a hang only (the job ends within about a second).
        const int status = waitAtMost(start(3, {graph.string(), "--report", report.string(), "--telemetry", telemetry.string()}, output),
                                      std::chrono::seconds(60));
        const std::string printed = readText(output);
        INFO(printed);
        CHECK(status == 1);
        // Said once, by the rank that cannot start; no rank ran, so none says more, and none ended
        // the job through MPI_Abort (its banner came before the others had said anything).
        const std::string rank = "[rank " + std::to_string(failing) + "] ";
        CHECK(occurrences(printed, rank + "  node 'recording': cannot start: cannot write '/proc/version") == 1);
        CHECK(occurrences(printed, "cannot start") == 1);
        CHECK(printed.find("MPI_ABORT") == std::string::npos);
        CHECK(printed.find("] running ") == std::string::npos);
        // As a run alone whose node cannot start: no report (docs/run-report.md).
        for (int k = 0; k < 3; ++k) {
            INFO("rank " << k);
            CHECK_FALSE(fs::exists(tempPath("cannot-start.rank" + std::to_string(k) + ".json")));
            fs::remove(tempPath("cannot-start.rank" + std::to_string(k) + ".jsonl"));
        }
        fs::remove(graph);
        fs::remove(output);
    }
}

TEST_CASE("a graph file one rank cannot read ends every rank with status 1 and one message naming the file, not an MPI_Abort", "[mpi][faults]") {
    // As a graph file missing on one host: ranks 0 and 1 read the sample, rank 2 is given a file that
    // does not exist (mpirun's "A : B" starts rank 2 with its own arguments). Ranks 0 and 1 waited in
    // a collective call while rank 2 ended the job through MPI_Abort.
    const fs::path prefix = tempPath("one-host");
    const fs::path missing = tempPath("missing.isograph.json");
    std::vector<std::string> command = {ISOCHRON_MPIEXEC, "-np", "2", "--oversubscribe", ISOCHRON_RUN_BINARY};
    for (const std::string& argument : outputsTo(prefix, tempPath("one-host.json"))) command.push_back(argument);
    for (const std::string& argument : {std::string(":"), std::string("-np"), std::string("1"), std::string(ISOCHRON_RUN_BINARY), missing.string()}) {
        command.push_back(argument);
    }
    const fs::path output = tempPath("one-host.txt");
    const int status = waitAtMost(launch(command, output), std::chrono::seconds(60));
    const std::string printed = readText(output);
    INFO(printed);
    CHECK(status == 1);
    CHECK(occurrences(printed, "[rank 2]   cannot open graph file " + missing.string()) == 1);
    CHECK(occurrences(printed, "cannot open graph file") == 1);
    CHECK(printed.find("MPI_ABORT") == std::string::npos);
    CHECK(printed.find("] running ") == std::string::npos);
    for (const char* file : {".wav", "-onsets.jsonl", "-level.jsonl"}) CHECK_FALSE(fs::exists(prefix.string() + file));
    fs::remove(output);
}

TEST_CASE("a node failing on rank 1 is disabled as in a graph run whole: the other ranks' sinks are complete, exit status 2", "[mpi][faults]") {
    // Rank 1's two event logs fail at their first line on /dev/full. 'level-log' shares its meter
    // with 'level-kept' on rank 2, which must still get every level; 'cut-log' is the only reader of
    // its channel from rank 0, whose receiver is then cut off and must free its sender (8 credits
    // for 500 levels), or rank 0 would wait for ever. The user reads what run whole says: the failed
    // node and its file, with no "(in process)" (a hook name that reads as an MPI process) and no
    // warning about the cut-off receiver, a node of the channel that the graph does not have (in
    // the reports: --quiet prints no summary).
    const fs::path kept = tempPath("failing-node-kept.jsonl");
    const std::string text = R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "partition": 0, "params": {"duration": 5, "block": 480, "pace": 0}},
      {"id": "cut", "type": "level.peak_meter", "partition": 0, "params": {"interval": 480}},
      {"id": "cut-log", "type": "io.jsonl_event_sink", "partition": 1, "params": {"path": "/dev/full"}},
      {"id": "level", "type": "level.peak_meter", "partition": 1, "params": {"interval": 480}},
      {"id": "level-log", "type": "io.jsonl_event_sink", "partition": 1, "params": {"path": "/dev/full"}},
      {"id": "relay", "type": "segments.pass_through", "partition": 1},
      {"id": "level-kept", "type": "io.jsonl_event_sink", "partition": 2, "params": {"path": ")" + kept.string() + R"("}},
      {"id": "recording", "type": "io.null_sink", "partition": 2}],
     "edges": [{"from": "gen.out", "to": "cut.in"}, {"from": "cut.level", "to": "cut-log.in"},
       {"from": "gen.out", "to": "level.in"}, {"from": "level.level", "to": "level-log.in"}, {"from": "level.level", "to": "level-kept.in"},
       {"from": "gen.out", "to": "relay.in"}, {"from": "relay.out", "to": "recording.in"}]})";
    const fs::path graph = tempPath("failing-node.isograph.json");
    std::ofstream(graph) << text;
    const fs::path report = tempPath("failing-node.json");
    const auto keptLines = [&] {
        const std::string lines = readText(kept);
        return std::count(lines.begin(), lines.end(), '\n');
    };
    // The graph run whole: both logs fail, the rest runs to its end.
    const Finished whole = run(0, {graph.string(), "--quiet", "--channel-credits", "8", "--report", report.string()});
    INFO(whole.output);
    REQUIRE(whole.status == 2);
    const nlohmann::json wholeReport = readJson(report);
    REQUIRE(wholeReport["failures"].size() == 2);
    const auto wholeLevels = keptLines();
    CHECK(wholeLevels == 500);
    const std::uint64_t wholeRecorded = wholeReport["outputs"]["recording"]["items"].get<std::uint64_t>();
    CHECK(wholeRecorded == 500);
    // Every node's warnings in a report (none expected: no source is cut off, run whole).
    const auto warningsOf = [](const nlohmann::json& written) {
        std::string warnings;
        for (const auto& [id, node] : written["nodes"].items()) {
            if (node.contains("warnings")) warnings += id + ": " + node["warnings"].dump() + "\n";
        }
        return warnings;
    };
    CHECK(warningsOf(wholeReport).empty());

    SECTION("on three ranks") {
        const fs::path telemetry = tempPath("failing-node-telemetry.jsonl");
        const Finished ranks = run(3, {graph.string(), "--quiet", "--channel-credits", "8", "--report", report.string(), "--telemetry", telemetry.string()});
        INFO(ranks.output);
        CHECK(ranks.status == 2);
        CHECK(occurrences(ranks.output, "error: node 'level-log': writing '/dev/full' failed") == 1);
        CHECK(occurrences(ranks.output, "[rank 1] isochron-run: error: node 'level-log': writing '/dev/full' failed") == 1);
        CHECK(occurrences(ranks.output, "error: node 'cut-log'") == 1);
        CHECK(ranks.output.find("(in process)") == std::string::npos);
        CHECK(ranks.output.find("MPI_ABORT") == std::string::npos);
        CHECK(keptLines() == wholeLevels);
        const nlohmann::json failed = readJson(tempPath("failing-node.rank1.json"));
        REQUIRE(failed["failures"].size() == 2);
        CHECK(failed["failures"][1].get<std::string>().starts_with("node 'level-log': writing '/dev/full' failed"));  // in graph order
        const std::string failedEnd = "finished with a failed node: " + failed["failures"][0].get<std::string>();
        for (const int rank : {0, 1, 2}) {
            INFO("rank " << rank);
            const nlohmann::json written = readJson(tempPath("failing-node.rank" + std::to_string(rank) + ".json"));
            CHECK(written["completed"] == true);
            CHECK(written["rank_ends"] == nlohmann::json::array({"finished", failedEnd, "finished"}));
            CHECK(warningsOf(written).empty());
            if (rank == 2) CHECK(written["outputs"]["recording"]["items"].get<std::uint64_t>() == wholeRecorded);
            fs::remove(tempPath("failing-node.rank" + std::to_string(rank) + ".json"));
            // The rank's last telemetry snapshot counts no warning either (rank 1's receivers included).
            const fs::path snapshots = tempPath("failing-node-telemetry.rank" + std::to_string(rank) + ".jsonl");
            std::istringstream lines(readText(snapshots));
            std::string line, last;
            while (std::getline(lines, line)) last = line.empty() ? last : line;
            REQUIRE_FALSE(last.empty());
            const nlohmann::json snapshot = nlohmann::json::parse(last);
            CHECK(snapshot["nodes"].size() > 0);
            for (const auto& [id, node] : snapshot["nodes"].items()) {
                INFO("node " << id);
                CHECK(node["warnings"] == 0);
            }
            fs::remove(snapshots);
        }
    }
    SECTION("on partition threads") {
        const Finished threads = run(0, {graph.string(), "--quiet", "--partitions", "threads", "--channel-credits", "8", "--report", report.string()});
        INFO(threads.output);
        CHECK(threads.status == 2);
        CHECK(occurrences(threads.output, "error: node 'level-log': writing '/dev/full' failed") == 1);
        CHECK(keptLines() == wholeLevels);
        const nlohmann::json written = readJson(report);
        CHECK(written["completed"] == true);
        CHECK(written["failures"].size() == 2);
        CHECK(written["outputs"]["recording"]["items"].get<std::uint64_t>() == wholeRecorded);
    }
    fs::remove(report);
    fs::remove(kept);
    fs::remove(graph);
}

TEST_CASE("a node failing on the last rank stops, rank by rank, an endless source that fed only it, as run whole", "[mpi][faults]") {
    // An endless unpaced source on rank 0, a meter on rank 1, its log on rank 2 failing at its first
    // line: run whole the source is stopped (every path from it ends at a failed node). Across ranks
    // the run ends only if that reaches back over both channels: rank 2's receiver is cut off and
    // tells rank 1's sender, whose rank then cuts off its own receiver and tells rank 0's.
    const fs::path graph = tempPath("endless.isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "partition": 0, "params": {"duration": 0, "block": 480, "pace": 0}},
      {"id": "level", "type": "level.peak_meter", "partition": 1, "params": {"interval": 480}},
      {"id": "level-log", "type": "io.jsonl_event_sink", "partition": 2, "params": {"path": "/dev/full"}}],
     "edges": [{"from": "gen.out", "to": "level.in"}, {"from": "level.level", "to": "level-log.in"}]})";
    const fs::path report = tempPath("endless.json");
    const Finished ranks = run(3, {graph.string(), "--quiet", "--report", report.string()});  // 120 s: a safety net against a hang only
    INFO(ranks.output);
    CHECK(ranks.status == 2);
    CHECK(occurrences(ranks.output, "[rank 2] isochron-run: error: node 'level-log': writing '/dev/full' failed") == 1);
    for (const int rank : {0, 1, 2}) {
        INFO("rank " << rank);
        const fs::path written = tempPath("endless.rank" + std::to_string(rank) + ".json");
        const nlohmann::json json = readJson(written);
        CHECK(json["completed"] == true);
        CHECK(json["stopped"] == false);
        fs::remove(written);
    }
    fs::remove(graph);
}

namespace {

const std::string kSamples = std::string(ISOCHRON_SOURCE_DIR) + "/samples/";

// The JSON lines a sample graph writes to `lines` when its event sink `sink` is sent there: run alone (ranks = 0) or on three ranks.
std::string sampleLines(const std::string& graph, const std::string& sink, int ranks, const fs::path& lines) {
    const Finished finished = run(ranks, {graph, "--set", sink + ".path=" + lines.string()});
    INFO(finished.output);
    REQUIRE(finished.status == 0);
    std::string text = readText(lines);
    fs::remove(lines);
    return text;
}

std::size_t lineCount(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

TEST_CASE("the field sample: two arrays localizing on their ranks, fused on a third, give the positions of one process", "[mpi][field]") {
    const std::string graph = kSamples + "scale-out-field-arrays.isograph.json";
    const std::string alone = sampleLines(graph, "positions", 0, tempPath("field-alone.jsonl"));
    const std::string spread = sampleLines(graph, "positions", 3, tempPath("field-spread.jsonl"));
    CHECK(lineCount(alone) == 5);  // the recordings' five sounds, each heard by both arrays
    CHECK(spread == alone);
}

TEST_CASE("the fine-grid localizer sample split over two ranks gives the bearings of one unsplit localizer", "[mpi][field][parasplit]") {
    const std::string graph = kSamples + "parasplit-fine-grid-localizer.isograph.json";
    // The reference: the same graph with one localizer given every detection (no split, no merge).
    nlohmann::json unsplit = nlohmann::json::parse(readText(graph));
    auto& nodes = unsplit["nodes"];
    nodes.erase(std::remove_if(nodes.begin(), nodes.end(), [](const nlohmann::json& n) {
                    for (const char* gone : {"split", "cut1", "grid1", "merge"}) if (n["id"] == gone) return true;
                    return false;
                }), nodes.end());
    for (auto& node : nodes) {
        node.erase("partition");
        if (!node.contains("params")) continue;
        if (node["params"].contains("path")) {
            const std::string path = node["params"]["path"];
            if (path.starts_with("data/")) node["params"]["path"] = kSamples + path;
        }
        if (node["params"].contains("geometry")) node["params"]["geometry"] = kSamples + node["params"]["geometry"].get<std::string>();
    }
    nlohmann::json edges = nlohmann::json::array();
    for (const auto& edge : unsplit["edges"]) {
        const std::string from = edge["from"], to = edge["to"];
        if (from == "detector.events") edges.push_back({{"from", from}, {"to", "cut0.control"}});
        else if (from == "grid0.bearings") edges.push_back({{"from", from}, {"to", "bearings.in"}});
        else if (from.starts_with("split.") || from.starts_with("cut1.") || to.starts_with("cut1.") || from.starts_with("grid1.") ||
                 from.starts_with("merge."))
            continue;
        else edges.push_back(edge);
    }
    unsplit["edges"] = edges;
    const fs::path reference = tempPath("fine-grid-unsplit.json");
    std::ofstream(reference) << unsplit.dump();

    const std::string expected = sampleLines(reference.string(), "bearings", 0, tempPath("fine-grid-unsplit.jsonl"));
    CHECK(lineCount(expected) == 5);
    CHECK(sampleLines(graph, "bearings", 0, tempPath("fine-grid-alone.jsonl")) == expected);
    CHECK(sampleLines(graph, "bearings", 3, tempPath("fine-grid-spread.jsonl")) == expected);
    fs::remove(reference);
}

namespace {

// The last line of a JSON-lines file.
nlohmann::json lastLine(const fs::path& path) {
    INFO("telemetry " << path);
    std::ifstream in(path);
    std::string line, last;
    while (std::getline(in, line)) {
        if (!line.empty()) last = line;
    }
    REQUIRE(!last.empty());
    return nlohmann::json::parse(last);
}

}  // namespace

TEST_CASE("rank 0's telemetry lists every rank's nodes with their rank and the counts each rank reports", "[mpi][telemetry]") {
    const fs::path spread = tempPath("telemetry");
    std::vector<std::string> arguments = outputsTo(spread, spread.string() + ".json");
    arguments.insert(arguments.end(), {"--telemetry", spread.string() + ".jsonl"});
    const Finished three = run(3, arguments);
    INFO(three.output);
    REQUIRE(three.status == 0);

    // The run has ended, so rank 0's last snapshot holds each rank's last one: every count is final.
    const nlohmann::json telemetry = lastLine(spread.string() + ".rank0.jsonl");
    CHECK(telemetry["state"] == "finished");
    REQUIRE(telemetry["ranks"].size() == 3);
    std::size_t nodesReported = 0;
    for (int rank = 0; rank < 3; ++rank) {
        INFO("rank " << rank);
        const nlohmann::json report = readJson(spread.string() + ".rank" + std::to_string(rank) + ".json");
        const nlohmann::json& totals = telemetry["ranks"][static_cast<std::size_t>(rank)];
        CHECK(totals["rank"] == rank);
        CHECK(totals["state"] == "finished");
        std::uint64_t itemsIn = 0;
        for (const auto& [id, node] : report["nodes"].items()) {
            INFO("node " << id);
            ++nodesReported;
            REQUIRE(telemetry["nodes"].contains(id));
            const nlohmann::json& seen = telemetry["nodes"][id];
            CHECK(seen["rank"] == rank);
            for (const char* count : {"items_in", "items_out", "samples_in", "samples_out"}) CHECK(seen[count] == node[count]);
            itemsIn += node["items_in"].get<std::uint64_t>();
        }
        CHECK(itemsIn > 0);  // every rank did something: the counts compared are not all zero
        std::uint64_t items = 0, samples = 0;
        for (const auto& [id, output] : report["outputs"].items()) {
            INFO("output " << id);
            REQUIRE(telemetry["outputs"].contains(id));
            CHECK(telemetry["outputs"][id]["rank"] == rank);
            CHECK(telemetry["outputs"][id]["items"] == output["items"]);
            items += output["items"].get<std::uint64_t>();
            samples += output["samples"].get<std::uint64_t>();
        }
        CHECK(totals["items"] == items);
        CHECK(totals["samples"] == samples);
    }
    // Every node appears once: none is missing and none is there twice (keys are unique, so compare counts).
    CHECK(telemetry["nodes"].size() == nodesReported);
    // The sinks run on rank 2 and their latency is measured from the data's arrival on rank 0 (carried
    // by the channels): every item that reached them was timed.
    const nlohmann::json rank2 = readJson(spread.string() + ".rank2.json");
    CHECK(rank2["outputs"]["recording"]["latency_ms"]["count"] == rank2["outputs"]["recording"]["items"]);
    // Only the last line says the whole run finished.
    std::ifstream lines(spread.string() + ".rank0.jsonl");
    int finishedLines = 0;
    for (std::string line; std::getline(lines, line);) finishedLines += nlohmann::json::parse(line)["state"] == "finished" ? 1 : 0;
    CHECK(finishedLines == 1);

    for (const char* suffix : {".wav", "-onsets.jsonl", "-level.jsonl"}) fs::remove(spread.string() + suffix);
    for (int rank = 0; rank < 3; ++rank) {
        for (const char* extension : {".json", ".jsonl"}) fs::remove(spread.string() + ".rank" + std::to_string(rank) + extension);
    }
}

TEST_CASE("rank 0 ending first keeps its own row of rank 0's telemetry at the figures of its end while rank 1 runs on", "[mpi][telemetry]") {
    // Rank 0 sends 20 blocks to rank 1 and is done within milliseconds; rank 1 spends 5 ms on each of
    // 200 blocks of its own, so rank 0 publishes the others' snapshots for about a second after its end.
    const fs::path graph = tempPath("rank0-first.isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "short", "type": "generators.signal_generator", "partition": 0, "params": {"duration": 0.2, "block": 480}},
      {"id": "far", "type": "io.null_sink", "partition": 1},
      {"id": "long", "type": "generators.signal_generator", "partition": 1, "params": {"duration": 2, "block": 480}},
      {"id": "slow", "type": "workload.universal_box", "partition": 1, "params": {"cost_us": 5000}},
      {"id": "sink", "type": "io.null_sink", "partition": 1}],
      "edges": [{"from": "short.out", "to": "far.in"}, {"from": "long.out", "to": "slow.in0"}, {"from": "slow.out", "to": "sink.in"}]})";
    const fs::path telemetry = tempPath("rank0-first.jsonl");
    const Finished finished = run(2, {graph.string(), "--telemetry", telemetry.string()});
    INFO(finished.output);
    REQUIRE(finished.status == 0);
    std::vector<nlohmann::json> ownEnd;  // rank 0's row in the lines after its engine ended
    std::ifstream lines(tempPath("rank0-first.rank0.jsonl"));
    for (std::string line; std::getline(lines, line);) {
        const nlohmann::json snapshot = nlohmann::json::parse(line);
        if (snapshot["ranks"][0]["state"] == "finished") ownEnd.push_back(snapshot["ranks"][0]);
    }
    REQUIRE(ownEnd.size() >= 2);  // rank 0 published again while rank 1 ran
    const nlohmann::json& end = ownEnd.front();
    CHECK(end["samples"] == 9600);  // the 20 blocks that left rank 0 through its channel
    CHECK(end["samples_per_s"].get<double>() > 0);
    for (std::size_t i = 1; i < ownEnd.size(); ++i) {
        INFO("line " << i << " after rank 0's end");
        CHECK(ownEnd[i]["samples"] == end["samples"]);
        CHECK(ownEnd[i]["samples_per_s"] == end["samples_per_s"]);
        CHECK(ownEnd[i]["items_per_s"] == end["items_per_s"]);
    }
    fs::remove(graph);
    for (int rank = 0; rank < 2; ++rank) fs::remove(tempPath("rank0-first.rank" + std::to_string(rank) + ".jsonl"));
}

TEST_CASE("files clashing across ranks are refused on every rank before anything runs", "[mpi][errors][paths]") {
    // Each rank checked only its own partition: these ran with exit 0 and lost a recording or the input.
    const fs::path folder = tempPath("clash");
    fs::remove_all(folder);
    fs::create_directories(folder);
    const std::string generator = R"({"id": "gen", "type": "generators.signal_generator", "partition": 0, "params": {"rate": 8000, "duration": 0.5, "block": 400}})";
    auto writeGraph = [&](const std::string& nodes, const std::string& edges) {
        const fs::path graph = folder / "graph.isograph.json";
        std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [)" << generator << ", " << nodes << R"(], "edges": [)" << edges << "]}";
        return graph.string();
    };
    const std::string clash = (folder / "clash.wav").string();
    SECTION("two sinks on ranks 1 and 2 writing one file") {
        const std::string graph = writeGraph(R"({"id": "w1", "type": "io.wav_file_sink", "partition": 1, "params": {"path": ")" + clash + R"("}},
          {"id": "w2", "type": "io.wav_file_sink", "partition": 2, "params": {"path": ")" + clash + R"("}})",
                                             R"({"from": "gen.out", "to": "w1.in0"}, {"from": "gen.out", "to": "w2.in0"})");
        const Finished finished = run(3, {graph, "--quiet"});
        INFO(finished.output);
        CHECK(finished.status != -1);
        CHECK(finished.status != 0);
        // Every rank refuses alike; the ranks agree before any opens a channel: said once, by rank 0,
        // and every rank leaves through MPI_Finalize (no MPI_Abort killing the others mid-sentence).
        CHECK(occurrences(finished.output, "[rank 0] isochron-run: node 'w1' writes (parameter 'path') " + clash + " and node 'w2' writes (parameter 'path') " +
                                               clash + ": one file, each would clobber the other") == 1);
        CHECK(occurrences(finished.output, "one file, each would clobber the other") == 1);
        CHECK(finished.output.find("MPI_ABORT") == std::string::npos);
        CHECK_FALSE(fs::exists(clash));
    }
    SECTION("a sink on rank 0 over the recording a source on rank 2 reads") {
        SF_INFO info{};
        info.samplerate = 8000;
        info.channels = 1;
        info.format = SF_FORMAT_WAV | SF_FORMAT_PCM_16;
        SNDFILE* in = sf_open(clash.c_str(), SFM_WRITE, &info);
        REQUIRE(in != nullptr);
        const std::vector<float> ramp{0.1f, 0.2f, 0.3f, 0.4f};
        sf_writef_float(in, ramp.data(), 4);
        sf_close(in);
        const std::string recording = readText(clash);
        const std::string graph = writeGraph(R"({"id": "w0", "type": "io.wav_file_sink", "partition": 0, "params": {"path": ")" + clash + R"("}},
          {"id": "pass", "type": "segments.pass_through", "partition": 1},
          {"id": "src", "type": "io.audio_file_source", "partition": 2, "params": {"path": ")" + clash + R"(", "channels": 1}},
          {"id": "sink", "type": "io.null_sink", "partition": 2})",
                                             R"({"from": "gen.out", "to": "w0.in0"}, {"from": "gen.out", "to": "pass.in"}, {"from": "src.out0", "to": "sink.in"})");
        const Finished finished = run(3, {graph, "--quiet"});
        INFO(finished.output);
        CHECK(finished.status != -1);
        CHECK(finished.status != 0);
        CHECK(finished.output.find("node 'w0' writes (parameter 'path') " + clash + ", the file node 'src' reads (parameter 'path') " + clash +
                                   ": the input would be overwritten") != std::string::npos);
        CHECK(readText(clash) == recording);
    }
    SECTION("two archive sinks on ranks 0 and 2 recording one stream") {
        const std::string archive = (folder / "rec.sqlite").string();
        const std::string graph = writeGraph(R"({"id": "r0", "type": "io.archive_sink", "partition": 0, "params": {"path": ")" + archive + R"(", "stream": "raw"}},
          {"id": "pass", "type": "segments.pass_through", "partition": 1},
          {"id": "r2", "type": "io.archive_sink", "partition": 2, "params": {"path": ")" + archive + R"(", "stream": "raw"}})",
                                             R"({"from": "gen.out", "to": "r0.in0"}, {"from": "gen.out", "to": "pass.in"}, {"from": "pass.out", "to": "r2.in0"})");
        const Finished finished = run(3, {graph, "--quiet"});
        INFO(finished.output);
        CHECK(finished.status != -1);
        CHECK(finished.status != 0);
        CHECK(occurrences(finished.output, "node 'r0' and node 'r2' both record the stream 'raw' of the archive " + archive) == 1);
        CHECK(finished.output.find("MPI_ABORT") == std::string::npos);
        CHECK_FALSE(fs::exists(archive));
    }
    fs::remove_all(folder);
}
