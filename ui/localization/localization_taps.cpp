#include "ui/localization/localization_taps.h"

#include <algorithm>

#include "engine/graph/subgraph.h"
#include "engine/runtime/engine.h"
#include "nodes/io/item_tap.h"
#include "ui/model/graph_fragment.h"

namespace isochron::ui {
namespace {

constexpr int kBearingCapacity = 4096;  // events; the ui drains 30 times a second
constexpr int kAudioCapacity = 4096;    // one item per mic per event, or per block of continuous audio
constexpr int kTrackCapacity = 16384;   // track states: a few per frame, about 100 frames a second

bool isEstimator(const std::string& type) {
    return type == "spatial.srp_phat" || type == "spatial.aml_doa" || type == "spatial.music";
}

bool startsWith(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

/// The frame-wise pipeline: each spatial.source_tracker is an array; the first array's audio is the
/// bus into the graph's spatial.array_stft (a graph with several arrays has one per array: the first).
LocalizationOutputs findFrameWiseOutputs(const GraphSpec& spec) {
    LocalizationOutputs found;
    for (const NodeSpec& node : spec.nodes) {
        if (node.type != "spatial.source_tracker") continue;
        found.bearings.push_back({node.id, "events", "", ""});
        found.tracks.push_back({node.id, "tracks", "", ""});
        found.background.push_back({node.id, "background", "", ""});
    }
    if (found.bearings.empty()) return found;
    for (const NodeSpec& node : spec.nodes) {
        if (node.type != "spatial.array_stft") continue;
        for (const EdgeSpec& edge : spec.edges) {
            if (edge.toNode == node.id && startsWith(edge.toPort, "in")) found.audio.push_back(edge);
        }
        break;
    }
    return found;
}

}  // namespace

LocalizationOutputs findLocalizationOutputs(const GraphSpec& spec) {
    LocalizationOutputs found = findFrameWiseOutputs(spec);
    if (!found.empty()) return found;
    for (const NodeSpec& node : spec.nodes) {
        const bool triangulates = node.type == "spatial.triangulate" || node.type == "spatial.triangulate_joined";
        if (triangulates && found.triangulation.empty()) {
            found.triangulation = node.id;
            const auto poses = node.params.find("array_poses");
            if (poses != node.params.end() && poses->second.is_array()) {
                for (const auto& value : poses->second) {
                    if (value.is_number()) found.arrayPoses.push_back(value.get<double>());
                }
            }
        }
        if (!isEstimator(node.type)) continue;
        EdgeSpec bearings{node.id, "bearings", "", ""};
        for (const EdgeSpec& edge : spec.edges) {
            const NodeSpec* next = edge.fromNode == node.id ? spec.findNode(edge.toNode) : nullptr;
            if (next && next->type == "spatial.bearing_tracker") bearings = {next->id, "tracks", "", ""};  // the same bearings with a track id
        }
        found.bearings.push_back(bearings);
        if (found.bearings.size() > 1) continue;
        for (const EdgeSpec& edge : spec.edges) {
            if (edge.toNode == node.id && startsWith(edge.toPort, "in")) found.audio.push_back(edge);
        }
    }
    if (found.bearings.empty() && !found.triangulation.empty()) {
        // Arrays packaged as parts (fusion-two-arrays: each array a subgraph node) show only the
        // outputs they expose: their `bearings`, one input each, in the order the graph lists them.
        for (const NodeSpec& node : spec.nodes) {
            if (!isSubgraphNode(node)) continue;
            const bool exposesBearings = std::any_of(spec.edges.begin(), spec.edges.end(),
                                                     [&](const EdgeSpec& e) { return e.fromNode == node.id && e.fromPort == "bearings"; });
            if (exposesBearings) found.bearings.push_back({node.id, "bearings", "", ""});
        }
    }
    return found;
}

LocalizationTapIds addLocalizationTaps(GraphSpec& spec, const LocalizationOutputs& outputs, std::set<std::string>& taken) {
    LocalizationTapIds ids;
    auto addTap = [&](const std::string& base, int inputs, int capacity) {
        NodeSpec tap;
        tap.id = uniqueNodeId(base, taken);
        tap.type = "io.item_tap";
        tap.params = {{"inputs", inputs}, {"capacity", capacity}};
        taken.insert(tap.id);
        spec.nodes.push_back(tap);
        return tap.id;
    };
    if (outputs.empty()) return ids;
    ids.bearings = addTap("editor_bearings", static_cast<int>(outputs.bearings.size()), kBearingCapacity);
    for (std::size_t i = 0; i < outputs.bearings.size(); ++i) {
        spec.edges.push_back({outputs.bearings[i].fromNode, outputs.bearings[i].fromPort, ids.bearings, "in" + std::to_string(i)});
    }
    const bool bus = outputs.audio.size() == 1 && outputs.audio.front().toPort.ends_with('*');
    if (!outputs.audio.empty()) {
        ids.audio = addTap("editor_event_audio", bus ? 0 : static_cast<int>(outputs.audio.size()), kAudioCapacity);
        for (const EdgeSpec& wire : outputs.audio) {
            spec.edges.push_back({wire.fromNode, wire.fromPort, ids.audio, bus ? "in*" : wire.toPort});  // mic k stays on in<k>
        }
    }
    if (!outputs.triangulation.empty()) {
        ids.positions = addTap("editor_positions", 1, kBearingCapacity);
        spec.edges.push_back({outputs.triangulation, "positions", ids.positions, "in0"});
    }
    auto tapEach = [&](const std::vector<EdgeSpec>& sources, const std::string& base, int capacity) {
        if (sources.empty()) return std::string();
        const std::string id = addTap(base, static_cast<int>(sources.size()), capacity);
        for (std::size_t i = 0; i < sources.size(); ++i) spec.edges.push_back({sources[i].fromNode, sources[i].fromPort, id, "in" + std::to_string(i)});
        return id;
    };
    ids.tracks = tapEach(outputs.tracks, "editor_tracks", kTrackCapacity);
    ids.background = tapEach(outputs.background, "editor_background", kBearingCapacity);
    return ids;
}

LocalizationChannels openLocalizationTaps(const Engine& engine, const LocalizationTapIds& ids) {
    auto channel = [&](const std::string& id) -> std::shared_ptr<ItemTapChannel> {
        NodeContext* node = id.empty() ? nullptr : engine.findNode(id);
        auto* tap = node ? dynamic_cast<ItemTap*>(node->op.get()) : nullptr;
        return tap ? tap->channel() : nullptr;
    };
    return {channel(ids.bearings), channel(ids.audio), channel(ids.positions), channel(ids.tracks), channel(ids.background)};
}

}  // namespace isochron::ui
