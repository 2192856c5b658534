#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sndfile.h>
#include <thread>

#include "engine/graph/graph_error.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/operators/operator.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

constexpr int kRate = 8000;
constexpr int kFileChannels = 3;
constexpr std::int64_t kFrames = 1000;

/// The int16 code of frame i, channel c of the test file: covers the whole range, -32768 included.
std::int16_t testCode(std::int64_t frame, int channel) {
    return static_cast<std::int16_t>((frame * 251 + channel * 9973) % 65536 - 32768);
}

/// libsndfile reads 16-bit code s as s / 32768.
float testSample(std::int64_t frame, int channel) { return static_cast<float>(testCode(frame, channel)) / 32768.0f; }

/// The interleaved codes of the 3-channel, 1000-frame test file.
std::vector<std::int16_t> testCodes() {
    std::vector<std::int16_t> interleaved;
    for (std::int64_t i = 0; i < kFrames; ++i) {
        for (int c = 0; c < kFileChannels; ++c) interleaved.push_back(testCode(i, c));
    }
    return interleaved;
}

/// Writes the test file as an 8 kHz 16-bit WAV.
void writeTestFile(const std::string& path) { writePcm16Wav(path, kRate, kFileChannels, testCodes()); }

/// Channel `channel` of the test file played `loops` times.
std::vector<float> expectedChannel(int channel, int loops) {
    std::vector<float> samples;
    for (int loop = 0; loop < loops; ++loop) {
        for (std::int64_t i = 0; i < kFrames; ++i) samples.push_back(testSample(i, channel));
    }
    return samples;
}

/// The message of the GraphException the engine throws when starting `graph`, or "" if it starts.
std::string startError(const std::string& graph) {
    try {
        runGraph(graph);
    } catch (const GraphException& e) {
        return e.what();
    }
    return {};
}

/// A pass-through that sleeps `sleep_ms` on its first item: a consumer too slow for a paced source.
class SleepyPassThrough final : public Operator {
protected:
    void process(int, Item&& item) override {
        if (!slept_) {
            std::this_thread::sleep_for(std::chrono::milliseconds(params().getInt("sleep_ms")));
            slept_ = true;
        }
        emit(0, std::move(item));
    }

private:
    bool slept_ = false;
};

/// Adds "io_test.sleepy" to the test registry (once).
void registerSleepyPassThrough() {
    static const bool registered = [] {
        OperatorDescriptor d;
        d.typeName = "io_test.sleepy";
        d.category = "test";
        d.summary = "Forwards items; sleeps on the first one (tests only)";
        d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "samples"}};
        d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "the same samples"}};
        d.params = {ParamSpec{"sleep_ms", ParamKind::Int, std::int64_t{100}, 0.0, {}, "ms", "sleep on the first item"}};
        d.create = [] { return std::make_unique<SleepyPassThrough>(); };
        testRegistry().add(std::move(d));
        return true;
    }();
    (void)registered;
}

}  // namespace

TEST_CASE("audio_file_source reproduces a 16-bit WAV: samples, channel order, timebase, block size",
          "[io][audio_file_source]") {
    TempDir dir;
    const std::string path = dir.file("three.wav");
    writeTestFile(path);

    RunOutcome outcome = runGraph(sourceToCollect("io.audio_file_source", {{"path", path}, {"channels", 2}, {"block", 64}}, 2, "wav"));
    CHECK(outcome.completed);
    CHECK(outcome.failures.empty());
    const Collected& got = collections()["wav"];
    CHECK(got.finished);
    for (int c = 0; c < 2; ++c) {
        INFO("channel " << c);
        const auto& items = got.items[static_cast<std::size_t>(c)];
        REQUIRE(items.size() == 16);  // 15 blocks of 64 and one of 40
        CHECK(contiguousFrom(items, 0));
        for (std::size_t i = 0; i < items.size(); ++i) {
            CHECK(items[i].kind() == ItemKind::Signal);
            CHECK(items[i].sampleType() == SampleType::Float32);
            CHECK(items[i].segment().length() == (i + 1 < items.size() ? 64 : 40));
            const Timebase* timebase = items[i].segment().timebase();
            CHECK(timebase == got.items[0][0].segment().timebase());  // one timebase shared by all outputs
            CHECK(timebase->rateHz() == kRate);
            CHECK(timebase->zeroTimeNs() == 0);
            CHECK(&timebase->clock() == &Clock::media());
        }
        CHECK(concatenated(items) == expectedChannel(c, 1));
    }
    collections().clear();
}

