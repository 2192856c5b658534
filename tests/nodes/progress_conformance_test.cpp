// Every built-in operator passes progress (punctuation) on: fed streams that promise progress as
// they go, each of its outputs receives a progress promise before the end of the stream, and no
// output item breaks a promise. A new operator is covered without anyone listing it; one that needs
// parameters or inputs the generic recipes cannot give gets a line in `kRecipes`.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include "engine/archive/archive_store.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/engine.h"
#include "engine/schedulers/scheduler.h"
#include "nodes/register_builtin_nodes.h"
#include "tests/support/graph_run.h"
#include "tests/support/stream_probes.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kRate = 16000;
constexpr int kBlocks = 48;
constexpr std::int64_t kBlock = 1024;

/// What one operator needs beyond its defaults: parameters (JSON object text), the count given to
/// repeated inputs, and the item type fed to inputs whose port type is a wildcard.
struct Recipe {
    std::string params = "{}";
    int repeatedInputs = 2;
    std::string wildcardType = "scalar";
    /// Operators whose inputs no generic feed can make (custom items): a graph fragment,
    /// {"nodes": [...], "edges": [...]}, whose edges reach the operator ("op.<port>"); the
    /// fragment's own open inputs get generic feeds like the operator's.
    std::string upstream = "";
};

/// A one-second, one-channel recording for io.archive_source (a source reads an archive, which
/// only a recording makes); the file is removed when the suite exits.
const std::string& recordedArchive() {
    struct Recording {
        std::filesystem::path path = std::filesystem::temp_directory_path() / ("isochron-conformance-" + std::to_string(getpid()) + ".sqlite");
        Recording() {
            ArchiveStore store(path.string(), ArchiveAccess::Record);
            ArchivedStreamInfo info;
            info.name = "recorded";
            info.rateHz = kRate;
            const std::int64_t id = store.openStream(info);
            std::vector<float> samples(static_cast<std::size_t>(kRate));
            for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<float>(std::sin(0.01 * static_cast<double>(i)));
            store.appendSamples(id, 0, 0, samples);
            store.commit();
        }
        ~Recording() {
            for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
        }
    };
    static const Recording recording;
    static const std::string path = recording.path.string();
    return path;
}

/// A scratch archive for io.archive_sink to record into (its committed output is what is checked);
/// removed when the suite exits.
const std::string& scratchArchive() {
    struct Scratch {
        std::filesystem::path path = std::filesystem::temp_directory_path() / ("isochron-progress-sink-" + std::to_string(::getpid()) + ".sqlite");
        ~Scratch() {
            for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
        }
    };
    static const Scratch scratch;
    static const std::string path = scratch.path.string();
    return path;
}

