// isochron-run end to end: the real binary on every sample graph, its report, and its errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "tests/support/run_command.h"
#include "tests/support/virtual_mic_array.h"

namespace {

using Result = isochron::test::CommandResult;

Result runCommand(const std::string& arguments) { return isochron::test::runProgram(ISOCHRON_RUN_BINARY, arguments); }

std::filesystem::path samples() { return std::filesystem::path(ISOCHRON_SOURCE_DIR) / "samples"; }

std::filesystem::path tempFile(const std::string& name) {
    return std::filesystem::temp_directory_path() / ("isochron-runner-test-" + std::to_string(getpid()) + "-" + name);
}

std::string unpaced(const std::filesystem::path& graph) {
    // Sources that pace in real time run flat out in tests; capture sources play their recording
    // (a device the machine may have would run until stopped).
    std::ifstream in(graph);
    nlohmann::json spec = nlohmann::json::parse(in);
    std::string sets;
    for (const auto& node : spec["nodes"]) {
        const std::string id = node["id"].get<std::string>();
        if (node.contains("params") && node["params"].contains("pace")) sets += " --set " + id + ".pace=0";
        if (node.value("type", "") == "capture.audio_input") sets += " --set " + id + ".input=file";
    }
    return sets;
}

/// The only audio devices the runner sees in this process and its children: one virtual array, one
/// virtual speaker pair, and a `default` that plays to nowhere. Without them a sample that plays
/// sound (io.audio_output on `default`) would open whatever the machine's ALSA configuration offers.
void installRunnerAudioDevices() {
    isochron::test::installVirtualCaptureDevices({{"isochron_listed2", 2, std::vector<float>(2 * 64, 0.0f)}}, {{"isochron_speakers_listed"}});
}

}  // namespace

TEST_CASE("isochron-run runs every sample graph and writes a report", "[runner]") {
    installRunnerAudioDevices();
    for (const auto& entry : std::filesystem::recursive_directory_iterator(samples())) {
        if (!entry.path().string().ends_with(".isograph.json")) continue;
        INFO("graph " << entry.path().string());
        std::ifstream file(entry.path());
        if (nlohmann::json::parse(file).contains("interface")) continue;  // a part used as a subgraph, run by the graphs using it
        auto report = tempFile("report.json");
        Result r = runCommand(entry.path().string() + unpaced(entry.path()) + " --report " + report.string());
        INFO(r.output);
        REQUIRE(r.status == 0);
        CHECK(r.output.find("completed") != std::string::npos);
        std::ifstream in(report);
        nlohmann::json json = nlohmann::json::parse(in);
        CHECK(json["format"] == "isochron-run-report/1");
        CHECK(json["completed"] == true);
        REQUIRE(json["outputs"].is_object());
        REQUIRE_FALSE(json["outputs"].empty());
        std::uint64_t items = 0;
        for (auto& [name, output] : json["outputs"].items()) {
            CHECK(output.contains("samples"));
            items += output["items"].get<std::uint64_t>();
        }
        CHECK(items > 0);
        std::filesystem::remove(report);
    }
}

TEST_CASE("the scheduler can be chosen on the command line", "[runner]") {
    auto report = tempFile("scheduler.json");
    auto graph = samples() / "bench" / "statfilter.isograph.json";
    Result r = runCommand(graph.string() + " --scheduler fifo-slice:slice_us=5,burst=2 --report " + report.string());
    INFO(r.output);
    REQUIRE(r.status == 0);
    std::ifstream in(report);
    CHECK(nlohmann::json::parse(in)["scheduler"] == "fifo-slice");
    std::filesystem::remove(report);
}

