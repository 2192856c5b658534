// capture.audio_input end to end through real PortAudio and ALSA, against the virtual devices of
// capture_test_devices.h (no sound card needed): samples bit for bit, channel order, one timebase on
// the device's stream clock, gaps instead of stitching when the engine falls behind, a clear stop
// when a device is missing or vanishes, and the recording standing in for an absent device.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <sndfile.h>

#include "engine/graph/graph_error.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/operators/operator.h"
#include "engine/time/wall_clock.h"
#include "nodes/capture/capture_devices.h"
#include "tests/capture/capture_test_devices.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

/// Sleeps `ms` per item: an operator slower than the device, so the capture ring overflows.
class SleepPerItem final : public Operator {
protected:
    void process(int, Item&&) override {
        std::this_thread::sleep_for(std::chrono::microseconds(static_cast<std::int64_t>(params().getReal("ms") * 1000)));
    }
};

void registerSleepPerItem() {
    static const bool registered = [] {
        OperatorDescriptor d;
        d.typeName = "test.sleep_per_item";
        d.category = "test";
        d.summary = "Sleeps per item (tests only)";
        d.inputs = {PortSpec{"in", PortType::any(), "anything"}};
        d.params = {ParamSpec{"ms", ParamKind::Real, 1.0, 0.0, 1000.0, "ms", "sleep per item"}};
        d.create = [] { return std::make_unique<SleepPerItem>(); };
        testRegistry().add(std::move(d));
        return true;
    }();
    (void)registered;
}

/// A capture node `mic` with `params` feeding collector "captured" (one input per channel), plus
/// `extraNodes`/`extraEdges`.
std::string captureGraph(const json& params, const json& extraNodes = json::array(), const json& extraEdges = json::array()) {
    json nodes = {{{"id", "mic"}, {"type", "capture.audio_input"}, {"params", params}},
                  {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "captured"}, {"inputs", 0}}}}};
    json edges = {{{"from", "mic.out*"}, {"to", "sink.in*"}}};
    for (const auto& node : extraNodes) nodes.push_back(node);
    for (const auto& edge : extraEdges) edges.push_back(edge);
    return json{{"format", "isochron-graph/1"}, {"nodes", nodes}, {"edges", edges}}.dump();
}

/// The graph built and run on the engine; `warnings` receives the capture node's warnings.
RunOutcome runCapture(const std::string& graph, std::vector<std::string>* warnings = nullptr, std::uint64_t* warningCount = nullptr,
                      std::vector<std::string>* notices = nullptr) {
    Engine engine(validateGraph(parseGraph(graph), testRegistry()), parseSchedulerText("df"));
    RunOutcome outcome = engine.run();
    const NodeContext* mic = engine.findNode("mic");
    if (warnings) *warnings = mic->warnings;
    if (warningCount) *warningCount = mic->warningCount;
    if (notices) *notices = mic->notices;
    return outcome;
}

/// What the pattern device plays at `frame` on `channel` (silence after its data).
float expectedPatternValue(std::int64_t frame, int channel) { return frame < kPatternFrames ? patternSample(frame, channel) : 0.0f; }

/// CLOCK_MONOTONIC in ns (the clock ALSA's stream times use).
TimeNs monotonicNs() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<TimeNs>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

/// Checks every sample of every collected channel before frame `upTo` against the pattern device.
void checkPatternContent(const Collected& captured, std::int64_t upTo = std::numeric_limits<std::int64_t>::max()) {
    for (int c = 0; c < 4; ++c) {
        INFO("channel " << c);
        for (const Item& item : captured.items[static_cast<std::size_t>(c)]) {
            const std::vector<float> samples = samplesOf(item);
            const std::int64_t start = item.range().start;
            for (std::size_t k = 0; k < samples.size() && start + static_cast<std::int64_t>(k) < upTo; ++k) {
                if (samples[k] != expectedPatternValue(start + static_cast<std::int64_t>(k), c)) {
                    FAIL("sample " << start + static_cast<std::int64_t>(k) << " is " << samples[k] << ", the device played "
                                   << expectedPatternValue(start + static_cast<std::int64_t>(k), c));
                }
            }
        }
    }
}

}  // namespace

