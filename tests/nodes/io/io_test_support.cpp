#include "tests/nodes/io/io_test_support.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include <sndfile.h>
#include <unistd.h>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "tests/support/graph_run.h"
#include "tests/support/test_operators.h"

namespace isochron::test {
namespace {

SNDFILE* openForWriting(const std::string& path, int rateHz, int channels, int format) {
    SF_INFO info{};
    info.samplerate = rateHz;
    info.channels = channels;
    info.format = format;
    SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
    if (!file) throw std::runtime_error("cannot write '" + path + "': " + sf_strerror(nullptr));
    return file;
}

void finishWriting(SNDFILE* file, const std::string& path, sf_count_t written, sf_count_t expected) {
    const int closed = sf_close(file);
    if (written != expected || closed != 0) throw std::runtime_error("writing '" + path + "' failed");
}

}  // namespace

TempDir::TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("isochron-io-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

void writePcm16Wav(const std::string& path, int rateHz, int channels, const std::vector<std::int16_t>& interleaved) {
    SNDFILE* file = openForWriting(path, rateHz, channels, SF_FORMAT_WAV | SF_FORMAT_PCM_16);
    const sf_count_t frames = static_cast<sf_count_t>(interleaved.size()) / channels;
    finishWriting(file, path, sf_writef_short(file, interleaved.data(), frames), frames);
}

bool writePcm16Flac(const std::string& path, int rateHz, int channels, const std::vector<std::int16_t>& interleaved) {
    SF_INFO format{};
    format.samplerate = rateHz;
    format.channels = channels;
    format.format = SF_FORMAT_FLAC | SF_FORMAT_PCM_16;
    if (!sf_format_check(&format)) return false;
    SNDFILE* file = openForWriting(path, rateHz, channels, format.format);
    const sf_count_t frames = static_cast<sf_count_t>(interleaved.size()) / channels;
    finishWriting(file, path, sf_writef_short(file, interleaved.data(), frames), frames);
    return true;
}

void writeFloatWav(const std::string& path, int rateHz, int channels, const std::vector<float>& interleaved) {
    SNDFILE* file = openForWriting(path, rateHz, channels, SF_FORMAT_WAV | SF_FORMAT_FLOAT);
    const sf_count_t frames = static_cast<sf_count_t>(interleaved.size()) / channels;
    finishWriting(file, path, sf_writef_float(file, interleaved.data(), frames), frames);
}

std::vector<std::string> partialFilesIn(const TempDir& dir) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        const std::string name = entry.path().filename().string();
        if (name.ends_with(".partial")) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
}

SoundData readSound(const std::string& path) {
    SF_INFO info{};
    SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
    if (!file) throw std::runtime_error("cannot read '" + path + "': " + sf_strerror(nullptr));
    SoundData data;
    data.rateHz = info.samplerate;
    data.channels = info.channels;
    data.interleaved.resize(static_cast<std::size_t>(info.frames * info.channels));
    const sf_count_t got = sf_readf_float(file, data.interleaved.data(), info.frames);
    sf_close(file);
    if (got != info.frames) throw std::runtime_error("reading '" + path + "' failed");
    return data;
}

std::string recordEventsGraph(const std::string& path, const std::string& stream) {
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "events"}, {"type", "event"}}}},
          {{"id", "rec"}, {"type", "io.archive_sink"}, {"params", {{"path", path}, {"stream", stream}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "rec.in0"}}}},
    };
    return graph.dump();
}

std::string sourceToCollect(const std::string& sourceType, const nlohmann::json& params, int outputs,
                            const std::string& collectName) {
    nlohmann::json edges = nlohmann::json::array();
    if (outputs == 0) edges.push_back({{"from", "src.out"}, {"to", "sink.in0"}});
    for (int k = 0; k < outputs; ++k) {
        edges.push_back({{"from", "src.out" + std::to_string(k)}, {"to", "sink.in" + std::to_string(k)}});
    }
    nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "src"}, {"type", sourceType}, {"params", params}},
          {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", collectName}, {"inputs", std::max(outputs, 1)}}}}}},
        {"edges", edges},
    };
    return graph.dump();
}

std::vector<float> concatenated(const std::vector<Item>& items) {
    std::vector<float> all;
    for (const Item& item : items) {
        std::vector<float> samples = samplesOf(item);
        all.insert(all.end(), samples.begin(), samples.end());
    }
    return all;
}

bool contiguousFrom(const std::vector<Item>& items, std::int64_t firstIndex) {
    std::int64_t expected = firstIndex;
    for (const Item& item : items) {
        if (item.segment().startIndex() != expected) return false;
        expected = item.segment().endIndex();
    }
    return true;
}

RunReport runGraphReporting(const std::string& graphJson, const std::string& scheduler) {
    ValidatedGraph graph = validateGraph(parseGraph(graphJson), testRegistry());
    Engine engine(graph, parseSchedulerText(scheduler));
    RunReport report;
    report.outcome = engine.run();
    // Deactivated first, as isochron-run does: what a node says as it closes is part of its report.
    for (NodeContext* node : engine.nodes()) {
        if (node->op) node->op->deactivate();
    }
    for (const auto& node : engine.nodes()) report.nodes[node->id] = NodeReport{node->warnings, node->callCount()};
    return report;
}

}  // namespace isochron::test