TEST_CASE("audio_file_source reads other formats libsndfile knows, such as FLAC", "[io][audio_file_source]") {
    TempDir dir;
    const std::string path = dir.file("three.flac");
    if (!writePcm16Flac(path, kRate, kFileChannels, testCodes())) {
        WARN("this libsndfile has no FLAC support; skipped");
        return;
    }
    for (bool preload : {true, false}) {
        INFO("preload " << preload);
        runGraph(sourceToCollect("io.audio_file_source", {{"path", path}, {"channels", 3}, {"block", 256}, {"preload", preload}}, 3, "flac"));
        const Collected& got = collections()["flac"];
        for (int c = 0; c < 3; ++c) {
            CHECK(contiguousFrom(got.items[static_cast<std::size_t>(c)], 0));
            CHECK(concatenated(got.items[static_cast<std::size_t>(c)]) == expectedChannel(c, 1));
        }
    }
    collections().clear();
}

TEST_CASE("audio_file_source output does not depend on block size, preload or scheduler", "[io][audio_file_source]") {
    TempDir dir;
    const std::string path = dir.file("three.wav");
    writeTestFile(path);
    const std::vector<float> expected0 = expectedChannel(0, 2);
    const std::vector<float> expected2 = expectedChannel(2, 2);

    for (int block : {1, 7, 4096}) {
        for (bool preload : {true, false}) {
            for (const auto& scheduler : schedulerMatrix()) {
                INFO("block " << block << ", preload " << preload << ", scheduler " << scheduler);
                json params = {{"path", path}, {"channels", 3}, {"block", block}, {"preload", preload}, {"loops", 2}};
                RunOutcome outcome = runGraph(sourceToCollect("io.audio_file_source", params, 3, "split"), scheduler);
                REQUIRE(outcome.completed);
                const Collected& got = collections()["split"];
                CHECK(contiguousFrom(got.items[0], 0));
                CHECK(contiguousFrom(got.items[2], 0));
                CHECK(concatenated(got.items[0]) == expected0);
                CHECK(concatenated(got.items[2]) == expected2);
                for (const Item& item : got.items[1]) CHECK(item.segment().length() <= block);
            }
        }
    }
    collections().clear();
}

TEST_CASE("audio_file_source loops continue the sample indices; a block never spans two loops", "[io][audio_file_source]") {
    TempDir dir;
    const std::string path = dir.file("three.wav");
    writeTestFile(path);
    for (bool preload : {true, false}) {
        INFO("preload " << preload);
        runGraph(sourceToCollect("io.audio_file_source", {{"path", path}, {"block", 300}, {"loops", 3}, {"preload", preload}}, 1, "loops"));
        const auto& items = collections()["loops"].items[0];
        REQUIRE(items.size() == 12);
        CHECK(contiguousFrom(items, 0));
        for (std::size_t i = 0; i < items.size(); ++i) {
            const std::int64_t loop = static_cast<std::int64_t>(i / 4);
            const std::int64_t offset = static_cast<std::int64_t>(i % 4) * 300;
            CHECK(items[i].segment().startIndex() == loop * kFrames + offset);
            CHECK(items[i].segment().length() == (i % 4 == 3 ? 100 : 300));
        }
        CHECK(concatenated(items) == expectedChannel(0, 3));
    }
    collections().clear();
}