const std::map<std::string, Recipe>& recipes() {
    static const std::map<std::string, Recipe> table{
        {"spatial.srp_phat", {R"({"geometry": "square4:0.2", "block": 256})", 4}},
        {"spatial.aml_doa", {R"({"geometry": "square4:0.2", "block": 256})", 4}},
        {"spatial.music", {R"({"geometry": "square4:0.2", "block": 256})", 4}},
        {"spatial.gcc_phat", {R"({"geometry": "square4:0.2"})", 4}},
        {"spatial.delay_and_sum_beamformer", {R"({"geometry": "square4:0.2"})", 4}},
        {"spatial.mvdr_beamformer", {R"({"geometry": "square4:0.2"})", 4}},
        {"spatial.triangulate", {R"({"array_poses": [0, 0, 0, 4, 0, 90]})", 2}},
        {"spatial.triangulate_joined", {R"({"prefixes": "a_,b_", "array_poses": [0, 0, 0, 4, 0, 90]})"}},
        {"spatial.array_stft", {"{}", 4}},
        // The frame-wise localization chain: each stage is fed by the real stages before it.
        {"detect.spectral_activity", {"{}", 2, "scalar", R"({"nodes": [{"id": "up_stft", "type": "spatial.array_stft", "params": {"channels": 4}}],
            "edges": [{"from": "up_stft.spectra", "to": "op.spectra"}]})"}},
        {"spatial.frame_directions", {R"({"geometry": "square4:0.2"})", 2, "scalar", R"({"nodes": [
            {"id": "up_stft", "type": "spatial.array_stft", "params": {"channels": 4}}, {"id": "up_activity", "type": "detect.spectral_activity"}],
            "edges": [{"from": "up_stft.spectra", "to": "up_activity.spectra"}, {"from": "up_activity.activity", "to": "op.activity"}]})"}},
        {"spatial.source_tracker", {"{}", 2, "scalar", R"({"nodes": [
            {"id": "up_stft", "type": "spatial.array_stft", "params": {"channels": 4}}, {"id": "up_activity", "type": "detect.spectral_activity"},
            {"id": "up_directions", "type": "spatial.frame_directions", "params": {"geometry": "square4:0.2"}}],
            "edges": [{"from": "up_stft.spectra", "to": "up_activity.spectra"}, {"from": "up_activity.activity", "to": "up_directions.activity"},
                      {"from": "up_directions.directions", "to": "op.directions"}]})"}},
        {"relational.window_aggregate", {R"({"range": 0.05})"}},
        {"spectral.istft", {R"({"size": 32, "hop": 16})"}},
        {"channels.select", {R"({"channels": [1, 0, 1], "outputs": 3})"}},  // the generic feed's spectra have 17 bins
        // Sources: parameters that make them finite and self-contained.
        {"io.audio_file_source", {R"({"path": ")" ISOCHRON_SOURCE_DIR R"(/samples/data/counting-speech-16k.wav", "block": 1024, "progress_interval": 4096})"}},
        {"capture.audio_input", {R"({"input": "file", "file": ")" ISOCHRON_SOURCE_DIR R"(/samples/data/counting-speech-16k.wav", "pace": 0, "block": 512})"}},
        {"generators.signal_generator", {R"({"duration": 1, "rate": 16000, "block": 1024, "progress_interval": 4096})"}},
        {"workload.tuple_source", {R"({"count": 5000, "pace": 0, "burst": 100, "progress_interval": 100})"}},
        {"io.jsonl_event_source", {R"({"path": ")" ISOCHRON_SOURCE_DIR R"(/tests/nodes/io/data/events.jsonl", "heartbeat": 0.05, "disorder": 0.1})"}},
        {"io.archive_sink", {nlohmann::json{{"path", scratchArchive()}, {"stream", "conformance"}, {"committed_output", 1}}.dump(), 2, "signal<f32>"}},
        {"io.archive_source", {nlohmann::json{{"path", recordedArchive()}, {"stream", "recorded"}, {"block", 1024}, {"progress_interval", 4096}}.dump()}},
    };
    return table;
}

Recipe recipeFor(const std::string& type) {
    const auto it = recipes().find(type);
    return it == recipes().end() ? Recipe{} : it->second;
}

/// The concrete type fed to an input port of type `port`.
std::string feedType(const PortType& port, const Recipe& recipe) {
    if (!port.kind) return recipe.wildcardType;
    switch (*port.kind) {
        case ItemKind::Signal: return port.sampleType ? port.toString() : "signal<f32>";
        case ItemKind::Frame: return port.sampleType ? port.toString() : "frame<f32>";
        default: return port.toString();
    }
}

