// Where a graph's localization results leave it, and the io.item_tap nodes the editor adds there
// while it runs (never saved). Two kinds of graph:
//   frame-wise (spatial.source_tracker): the sounds (its `events`), every track every frame (`tracks`,
//     the bearing-time plot's lines), the background's bearings (`background`) and the continuous
//     audio of every mic (the bus into spatial.array_stft), from which a sound's range is cut;
//   per event (spatial.srp_phat / aml_doa / music): the bearings (one input per array, after its
//     bearing tracker when it has one), the audio of each event (the bus into the first array's
//     estimator, i.e. the event cut from every mic), and triangulated positions.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/graph/graph_spec.h"

namespace isochron {
class Engine;
class ItemTapChannel;
}  // namespace isochron

namespace isochron::ui {

/// The localization outputs of a graph: which node outputs carry bearings, positions and event audio. [value type]
struct LocalizationOutputs {
    std::vector<EdgeSpec> bearings;    ///< per array: fromNode/fromPort of its bearing (or sound) events (toNode empty)
    std::vector<EdgeSpec> audio;       ///< the wires into the first array's mic inputs (a bus or one per mic)
    std::vector<EdgeSpec> tracks;      ///< frame-wise: per array, its tracker's every-frame track states
    std::vector<EdgeSpec> background;  ///< frame-wise: per array, its tracker's background bearings
    std::string triangulation;         ///< the spatial.triangulate(_joined) node, or empty
    std::vector<double> arrayPoses;    ///< its array_poses: x (m), y (m), heading (deg) per array
    bool empty() const { return bearings.empty(); }
};

/// The tap nodes added to a running graph (empty ids for what the graph does not have). [value type]
struct LocalizationTapIds {
    std::string bearings, audio, positions, tracks, background;
    /// Every id, empty ones included. [any thread]
    std::vector<std::string> all() const { return {bearings, audio, positions, tracks, background}; }
};

/// The rings of a running engine's localization taps (null for taps the graph has none of). [value type]
struct LocalizationChannels {
    std::shared_ptr<ItemTapChannel> bearings, audio, positions, tracks, background;
};

/// Find the frame-wise trackers (spatial.source_tracker) or else the bearing estimators
/// (spatial.srp_phat, spatial.aml_doa, spatial.music) and what follows them. [any thread]
LocalizationOutputs findLocalizationOutputs(const GraphSpec& spec);

/// Add io.item_tap nodes (ids not in `taken`, which receives them) fed by `outputs` to `spec`. [any thread]
LocalizationTapIds addLocalizationTaps(GraphSpec& spec, const LocalizationOutputs& outputs, std::set<std::string>& taken);

/// The channels of the taps `ids` in `engine` (after it was built, before or while it runs). [any thread]
LocalizationChannels openLocalizationTaps(const Engine& engine, const LocalizationTapIds& ids);

}  // namespace isochron::ui