TEST_CASE("audio_file_source loops a file whose encoding libsndfile cannot seek in (G.721 ADPCM), streamed or preloaded",
          "[io][audio_file_source][fuzz]") {
    // Found by tests/fuzz/audio_file: the second loop of a streamed G.721 WAV failed with libsndfile's
    // "Seek attempted on unseekable file type".
    TempDir dir;
    const std::string path = dir.file("adpcm.wav");
    SF_INFO info{};
    info.samplerate = 8000;
    info.channels = 1;
    info.format = SF_FORMAT_WAV | SF_FORMAT_G721_32;
    SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
    REQUIRE(file);
    std::vector<float> ramp(1000);
    for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<float>(i % 50) / 100.0f - 0.25f;
    REQUIRE(sf_writef_float(file, ramp.data(), static_cast<sf_count_t>(ramp.size())) == static_cast<sf_count_t>(ramp.size()));
    sf_close(file);
    // What libsndfile decodes once (the codec is lossy): each loop must give exactly this.
    SF_INFO readInfo{};
    file = sf_open(path.c_str(), SFM_READ, &readInfo);
    REQUIRE(file);
    std::vector<float> decoded(static_cast<std::size_t>(readInfo.frames));
    REQUIRE(sf_readf_float(file, decoded.data(), readInfo.frames) == readInfo.frames);
    REQUIRE(sf_seek(file, 0, SEEK_SET) < 0);  // the case: no seeking in this encoding
    sf_close(file);
    std::vector<float> twice = decoded;
    twice.insert(twice.end(), decoded.begin(), decoded.end());
    for (bool preload : {false, true}) {
        INFO("preload " << preload);
        runGraph(sourceToCollect("io.audio_file_source", {{"path", path}, {"block", 64}, {"loops", 2}, {"preload", preload}}, 1, "adpcm"));
        const auto& items = collections()["adpcm"].items[0];
        CHECK(contiguousFrom(items, 0));
        CHECK(concatenated(items) == twice);
        collections().clear();
    }
}

TEST_CASE("audio_file_source with preload replays views of one block per channel, without copies", "[io][audio_file_source]") {
    TempDir dir;
    const std::string path = dir.file("three.wav");
    writeTestFile(path);
    runGraph(sourceToCollect("io.audio_file_source", {{"path", path}, {"channels", 3}, {"block", 100}, {"loops", 2}}, 3, "views"));
    const Collected& got = collections()["views"];
    for (int c = 0; c < 3; ++c) {
        const auto& items = got.items[static_cast<std::size_t>(c)];
        REQUIRE(items.size() == 20);
        const SampleBlock* storage = items[0].segment().list()->piece(0).block;
        for (const Item& item : items) {
            CHECK(item.segment().pieceCount() == 1);
            CHECK(item.segment().list()->piece(0).block == storage);
        }
    }
    CHECK(got.items[0][0].segment().list()->piece(0).block != got.items[1][0].segment().list()->piece(0).block);
    collections().clear();
}

TEST_CASE("audio_file_source refuses missing, unreadable and too narrow files, naming them", "[io][audio_file_source]") {
    TempDir dir;
    const std::string missing = dir.file("no-such-file.wav");
    std::string message = startError(sourceToCollect("io.audio_file_source", {{"path", missing}}, 1, "refused"));
    CHECK_THAT(message, Catch::Contains(missing) && Catch::Contains("cannot open"));

    const std::string garbage = dir.file("garbage.wav");
    std::FILE* file = std::fopen(garbage.c_str(), "w");
    REQUIRE(file);
    std::fputs("this is not a sound file", file);
    std::fclose(file);
    message = startError(sourceToCollect("io.audio_file_source", {{"path", garbage}}, 1, "refused"));
    CHECK_THAT(message, Catch::Contains(garbage) && Catch::Contains("cannot open"));

    const std::string three = dir.file("three.wav");
    writeTestFile(three);
    message = startError(sourceToCollect("io.audio_file_source", {{"path", three}, {"channels", 4}}, 4, "refused"));
    CHECK_THAT(message, Catch::Contains(three) && Catch::Contains("3 channel"));
    CHECK(startError(sourceToCollect("io.audio_file_source", {{"path", three}, {"channels", 3}}, 3, "refused")).empty());
    collections().clear();
}

