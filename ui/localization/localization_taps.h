// Where a graph's localization results leave it, and the io.item_tap nodes the editor adds there
// while it runs (never saved): one for the bearings (one input per array, after its bearing tracker
// when it has one), one for the audio of each event (the bus that feeds the first array's
// estimator, i.e. the event cut from every mic), and one for triangulated positions.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "engine/graph/graph_spec.h"

namespace isochron::ui {

/// The localization outputs of a graph: which node outputs carry bearings, positions and event audio. [value type]
struct LocalizationOutputs {
    std::vector<EdgeSpec> bearings;    ///< per array: fromNode/fromPort of its bearing events (toNode empty)
    std::vector<EdgeSpec> audio;       ///< the wires into the first estimator's mic inputs (a bus or one per mic)
    std::string triangulation;         ///< the spatial.triangulate(_joined) node, or empty
    std::vector<double> arrayPoses;    ///< its array_poses: x (m), y (m), heading (deg) per array
    bool empty() const { return bearings.empty(); }
};

/// The tap nodes added to a running graph (empty ids for what the graph does not have). [value type]
struct LocalizationTapIds {
    std::string bearings, audio, positions;
};

/// Find the bearing estimators (spatial.srp_phat, spatial.aml_doa, spatial.music) and what follows them. [any thread]
LocalizationOutputs findLocalizationOutputs(const GraphSpec& spec);

/// Add io.item_tap nodes (ids not in `taken`, which receives them) fed by `outputs` to `spec`. [any thread]
LocalizationTapIds addLocalizationTaps(GraphSpec& spec, const LocalizationOutputs& outputs, std::set<std::string>& taken);

}  // namespace isochron::ui