/// kBlocks items of `type`, one per 1024-sample block of a 16 kHz stream, each followed by progress
/// to the block's end. Every input of a node gets the same ranges (spatial operators expect that).
FeedScript feedFor(const std::string& type, std::uint32_t seed) {
    const Timebase& tb = Timebase::get(kRate);
    std::mt19937 random(seed);
    std::normal_distribution<float> noise(0.0f, 0.3f);
    FeedScript script;
    for (int b = 0; b < kBlocks; ++b) {
        const std::int64_t start = b * kBlock;
        const SampleRange range{&tb, start, kBlock};
        Item item;
        if (type == "signal<f32>") {
            std::vector<float> samples(kBlock);
            for (auto& s : samples) s = noise(random);
            item = Item::signal(makeSignal(samples, start, tb));
        } else if (type == "frame<f32>" || type == "frame<c32>") {
            const bool complexBins = type == "frame<c32>";
            if (complexBins) {
                auto frame = SigSeg<std::complex<float>>::allocate(17, 0, &tb);
                for (auto& v : frame.writable()) v = {noise(random), noise(random)};
                item = Item::frame(frame, range);
            } else {
                auto frame = SigSeg<float>::allocate(17, 0, &tb);
                for (auto& v : frame.writable()) v = std::abs(noise(random));
                item = Item::frame(frame, range);
            }
        } else if (type == "time_range") {
            item = Item::timeRange(SampleRange{&tb, start + 100, 300});
        } else if (type == "event") {
            EventRecord* record = EventRecord::create("e");
            record->set("azimuth_deg", 10.0 * b);
            record->set("elevation_deg", 0.0);
            record->set("confidence", 0.8);
            record->set("id", b);
            item = Item::event(record, range, 1.0);
        } else {
            item = Item::scalar(std::abs(noise(random)) * (b % 8 == 3 ? 20.0 : 1.0), range);
        }
        script.batches.push_back({{0, std::move(item)}, {0, Item::progress(range.endTime())}});
    }
    return script;
}

}  // namespace

TEST_CASE("every built-in operator passes progress on before its inputs end, and keeps its promises", "[nodes][progress][oop]") {
    registerStreamProbes();
    for (const OperatorDescriptor* descriptor : builtinRegistry().all()) {
        if (descriptor->isSource() || descriptor->outputs.empty()) continue;  // sources below; sinks pass nothing on
        const std::string& type = descriptor->typeName;
        const Recipe recipe = recipeFor(type);
        DYNAMIC_SECTION(type) {
            nlohmann::json graph = {{"format", "isochron-graph/1"}, {"nodes", nlohmann::json::array()}, {"edges", nlohmann::json::array()}};
            if (!recipe.upstream.empty()) {
                const nlohmann::json fragment = nlohmann::json::parse(recipe.upstream);
                for (const auto& node : fragment["nodes"]) graph["nodes"].push_back(node);
                for (const auto& edge : fragment["edges"]) graph["edges"].push_back(edge);
            }
            std::set<std::string> wired;
            for (const auto& edge : graph["edges"]) wired.insert(edge["to"].get<std::string>());
            std::vector<std::pair<std::string, nlohmann::json>> fedNodes{{"op", nlohmann::json::parse(recipe.params)}};
            for (const auto& node : graph["nodes"]) fedNodes.push_back({node["id"].get<std::string>(), node.value("params", nlohmann::json::object())});
            graph["nodes"].push_back({{"id", "op"}, {"type", type}, {"params", nlohmann::json::object()}});
            ParamSet resolved;
            int feeds = 0;
            for (auto& [id, params] : fedNodes) {
                auto node = std::find_if(graph["nodes"].begin(), graph["nodes"].end(), [&](const auto& n) { return n["id"] == id; });
                const OperatorDescriptor* d = builtinRegistry().find((*node)["type"].get<std::string>());
                REQUIRE(d);
                // Count parameters of repeated inputs get the recipe's count; resolve ports with them.
                for (const PortSpec& in : d->inputs) {
                    if (!in.countParam.empty() && !params.contains(in.countParam)) params[in.countParam] = recipe.repeatedInputs;
                }
                ParamSet nodeParams;
                for (const ParamSpec& spec : d->params) nodeParams.set(spec.name, spec.defaultValue);
                for (const auto& [name, value] : params.items()) {
                    if (const ParamSpec* spec = d->findParam(name)) {
                        std::string error;
                        nodeParams.set(name, *spec->fromJson(value, error));
                    }
                }
                (*node)["params"] = params;
                if (id == "op") resolved = nodeParams;
                for (const ResolvedPort& in : d->resolveInputs(nodeParams)) {
                    if (wired.contains(id + "." + in.name)) continue;
                    const std::string feed = "feed" + std::to_string(feeds);
                    const std::string fedType = feedType(in.type, recipe);
                    feedScripts()[type + "/" + feed] = feedFor(fedType, static_cast<std::uint32_t>(++feeds));
                    graph["nodes"].push_back({{"id", feed}, {"type", "test.feed"}, {"params", {{"name", type + "/" + feed}, {"type", fedType}}}});
                    graph["edges"].push_back({{"from", feed + ".out0"}, {"to", id + "." + in.name}});
                }
            }
            const auto outputs = descriptor->resolveOutputs(resolved);
            for (std::size_t o = 0; o < outputs.size(); ++o) {
                const std::string probe = type + "/" + outputs[o].name;
                graph["nodes"].push_back({{"id", "probe" + std::to_string(o)}, {"type", "test.probe"}, {"params", {{"name", probe}, {"keep", false}}}});
                graph["edges"].push_back({{"from", "op." + outputs[o].name}, {"to", "probe" + std::to_string(o) + ".in"}});
            }
            INFO(graph.dump());
            const RunOutcome outcome = runGraph(graph.dump(), "df");
            for (const auto& failure : outcome.failures) FAIL("the operator failed on generic input (give it a recipe): " << failure);
            REQUIRE(outcome.completed);
            for (const ResolvedPort& out : outputs) {
                INFO("output " << out.name);
                const Probed& probed = probes()[type + "/" + out.name];
                bool finiteProgress = false;
                for (TimeNs t : probed.progress) finiteProgress = finiteProgress || (t > kBeginningOfTime && t < kEndOfTime);
                CHECK(finiteProgress);
                CHECK(probed.brokenPromises == 0);
                CHECK(probed.finished);
            }
        }
    }
    feedScripts().clear();
    probes().clear();
}