TEST_CASE("audio_file_source warns about a header-only or cut-off WAV and names a zero sample rate", "[io][audio_file_source]") {
    // All three ran silently or with libsndfile's bare "SF_INFO struct incomplete".
    TempDir dir;
    const std::string whole = dir.file("whole.wav");
    writeTestFile(whole);
    std::ifstream in(whole, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(bytes.size() == 44 + kFrames * kFileChannels * 2);  // a canonical 44-byte header
    auto writeBytes = [&](const std::string& name, const std::string& content) {
        std::ofstream(dir.file(name), std::ios::binary) << content;
        return dir.file(name);
    };
    // Runs the file through the source; returns its warnings and how many frames came out.
    auto play = [&](const std::string& path) {
        Engine engine(validateGraph(parseGraph(sourceToCollect("io.audio_file_source", {{"path", path}, {"channels", 3}}, 3, "checked")), testRegistry()),
                      parseSchedulerText("df"));
        REQUIRE(engine.run().completed);
        return std::make_pair(engine.findNode("src")->warnings, concatenated(collections()["checked"].items[0]).size());
    };
    SECTION("a header only") {
        std::string header = bytes.substr(0, 44);
        header.replace(40, 4, std::string(4, '\0'));  // data chunk of 0 bytes
        const auto [warnings, frames] = play(writeBytes("header-only.wav", header));
        CHECK(frames == 0);
        REQUIRE(warnings.size() == 1);
        CHECK_THAT(warnings[0], Catch::Contains("holds no samples"));
    }
    SECTION("cut off after half its samples") {
        const std::size_t half = kFrames / 2 * kFileChannels * 2;
        const auto [warnings, frames] = play(writeBytes("cut.wav", bytes.substr(0, 44 + half)));
        CHECK(frames == static_cast<std::size_t>(kFrames / 2));
        REQUIRE(warnings.size() == 1);
        CHECK_THAT(warnings[0], Catch::Contains("shorter than its header says") && Catch::Contains("500 frames"));
    }
    SECTION("a whole file gives no warning") {
        const auto [warnings, frames] = play(whole);
        CHECK(frames == static_cast<std::size_t>(kFrames));
        CHECK(warnings.empty());
    }
    SECTION("a sample rate of 0") {
        std::string zero = bytes;
        zero.replace(24, 4, std::string(4, '\0'));
        const std::string path = writeBytes("zero-rate.wav", zero);
        CHECK_THAT(startError(sourceToCollect("io.audio_file_source", {{"path", path}, {"channels", 3}}, 3, "checked")),
                   Catch::Contains(path) && Catch::Contains("sample rate of 0 Hz"));
    }
    collections().clear();
}

TEST_CASE("audio_file_source refuses a file that ends before the length its header claims, without allocating the claim",
          "[io][audio_file_source][fuzz]") {
    // Found by tests/fuzz/audio_file: a 138-byte FLAC claiming 2^35 frames made preload allocate
    // them all up front (hundreds of GB) before reading a sample.
    TempDir dir;
    const std::string path = dir.file("lying.flac");
    if (!writePcm16Flac(path, kRate, kFileChannels, testCodes())) {
        WARN("this libsndfile has no FLAC support; skipped");
        return;
    }
    {
        // STREAMINFO follows "fLaC" and its 4-byte block header; its bytes 10..17 hold the rate (20
        // bits), channels (3), bits per sample (5) and the total frame count (36 bits).
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        REQUIRE(file);
        const unsigned char claim[] = {0x08, 0x00, 0x00, 0x00, 0x00};  // 2^35 frames
        file.seekg(21);
        const int packed = file.get();
        file.seekp(21);
        file.put(static_cast<char>((packed & 0xF0) | claim[0]));
        file.write(reinterpret_cast<const char*>(claim + 1), 4);
    }
    SF_INFO info{};
    SNDFILE* opened = sf_open(path.c_str(), SFM_READ, &info);
    REQUIRE(opened);
    sf_close(opened);
    REQUIRE(info.frames == std::int64_t{1} << 35);  // libsndfile believes the header

    const std::string message =
        startError(sourceToCollect("io.audio_file_source", {{"path", path}, {"channels", 3}, {"preload", true}}, 3, "lying"));
    CHECK_THAT(message, Catch::Contains(path) && Catch::Contains("shorter than its header says") &&
                            Catch::Contains("frame " + std::to_string(kFrames)));
    collections().clear();
}

TEST_CASE("audio_file_source paced at real time takes real time and stamps due times", "[io][audio_file_source][timing]") {
    TempDir dir;
    const std::string path = dir.file("short.wav");
    writePcm16Wav(path, kRate, 1, std::vector<std::int16_t>(1600, 1000));  // 0.2 s

    RunOutcome outcome = runGraph(sourceToCollect("io.audio_file_source", {{"path", path}, {"block", 160}, {"pace", 1.0}}, 1, "paced"));
    CHECK(outcome.completed);
    CHECK(outcome.wallSeconds >= 0.18);
    const auto& items = collections()["paced"].items[0];
    REQUIRE(items.size() == 10);
    CHECK(contiguousFrom(items, 0));
    for (std::size_t i = 1; i < items.size(); ++i) {
        // Each block is stamped with the wall time its last sample became due: 20 ms apart.
        CHECK(items[i].arrivalNs() - items[i - 1].arrivalNs() == Approx(20'000'000).margin(1'000));
    }

    runGraph(sourceToCollect("io.audio_file_source", {{"path", path}, {"block", 160}, {"pace", 4.0}}, 1, "paced"));
    const auto& fast = collections()["paced"].items[0];
    REQUIRE(fast.size() == 10);
    CHECK(fast.back().arrivalNs() - fast.front().arrivalNs() == Approx(45'000'000).margin(1'000));

    runGraph(sourceToCollect("io.audio_file_source", {{"path", path}, {"block", 160}}, 1, "paced"));
    const auto& unpaced = collections()["paced"].items[0];
    REQUIRE(unpaced.size() == 10);
    for (const Item& item : unpaced) CHECK(item.arrivalNs() > 0);  // stamped at emission
    collections().clear();
}

TEST_CASE("audio_file_source promises progress every progress_interval samples", "[io][audio_file_source]") {
    TempDir dir;
    const std::string path = dir.file("three.wav");
    writeTestFile(path);
    runGraph(sourceToCollect("io.audio_file_source", {{"path", path}, {"block", 64}, {"progress_interval", 100}}, 1, "progress"));
    const Collected& got = collections()["progress"];
    const Timebase& timebase = Timebase::get(kRate);
    std::vector<TimeNs> expected;
    for (std::int64_t end = 128; end < kFrames; end += 128) expected.push_back(timebase.timeOf(end));
    expected.push_back(timebase.timeOf(kFrames));  // the last two blocks hold 104 samples
    CHECK(got.progress[0] == expected);
    CHECK(got.finished);
    collections().clear();
}

TEST_CASE("an unpaced audio_file_source emits one block per produce call", "[io][audio_file_source]") {
    TempDir dir;
    const std::string path = dir.file("three.wav");
    writeTestFile(path);
    for (const std::string scheduler : {"df", "fifo:burst=3"}) {
        RunReport report = runGraphReporting(sourceToCollect("io.audio_file_source", {{"path", path}, {"block", 100}}, 1, "calls"), scheduler);
        CHECK(report.nodes["src"].calls == 10);
        CHECK(collections()["calls"].items[0].size() == 10);
    }
    collections().clear();
}

TEST_CASE("a paced audio_file_source that falls behind drops the overdue blocks and warns", "[io][audio_file_source][timing]") {
    registerSleepyPassThrough();
    TempDir dir;
    const std::string path = dir.file("half-second.wav");
    writePcm16Wav(path, kRate, 1, std::vector<std::int16_t>(4000, 500));
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "src"}, {"type", "io.audio_file_source"},
           {"params", {{"path", path}, {"block", 80}, {"pace", 1.0}, {"max_lag", 0.02}}}},
          {{"id", "slow"}, {"type", "io_test.sleepy"}, {"params", {{"sleep_ms", 150}}}},
          {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "late"}}}}}},
        {"edges", {{{"from", "src.out0"}, {"to", "slow.in"}}, {{"from", "slow.out"}, {"to", "sink.in0"}}}},
    };
    for (const std::string scheduler : {"df", "fifo"}) {
        INFO("scheduler " << scheduler);
        RunReport report = runGraphReporting(graph.dump(), scheduler);
        CHECK(report.outcome.completed);
        const auto& warnings = report.nodes["src"].warnings;
        REQUIRE(!warnings.empty());
        CHECK_THAT(warnings.front(), Catch::Contains("dropped"));
        const auto& items = collections()["late"].items[0];
        REQUIRE(!items.empty());
        CHECK_FALSE(contiguousFrom(items, 0));  // the jump in the indices is the gap
        std::int64_t received = 0;
        for (std::size_t i = 0; i < items.size(); ++i) {
            CHECK(items[i].segment().startIndex() % 80 == 0);  // resumes on the block grid
            if (i > 0) CHECK(items[i].segment().startIndex() >= items[i - 1].segment().endIndex());
            received += items[i].segment().length();
        }
        CHECK(received < 4000);
        CHECK(items.back().segment().endIndex() <= 4000);
    }
    collections().clear();
}