TEST_CASE("capture devices: the virtual arrays are listed and found by name, part of it and host API", "[capture][devices]") {
    useTestCaptureDevices();
    const std::vector<CaptureDevice> devices = listCaptureDevices();
    const CaptureDevice pattern = findCaptureDevice(devices, "isochron_pattern4", "");
    CHECK(pattern.name == "isochron_pattern4");
    CHECK(pattern.hostApi == "ALSA");
    CHECK(pattern.inputChannels >= 4);
    CHECK(findCaptureDevice(devices, "SCENE4", "alsa").name == "isochron_scene4");
    CHECK_THROWS_WITH(findCaptureDevice(devices, "isochron_", ""),
                      Catch::Contains("matches several input devices") && Catch::Contains("isochron_scene4"));
    CHECK_THROWS_WITH(findCaptureDevice(devices, "no-such-array", ""),
                      Catch::Contains("no input device named 'no-such-array'") && Catch::Contains("'isochron_pattern4' (ALSA"));
    CHECK_THROWS_WITH(findCaptureDevice(devices, "isochron_pattern4", "JACK"), Catch::Contains("on host API 'JACK'"));
    CHECK_THROWS_WITH(findCaptureDevice({}, "default", ""), Catch::Contains("no audio input device at all"));
}

TEST_CASE("capture.audio_input delivers the device's samples bit for bit, in channel order, on one stream-clock timebase",
          "[capture]") {
    useTestCaptureDevices();
    const TimeNs monotonicBefore = monotonicNs();
    const TimeNs wallBefore = wallClockNs();
    std::vector<std::string> warnings;
    std::vector<std::string> notices;
    const RunOutcome outcome = runCapture(
        captureGraph({{"device", "isochron_pattern4"}, {"channels", 4}, {"duration", 0.5}, {"block", 480}, {"buffer", 1.0}}), &warnings,
        nullptr, &notices);
    const TimeNs wallAfter = wallClockNs();
    const TimeNs monotonicAfter = monotonicNs();
    REQUIRE(outcome.failures.empty());
    CHECK(warnings.empty());
    // It says which device it opened (shown as the run starts).
    REQUIRE(notices.size() == 1);
    CHECK_THAT(notices.front(), Catch::Contains("capturing 4 channel(s) from device 'isochron_pattern4'") && Catch::Contains("48000 Hz"));
    const Collected& captured = collections()["captured"];
    CHECK(captured.finished);
    REQUIRE(captured.items.size() == 4);
    const Timebase* timebase = captured.items[0].front().range().timebase;
    REQUIRE(timebase);
    CHECK(timebase->rateHz() == 48000.0);
    CHECK(timebase->clock().name() == "portaudio:ALSA:isochron_pattern4");
    // Sample 0 sits at the device stream clock's time of the first frame (ALSA: the monotonic clock).
    CHECK(timebase->zeroTimeNs() > monotonicBefore - 1'000'000'000);
    CHECK(timebase->zeroTimeNs() < monotonicAfter);
    for (int c = 0; c < 4; ++c) {
        INFO("channel " << c);
        std::int64_t next = 0;
        TimeNs previousArrival = wallBefore;
        for (const Item& item : captured.items[static_cast<std::size_t>(c)]) {
            CHECK(item.range().timebase == timebase);
            CHECK(item.range().start == next);
            CHECK(item.range().length == 480);
            CHECK(item.arrivalNs() >= previousArrival);
            CHECK(item.arrivalNs() <= wallAfter);
            previousArrival = item.arrivalNs();
            next = item.range().end();
        }
        CHECK(next == 24000);
    }
    checkPatternContent(captured);
    collections().clear();
}

TEST_CASE("capture.audio_input turns frames lost while the engine falls behind into gaps and warnings, never stitching",
          "[capture][overflow]") {
    useTestCaptureDevices();
    registerSleepPerItem();
    // The virtual device delivers as fast as it is read; a 2-block ring and 2 ms per block downstream
    // cannot keep up, so most blocks are dropped.
    std::vector<std::string> warnings;
    std::uint64_t warningCount = 0;
    const RunOutcome outcome = runCapture(
        captureGraph({{"device", "isochron_pattern4"}, {"channels", 4}, {"duration", 1.0}, {"block", 480}, {"buffer", 0.01}},
                     json::array({{{"id", "slow"}, {"type", "test.sleep_per_item"}, {"params", {{"ms", 2.0}}}}}),
                     json::array({{{"from", "mic.out0"}, {"to", "slow.in"}}})),
        &warnings, &warningCount);
    REQUIRE(outcome.failures.empty());
    const Collected& captured = collections()["captured"];
    REQUIRE(captured.items.size() == 4);
    // Every channel shows the same ranges: gaps in the indices, never a segment spanning one.
    std::uint64_t gaps = 0;
    std::int64_t next = 0;
    for (const Item& item : captured.items[0]) {
        CHECK(item.range().start >= next);
        if (item.range().start > next) ++gaps;
        next = item.range().end();
    }
    CHECK(next <= 48000);
    if (next < 48000) ++gaps;  // lost up to the end of the duration
    CHECK(gaps >= 1);
    CHECK(warningCount == gaps);
    REQUIRE_FALSE(warnings.empty());
    CHECK_THAT(warnings.front(), Catch::Contains("lost") && Catch::Contains("dropped while the engine fell behind"));
    for (int c = 1; c < 4; ++c) {
        REQUIRE(captured.items[static_cast<std::size_t>(c)].size() == captured.items[0].size());
        for (std::size_t i = 0; i < captured.items[0].size(); ++i) {
            CHECK(captured.items[static_cast<std::size_t>(c)][i].range() == captured.items[0][i].range());
        }
    }
    // What did arrive is what the device played at those indices.
    checkPatternContent(captured);
    collections().clear();
}

TEST_CASE("capture.audio_input: a missing device stops the graph at start, naming it and the devices there are", "[capture]") {
    useTestCaptureDevices();
    try {
        runCapture(captureGraph({{"device", "no-such-array"}, {"channels", 4}}));
        FAIL("the graph started");
    } catch (const GraphException& e) {
        CHECK_THAT(e.what(), Catch::Contains("node 'mic'") && Catch::Contains("no input device named 'no-such-array'") &&
                                 Catch::Contains("isochron_pattern4"));
    }
    try {
        runCapture(captureGraph({{"device", "isochron_pattern4"}, {"channels", 200}}));
        FAIL("the graph started");
    } catch (const GraphException& e) {
        CHECK_THAT(e.what(), Catch::Contains("node 'mic'") && Catch::Contains("200 asked for"));
    }
    collections().clear();
}

TEST_CASE("capture.audio_input: a device that vanishes while running stops the node with a message, without hanging",
          "[capture]") {
    useTestCaptureDevices();
    const RunOutcome outcome =
        runCapture(captureGraph({{"device", "isochron_failing4"}, {"channels", 4}, {"block", 256}, {"stall_timeout", 10.0}}));
    REQUIRE(outcome.failures.size() == 1);
    CHECK_THAT(outcome.failures.front(), Catch::Contains("node 'mic'") && Catch::Contains("isochron_failing4") &&
                                             Catch::Contains("stopped delivering audio") && Catch::Contains("disconnected or failed"));
    CHECK(outcome.completed);
    CHECK(outcome.wallSeconds < 5.0);  // found by the stream's end, well before the stall timeout
    const Collected& captured = collections()["captured"];
    // Its input was cut short by the failed source: the sink ends as on a stop, without the
    // end-of-stream flush that would present the recording as complete.
    CHECK_FALSE(captured.finished);
    checkPatternContent(captured);
    collections().clear();
}

TEST_CASE("capture.audio_input: a device that stops delivering without an error stops the node after stall_timeout",
          "[capture]") {
    useTestCaptureDevices();
    const RunOutcome outcome = runCapture(
        captureGraph({{"device", "isochron_stalling4"}, {"channels", 4}, {"block", 256}, {"buffer", 1.0}, {"stall_timeout", 0.3}}));
    REQUIRE(outcome.failures.size() == 1);
    CHECK_THAT(outcome.failures.front(), Catch::Contains("node 'mic'") && Catch::Contains("isochron_stalling4") &&
                                             Catch::Contains("delivered no audio for") && Catch::Contains("stall_timeout"));
    CHECK(outcome.wallSeconds >= 0.3);
    CHECK(outcome.wallSeconds < 5.0);
    const Collected& captured = collections()["captured"];
    CHECK_FALSE(captured.finished);  // cut short by the failed source, as above
    std::int64_t frames = 0;
    for (const Item& item : captured.items[0]) frames += item.range().length;
    // Everything the device delivered before it hung (its last read may be padded with silence).
    CHECK(frames >= kStallingFrames);
    checkPatternContent(captured, kStallingFrames);
    collections().clear();
}

TEST_CASE("capture.audio_input plays its recording when the default device is absent (device_or_file) or when asked (file)",
          "[capture][fallback]") {
    useTestCaptureDevices();
    const std::string path = (std::filesystem::temp_directory_path() / ("isochron-fallback-" + std::to_string(getpid()) + ".wav")).string();
    const int frames = 3000;
    {
        SF_INFO info{};
        info.samplerate = 16000;
        info.channels = 5;
        info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
        SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
        REQUIRE(file);
        std::vector<float> interleaved;
        for (int i = 0; i < frames; ++i) {
            for (int c = 0; c < 5; ++c) interleaved.push_back(static_cast<float>(i * 10 + c) / 65536.0f);
        }
        sf_writef_float(file, interleaved.data(), frames);
        sf_close(file);
    }
    // duration 0 and 1e308 (more samples than a stream counts) both mean the whole recording.
    for (const auto& [input, duration] : std::vector<std::pair<std::string, double>>{{"device_or_file", 0.0}, {"file", 0.0}, {"file", 1e308}}) {
        INFO("input " << input << ", duration " << duration);
        std::vector<std::string> warnings;
        // No default input on an audio system that does not exist: the default device is absent.
        const RunOutcome outcome = runCapture(captureGraph({{"host_api", "no-such-api"}, {"channels", 4}, {"input", input},
                                                            {"file", path}, {"pace", 0.0}, {"block", 700}, {"duration", duration}}),
                                              &warnings);
        REQUIRE(outcome.failures.empty());
        if (input == "device_or_file") {
            REQUIRE(warnings.size() == 1);
            CHECK_THAT(warnings.front(), Catch::Contains("no default input device on host API 'no-such-api'") &&
                                             Catch::Contains("playing the recording"));
        } else {
            CHECK(warnings.empty());
        }
        const Collected& captured = collections()["captured"];
        REQUIRE(captured.items.size() == 4);
        for (int c = 0; c < 4; ++c) {
            std::vector<float> all;
            for (const Item& item : captured.items[static_cast<std::size_t>(c)]) {
                CHECK(item.range().timebase->rateHz() == 16000.0);
                CHECK(item.range().start == static_cast<std::int64_t>(all.size()));
                for (float v : samplesOf(item)) all.push_back(v);
            }
            REQUIRE(all.size() == static_cast<std::size_t>(frames));
            for (int i = 0; i < frames; ++i) {
                if (all[static_cast<std::size_t>(i)] != static_cast<float>(i * 10 + c) / 65536.0f) FAIL("channel " << c << " frame " << i);
            }
        }
        collections().clear();
    }
    // A device the user named that is not there stops the graph even with device_or_file: a typo in its name
    // must not pass the recording off as the array.
    CHECK_THROWS_WITH(runCapture(captureGraph({{"device", "no-such-array"}, {"channels", 4}, {"input", "device_or_file"},
                                                {"file", path}, {"pace", 0.0}})),
                      Catch::Contains("cannot start: no input device named 'no-such-array'"));
    collections().clear();
    // With the device present, device_or_file captures from it.
    const RunOutcome live = runCapture(captureGraph(
        {{"device", "isochron_pattern4"}, {"channels", 4}, {"input", "device_or_file"}, {"file", path}, {"duration", 0.1}}));
    REQUIRE(live.failures.empty());
    CHECK(collections()["captured"].items[0].front().range().timebase->rateHz() == 48000.0);
    checkPatternContent(collections()["captured"]);
    collections().clear();
    try {
        runCapture(captureGraph({{"device", "isochron_pattern4"}, {"channels", 4}, {"input", "file"}}));
        FAIL("the graph started");
    } catch (const GraphException& e) {
        CHECK_THAT(e.what(), Catch::Contains("needs a recording"));
    }
    std::filesystem::remove(path);
}

TEST_CASE("capture.audio_input's recording is read at validation (--check), and a bad one is named on 'file'", "[capture]") {
    // --check said "valid"; the run then refused the recording with libsndfile's bare text.
    const std::string dir = (std::filesystem::temp_directory_path() / ("isochron-recording-check-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(dir);
    const std::string missing = dir + "/missing.wav";
    const std::string garbage = dir + "/garbage.wav";
    std::ofstream(garbage) << "not a sound file";
    // The problem validation reports, or "".
    auto checked = [](const json& params) {
        try {
            validateGraph(parseGraph(captureGraph(params)), testRegistry());
        } catch (const GraphException& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    for (const std::string input : {"file", "device_or_file"}) {
        INFO(input);
        CHECK_THAT(checked({{"channels", 1}, {"input", input}, {"file", missing}}),
                   Catch::Contains("parameter 'file': the recording: cannot open '" + missing + "': no such file"));
        CHECK_THAT(checked({{"channels", 1}, {"input", input}, {"file", garbage}}),
                   Catch::Contains("parameter 'file'") && Catch::Contains(garbage) && Catch::Contains("not a sound file libsndfile knows"));
    }
    // A recording that is never played is not read.
    CHECK(checked({{"channels", 1}, {"input", "device"}, {"file", missing}}).empty());
    std::filesystem::remove_all(dir);
}