TEST_CASE("every built-in source promises progress from its own clock before it ends", "[nodes][progress][oop]") {
    registerStreamProbes();
    for (const OperatorDescriptor* descriptor : builtinRegistry().all()) {
        if (!descriptor->isSource()) continue;
        const std::string& type = descriptor->typeName;
        DYNAMIC_SECTION(type) {
            const auto known = recipes().find(type);
            if (known == recipes().end()) FAIL("a new source: give it a recipe (parameters that make it finite) in kRecipes");
            nlohmann::json graph = {{"format", "isochron-graph/1"}, {"nodes", nlohmann::json::array()}, {"edges", nlohmann::json::array()}};
            graph["nodes"].push_back({{"id", "source"}, {"type", type}, {"params", nlohmann::json::parse(known->second.params)}});
            ParamSet resolved;
            for (const ParamSpec& spec : descriptor->params) resolved.set(spec.name, spec.defaultValue);
            const auto outputs = descriptor->resolveOutputs(resolved);
            for (std::size_t o = 0; o < outputs.size(); ++o) {
                graph["nodes"].push_back({{"id", "probe" + std::to_string(o)}, {"type", "test.probe"}, {"params", {{"name", type + "/" + outputs[o].name}, {"keep", false}}}});
                graph["edges"].push_back({{"from", "source." + outputs[o].name}, {"to", "probe" + std::to_string(o) + ".in"}});
            }
            const RunOutcome outcome = runGraph(graph.dump(), "df");
            for (const auto& failure : outcome.failures) FAIL(failure);
            REQUIRE(outcome.completed);
            for (const ResolvedPort& out : outputs) {
                INFO("output " << out.name);
                const Probed& probed = probes()[type + "/" + out.name];
                int finite = 0;
                for (TimeNs t : probed.progress) finite += t > kBeginningOfTime && t < kEndOfTime;
                CHECK(finite >= 2);  // promised as it went, not only at the end
                CHECK(probed.brokenPromises == 0);
            }
        }
    }
    probes().clear();
}