TEST_CASE("channels 0 takes the channel count from the file, so a bus adapts to it", "[io][audio_file_source]") {
    auto dir = std::filesystem::temp_directory_path() / ("isochron-auto-channels-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    auto path = dir / "three.wav";
    {
        SF_INFO info{};
        info.samplerate = 8000;
        info.channels = 3;
        info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
        SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
        REQUIRE(file != nullptr);
        std::vector<float> frames = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f};
        sf_writef_float(file, frames.data(), 2);
        sf_close(file);
    }
    std::string graph = R"({"format": "isochron-graph/1", "nodes": [
        {"id": "source", "type": "io.audio_file_source", "params": {"path": ")" + path.string() + R"(", "channels": 0}},
        {"id": "out", "type": "test.collect", "params": {"name": "auto", "inputs": 0}}],
      "edges": [{"from": "source.out*", "to": "out.in*"}]})";
    isochron::test::runGraph(graph);
    auto& got = isochron::test::collections()["auto"];
    REQUIRE(got.items.size() == 3);
    CHECK(isochron::test::samplesOf(got.items[2][0]) == std::vector<float>{0.3f, 0.6f});
    std::filesystem::remove_all(dir);
    // Only the cause: the missing file, on the source's path (not the empty bus that follows from it).
    CHECK_THROWS_WITH(isochron::test::runGraph(graph), Catch::Contains("node 'source', parameter 'path': cannot open '" + path.string() + "'") &&
                                                           !Catch::Contains("ports"));
    // Also when the bus's far end has a count of its own: its inputs are not reported unconnected.
    std::string fixedCount = graph;
    fixedCount.replace(fixedCount.find(R"("inputs": 0)"), 11, R"("inputs": 2)");
    CHECK_THROWS_WITH(isochron::test::runGraph(fixedCount), Catch::Contains("cannot open '" + path.string() + "'") &&
                                                                !Catch::Contains("not connected") && !Catch::Contains("ports"));
    isochron::test::collections().clear();
}