TEST_CASE("isochron-run explains bad input and exits non-zero", "[runner]") {
    auto graph = samples() / "bench" / "statfilter.isograph.json";
    Result missing = runCommand("does-not-exist.isograph.json");
    CHECK(missing.status == 1);
    CHECK(missing.output.find("cannot open graph file") != std::string::npos);

    Result badSet = runCommand(graph.string() + " --set loud.threshold=loud");
    CHECK(badSet.status == 1);
    CHECK(badSet.output.find("node 'loud', parameter 'threshold': expected a number") != std::string::npos);

    Result badScheduler = runCommand(graph.string() + " --scheduler lifo");
    CHECK(badScheduler.status == 1);
    CHECK(badScheduler.output.find("unknown scheduler 'lifo'") != std::string::npos);

    Result missingAudio = runCommand(graph.string() + " --set source.path=/nonexistent/recording.wav");
    CHECK(missingAudio.status == 1);
    CHECK(missingAudio.output.find("node 'source'") != std::string::npos);
    CHECK(missingAudio.output.find("/nonexistent/recording.wav") != std::string::npos);

    auto broken = tempFile("broken.isograph.json");
    std::ofstream(broken) << R"({"format": "isochron-graph/1", "nodes": [{"id": "x", "type": "segments.pass_thru"}]})";
    Result invalid = runCommand(broken.string());
    CHECK(invalid.status == 1);
    CHECK(invalid.output.find("node 'x', field 'type': unknown operator type 'segments.pass_thru' (did you mean 'segments.pass_through'?)") !=
          std::string::npos);
    std::filesystem::remove(broken);

    Result usage = runCommand("--frobnicate");
    CHECK(usage.status == 1);
    CHECK(usage.output.find("unknown option --frobnicate") != std::string::npos);
}

TEST_CASE("localize-file's input problems are reported before the run, by their cause", "[runner][localization]") {
    const auto graph = samples() / "localize-file.isograph.json";
    SECTION("a missing recording: only the file, on the source's path") {
        const Result missing = runCommand(graph.string() + " --set source.path=/no/such.wav");
        INFO(missing.output);
        CHECK(missing.status == 1);
        CHECK(missing.output.find("node 'source', parameter 'path': cannot open '/no/such.wav'") != std::string::npos);
        CHECK(missing.output.find("ports") == std::string::npos);
        CHECK(missing.output.find("running") == std::string::npos);
    }
    SECTION("a geometry with another mic count than the recording's channels") {
        // The bundled recording has 4 channels; this preset places 8 mics.
        for (const std::string& flag : {std::string(" --check"), std::string()}) {
            const Result mismatch = runCommand(graph.string() + " --set array.geometry=circular8:0.046" + flag);
            INFO(mismatch.output);
            CHECK(mismatch.status == 1);
            CHECK(mismatch.output.find("cannot run") != std::string::npos);
            CHECK(mismatch.output.find("node 'array', parameter 'geometry': preset 'circular8:0.046' places 8 mics but the audio of node "
                                       "'source' has 4 channels") != std::string::npos);
            CHECK(mismatch.output.find("running") == std::string::npos);
        }
    }
}

