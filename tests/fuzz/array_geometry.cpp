// Fuzz target: microphone array geometry, as a JSON file ({"mics": [[x, y, z], ...]}) or a preset
// spelling ("circular6:0.05"), then used by a direction estimator on one event.
//
// Input: the geometry text (JSON when it starts with '{' or whitespace, else a preset). Properties:
// a refused geometry is an std::invalid_argument with a message; an accepted one has at least two
// distinct mics, finite coordinates and a finite aperture, and (up to 8 mics) spatial.srp_phat,
// spatial.aml_doa and spatial.music (picked by the input's length) run on one event of noise with it
// and emit one bearing (MUSIC: at most one per expected source), or refuse it with an error that
// names the geometry file (an array too wide for the estimator's block).
#include <cmath>
#include <string>

#include "engine/graph/graph_file.h"
#include "nodes/spatial/array_geometry.h"
#include "tests/fuzz/fuzz_support.h"

using namespace isochron;

namespace {

constexpr int kMaxMicsRun = 8;  // bounds the time per input (the estimators' cost grows with the pairs)
constexpr int kEventSamples = 512;

ArrayGeometry parse(std::string_view text) {
    if (!text.empty() && (text.front() == '{' || std::isspace(static_cast<unsigned char>(text.front())))) {
        return parseGeometryJson(text, "fuzz input");
    }
    return presetGeometry(text);
}

/// `mics` noise channels of one event each into the estimator `type`, its bearings into a sink.
GraphSpec estimatorGraph(const std::string& type, int mics, const std::filesystem::path& geometry) {
    nlohmann::json nodes = nlohmann::json::array(), edges = nlohmann::json::array();
    for (int m = 0; m < mics; ++m) {
        const std::string id = "mic" + std::to_string(m);
        nodes.push_back({{"id", id}, {"type", "generators.signal_generator"},
                         {"params", {{"waveform", "noise"}, {"rate", 16000.0}, {"seed", m + 1}, {"block", kEventSamples},
                                     {"duration", kEventSamples / 16000.0}}}});
        edges.push_back({{"from", id + ".out"}, {"to", "estimator.in" + std::to_string(m)}});
    }
    nodes.push_back({{"id", "estimator"}, {"type", type},
                     {"params", {{"channels", mics}, {"geometry", geometry.string()}, {"block", 256}, {"azimuth_step_deg", 10.0}}}});
    nodes.push_back({{"id", "out"}, {"type", "io.null_sink"}});
    edges.push_back({{"from", "estimator.bearings"}, {"to", "out.in"}});
    return parseGraph(nlohmann::json{{"format", kGraphFormat}, {"nodes", nodes}, {"edges", edges}}.dump());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    ArrayGeometry geometry;
    try {
        geometry = parse(text);
    } catch (const std::invalid_argument& e) {
        fuzz::require(std::string_view(e.what()).size() > 0, "a refused geometry without a message");
        return 0;
    }
    fuzz::require(geometry.micCount() >= 2, "an accepted geometry with fewer than two mics");
    for (const auto& mic : geometry.mics) fuzz::require(mic.allFinite(), "an accepted geometry with a coordinate that is not finite");
    const double aperture = geometry.aperture();
    fuzz::require(std::isfinite(aperture) && aperture > 0, "an accepted geometry whose aperture is not a positive finite distance");
    if (geometry.micCount() > kMaxMicsRun) return 0;

    nlohmann::json file = {{"mics", nlohmann::json::array()}};
    for (const auto& mic : geometry.mics) file["mics"].push_back({mic.x(), mic.y(), mic.z()});
    const std::filesystem::path path = fuzz::scratchDirectory() / "array.geometry.json";
    fuzz::writeFile(path, file.dump());
    const char* estimators[] = {"spatial.srp_phat", "spatial.aml_doa", "spatial.music"};
    const std::string type = estimators[size % 3];
    const fuzz::GraphRun run = fuzz::runGraph(estimatorGraph(type, geometry.micCount(), path));
    if (!run.error.empty()) {
        // A geometry too wide for the estimator's block is refused, naming the geometry.
        fuzz::require(run.error.find(path.string()) != std::string::npos, "an accepted geometry failed in " + type + ": " + run.error);
        return 0;
    }
    const std::uint64_t bearings = run.itemsIn.at("out");
    if (type == "spatial.music") fuzz::require(bearings <= 1, "MUSIC found more bearings than sources");
    else fuzz::require(bearings == 1, type + " did not give one bearing for one event");
    return 0;
}