TEST_CASE("audio_file_source's validation (isochron-run --check) reads the header and says what is wrong with the file",
          "[io][audio_file_source]") {
    // --check said "valid" for each of these; the run then refused them with libsndfile's bare
    // "Unspecified internal error.", "SF_INFO struct incomplete." or "unknown error in flac decoder.".
    TempDir dir;
    const std::string whole = dir.file("whole.wav");
    writeTestFile(whole);
    std::ifstream in(whole, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(bytes.size() == 44 + kFrames * kFileChannels * 2);  // a canonical 44-byte header
    // `bytes` with the little-endian `value` of `width` bytes at `offset` of the header.
    auto patched = [&](const std::string& name, std::size_t offset, std::uint32_t value, int width) {
        std::string content = bytes;
        for (int i = 0; i < width; ++i) content[offset + static_cast<std::size_t>(i)] = static_cast<char>((value >> (8 * i)) & 0xFF);
        std::ofstream(dir.file(name), std::ios::binary) << content;
        return dir.file(name);
    };
    // The problem validation reports for a source reading `path`, as "node ..., parameter ...: ...".
    auto checked = [](const std::string& path) {
        try {
            validateGraph(parseGraph(sourceToCollect("io.audio_file_source", {{"path", path}, {"channels", 3}}, 3, "checked")), testRegistry());
        } catch (const GraphException& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    const auto onPath = [](const std::string& path) { return Catch::Contains("node 'src', parameter 'path': cannot open '" + path + "'"); };

    CHECK(checked(whole).empty());
    // '-' said "cannot open '-': no such file", though the docs said '-' meant standard input.
    CHECK_THAT(checked("-"), onPath("-") && Catch::Contains("sound files are not read from standard input") &&
                                 Catch::Contains("save the sound to a file and give its path"));
    const std::string missing = dir.file("no-such-file.wav");
    CHECK_THAT(checked(missing), onPath(missing) && Catch::Contains("no such file"));
    CHECK_THAT(checked(dir.path().string()), onPath(dir.path().string()) && Catch::Contains("a folder"));
    // An empty file said "its first bytes match none of them" (it has none).
    const std::string empty = dir.file("empty.wav");
    std::ofstream(empty, std::ios::binary).close();
    CHECK_THAT(checked(empty), onPath(empty) && Catch::Contains("it is empty (0 bytes), not a sound file"));

    const std::string float16 = patched("float16.wav", 20, 3, 2);  // format tag 3 (IEEE float) on 16-bit samples
    CHECK_THAT(checked(float16), onPath(float16) && Catch::Contains("16-bit float samples") && Catch::Contains("32 or 64 bits") &&
                                     Catch::Contains("(libsndfile: "));

    for (const std::uint32_t rate : {0x80000000u, 4000000000u}) {
        const std::string fast = patched("fast.wav", 24, rate, 4);
        CHECK_THAT(checked(fast), onPath(fast) && Catch::Contains("sample rate of " + std::to_string(rate) + " Hz") &&
                                      Catch::Contains("2147483647 Hz"));
    }

    // 7-bit samples take one byte each, but the block align says 0 bytes per frame: libsndfile read the
    // 16-bit data as twice the frames.
    std::string sevenBits = bytes;
    sevenBits[32] = 0;
    sevenBits[33] = 0;
    sevenBits[34] = 7;
    std::ofstream(dir.file("seven.wav"), std::ios::binary) << sevenBits;
    const std::string seven = dir.file("seven.wav");
    CHECK_THAT(checked(seven), onPath(seven) && Catch::Contains("contradicts itself") && Catch::Contains("3 channel(s) of 7-bit samples need 3 byte(s) per frame") &&
                                   Catch::Contains("block align says 0"));
    sevenBits[32] = 6;  // a block align libsndfile does not question, and does not follow either
    std::ofstream(seven, std::ios::binary) << sevenBits;
    CHECK_THAT(checked(seven), onPath(seven) && Catch::Contains("block align says 6"));
    // 12-bit samples in two bytes each: consistent, read as they are.
    std::string twelveBits = bytes;
    twelveBits[34] = 12;
    std::ofstream(dir.file("twelve.wav"), std::ios::binary) << twelveBits;
    CHECK(checked(dir.file("twelve.wav")).empty());

    const std::string flac = dir.file("doubled.flac");
    if (writePcm16Flac(flac, kRate, kFileChannels, testCodes())) {
        std::ifstream flacIn(flac, std::ios::binary);
        const std::string flacBytes((std::istreambuf_iterator<char>(flacIn)), std::istreambuf_iterator<char>());
        flacIn.close();
        std::ofstream(flac, std::ios::binary) << "fLaC" + flacBytes;  // a second marker where the metadata should start
        CHECK_THAT(checked(flac), onPath(flac) && Catch::Contains("FLAC header") && Catch::Contains("damaged"));
    }

    // The run refuses them with the same words.
    CHECK_THAT(startError(sourceToCollect("io.audio_file_source", {{"path", float16}, {"channels", 3}}, 3, "run")),
               Catch::Contains("16-bit float samples"));
    collections().clear();
}

TEST_CASE("audio_file_source names a FLAC stream that stops decoding mid-file", "[io][audio_file_source]") {
    TempDir dir;
    const std::string path = dir.file("damaged.flac");
    std::vector<std::int16_t> codes;
    for (int i = 0; i < 20000 * kFileChannels; ++i) codes.push_back(static_cast<std::int16_t>((i * 7919) % 65536 - 32768));
    if (!writePcm16Flac(path, kRate, kFileChannels, codes)) {
        WARN("this libsndfile has no FLAC support; skipped");
        return;
    }
    {
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        file.seekg(0, std::ios::end);
        const std::streamoff size = file.tellg();
        file.seekp(size / 2);
        const std::string noise(256, '\x5A');  // the middle of the stream overwritten
        file.write(noise.data(), static_cast<std::streamsize>(noise.size()));
    }
    const std::string message = startError(sourceToCollect("io.audio_file_source", {{"path", path}, {"channels", 3}}, 3, "damaged"));
    CHECK_THAT(message, Catch::Contains("reading '" + path + "' failed at frame") && Catch::Contains("FLAC stream is damaged") &&
                            Catch::Contains("(libsndfile: "));
    collections().clear();
}

TEST_CASE("audio_file_source warns about the NaN and infinite samples of a float file, preloaded or streamed", "[io][audio_file_source]") {
    // They passed without a word (a 16-bit sink then wrote them as 0 and full scale).
    TempDir dir;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> samples(2 * 300, 0.25f);  // 300 frames of 2 channels
    samples[2 * 100 + 1] = nan;
    samples[2 * 150] = inf;
    samples[2 * 299 + 1] = -inf;
    const std::string path = dir.file("odd.wav");
    writeFloatWav(path, kRate, 2, samples);
    for (const bool preload : {true, false}) {
        INFO("preload " << preload);
        Engine engine(validateGraph(parseGraph(sourceToCollect("io.audio_file_source",
                                                               {{"path", path}, {"channels", 2}, {"preload", preload}, {"block", 64}}, 2, "odd")),
                                    testRegistry()),
                      parseSchedulerText("df"));
        REQUIRE(engine.run().completed);
        const std::vector<float> channel1 = concatenated(collections()["odd"].items[1]);
        REQUIRE(channel1.size() == 300);
        CHECK(std::isnan(channel1[100]));  // passed on as it is
        const std::vector<std::string>& warnings = engine.findNode("src")->warnings;
        REQUIRE(warnings.size() == 1);
        CHECK_THAT(warnings[0], Catch::Contains(path) && Catch::Contains("the first at frame 100"));
        if (preload) CHECK_THAT(warnings[0], Catch::Contains("holds 3 NaN or infinite sample(s)"));
        collections().clear();
    }
    // A file without them gives no warning.
    std::vector<float> clean(2 * 300, -0.5f);
    writeFloatWav(dir.file("clean.wav"), kRate, 2, clean);
    Engine engine(validateGraph(parseGraph(sourceToCollect("io.audio_file_source", {{"path", dir.file("clean.wav")}, {"channels", 2}}, 2, "clean")),
                                testRegistry()),
                  parseSchedulerText("df"));
    REQUIRE(engine.run().completed);
    CHECK(engine.findNode("src")->warnings.empty());
    collections().clear();
}

#ifndef ISOCHRON_SANITIZED  // AddressSanitizer reserves more address space than any limit this test could set
TEST_CASE("audio_file_source names the file, the memory preloading needs and preload false when the file does not fit",
          "[io][audio_file_source]") {
    // It said only "cannot start: std::bad_alloc".
    TempDir dir;
    const std::string big = dir.file("big.wav");
    {
        // A mono 16-bit WAV of 2^28 frames (512 MiB of data, 1 GiB decoded), sparse on disk: all zeros.
        constexpr std::uint32_t dataBytes = std::uint32_t{1} << 29;
        auto le32 = [](std::uint32_t v) { return std::string{char(v), char(v >> 8), char(v >> 16), char(v >> 24)}; };
        auto le16 = [](std::uint16_t v) { return std::string{char(v), char(v >> 8)}; };
        const std::string header = "RIFF" + le32(36 + dataBytes) + "WAVE" + "fmt " + le32(16) + le16(1) + le16(1) + le32(kRate) +
                                   le32(kRate * 2) + le16(2) + le16(16) + "data" + le32(dataBytes);
        std::ofstream(big, std::ios::binary) << header;
        std::filesystem::resize_file(big, header.size() + dataBytes);
    }
    int pipeEnds[2];
    REQUIRE(::pipe(pipeEnds) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // The child may take 256 MiB more address space than it has: a quarter of what the file needs.
        long pages = 0;
        std::ifstream("/proc/self/statm") >> pages;
        const rlim_t limit = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + (rlim_t{256} << 20);
        const rlimit bound{limit, limit};
        std::string message = ::setrlimit(RLIMIT_AS, &bound) == 0 ? startError(sourceToCollect("io.audio_file_source", {{"path", big}}, 1, "big"))
                                                                   : std::string("setrlimit failed");
        if (::write(pipeEnds[1], message.data(), message.size()) < 0) ::_exit(2);
        ::_exit(0);
    }
    ::close(pipeEnds[1]);
    std::string message;
    char buffer[512];
    for (ssize_t got; (got = ::read(pipeEnds[0], buffer, sizeof buffer)) > 0;) message.append(buffer, static_cast<std::size_t>(got));
    ::close(pipeEnds[0]);
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    INFO(message);
    CHECK(WIFEXITED(status));
    CHECK_THAT(message, Catch::Contains("node 'src'") && Catch::Contains("cannot preload '" + big + "'") && Catch::Contains("needs 1024 MiB") &&
                            Catch::Contains("268435456 frames x 1 channel(s)") && Catch::Contains("set preload false"));
}
#endif