TEST_CASE("a geometry on the source reaches the localizer with the channels: the same sounds as one on the localizer", "[runner][localization][channels]") {
    const std::string graph = (samples() / "localize-file.isograph.json").string();
    const std::string geometry = (samples() / "data" / "array-square4.geometry.json").string();
    const std::string moved = " --set source.geometry=" + geometry + " --set array.geometry=";
    const auto onArray = tempFile("geometry-on-array.jsonl"), onSource = tempFile("geometry-on-source.jsonl");
    const Result first = runCommand(graph + " --quiet --set events.path=" + onArray.string());
    INFO(first.output);
    REQUIRE(first.status == 0);
    const Result second = runCommand(graph + " --quiet --set events.path=" + onSource.string() + moved);
    INFO(second.output);
    REQUIRE(second.status == 0);
    auto contents = [](const std::filesystem::path& file) {
        std::ifstream in(file);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string expected = contents(onArray);
    CHECK(std::count(expected.begin(), expected.end(), '\n') == 4);  // the bundled recording's four sounds
    CHECK(contents(onSource) == expected);
    const Result check = runCommand(graph + " --check" + moved);
    INFO(check.output);
    CHECK(check.status == 0);
    CHECK(check.output.find("source.out1 -> stft.in1: ch 1 (-0.1, 0.1, 0 m)") != std::string::npos);
    CHECK(check.output.find("node 'array': array geometry from the mic positions its inputs carry") != std::string::npos);
    std::filesystem::remove(onArray);
    std::filesystem::remove(onSource);
}

TEST_CASE("localize-live says at once that the bundled recording stands in for a missing array", "[runner][localization]") {
    installRunnerAudioDevices();
    const auto graph = samples() / "localize-live.isograph.json";
    // No default input on an audio system that does not exist: the array is absent.
    const Result result = runCommand(graph.string() + " --set source.host_api=no-such-api --set source.pace=0");
    INFO(result.output);
    CHECK(result.status == 0);
    // Printed as the run starts (isochron-run's own stderr line), not only in the summary at the end.
    const auto notice = result.output.find("isochron-run: warning: node 'source': no default input device on host API 'no-such-api'");
    REQUIRE(notice != std::string::npos);
    CHECK(result.output.find("playing the recording", notice) != std::string::npos);
    CHECK(result.output.find("array-square4-demo.flac", notice) != std::string::npos);
    // A device named by the user that is not there stops the run instead (a typo is not the array).
    const Result named = runCommand(graph.string() + " --set source.device=no-such-array --set source.pace=0");
    INFO(named.output);
    CHECK(named.status != 0);
    CHECK(named.output.find("no input device named 'no-such-array'") != std::string::npos);
    CHECK(named.output.find("playing the recording") == std::string::npos);
}

TEST_CASE("docs/operators.md is the reference isochron-run writes from the descriptors", "[runner][docs]") {
    const Result reference = runCommand("--operator-reference -");
    REQUIRE(reference.status == 0);
    std::ifstream committed(std::filesystem::path(ISOCHRON_SOURCE_DIR) / "docs" / "operators.md");
    const std::string text((std::istreambuf_iterator<char>(committed)), std::istreambuf_iterator<char>());
    INFO("regenerate it: cmake --build --preset release --target operator-reference");
    CHECK(text == reference.output);
    for (const char* type : {"channels.mix", "math.expression", "level.agc", "spectral.stft"}) {
        CHECK(text.find(std::string("### `") + type + "`") != std::string::npos);
    }
}

TEST_CASE("isochron-run lists operators and schedulers", "[runner]") {
    Result ops = runCommand("--list-operators");
    CHECK(ops.status == 0);
    for (const char* type : {"io.audio_file_source", "segments.rewindow", "segments.sync", "spectral.fft", "stats.stddev_filter",
                             "detect.silence_detector", "generators.signal_generator", "io.wav_file_sink", "io.jsonl_event_sink"}) {
        CHECK(ops.output.find(type) != std::string::npos);
    }
    // A word narrows the list to the operators that mention it, in name, summary or documentation.
    Result lowpass = runCommand("--list-operators LowPass");
    CHECK(lowpass.status == 0);
    for (const char* type : {"filters.butterworth", "filters.fir", "filters.chebyshev1"}) CHECK(lowpass.output.find(type) != std::string::npos);
    CHECK(lowpass.output.find("io.null_sink") == std::string::npos);
    CHECK(lowpass.output.find("running") == std::string::npos);
    Result nothing = runCommand("--list-operators zzqx");
    CHECK(nothing.status == 0);
    CHECK(nothing.output.find("no operator mentions 'zzqx'") != std::string::npos);
    Result schedulers = runCommand("--list-schedulers");
    CHECK(schedulers.status == 0);
    for (const char* name : {"fifo", "fifo-slice", "rtc", "df", "slice_us", "burst"}) CHECK(schedulers.output.find(name) != std::string::npos);
    // The devices the runner lists are the machine's: give it one virtual array and nothing else.
    installRunnerAudioDevices();
    Result devices = runCommand("--list-devices");
    CHECK(devices.status == 0);
    CHECK(devices.output.find("isochron_listed2") != std::string::npos);
    const std::size_t outputs = devices.output.find("output devices");
    REQUIRE(outputs != std::string::npos);
    CHECK(devices.output.find("isochron_speakers_listed", outputs) != std::string::npos);
}
