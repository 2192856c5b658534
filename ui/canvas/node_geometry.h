// Where things sit on a node box, in canvas units. The one source for QML (through the node
// model's roles) and for the wire layer, so wires always meet their ports.
#pragma once

#include <algorithm>

namespace isochron::ui::geometry {

inline constexpr double kNodeWidth = 184;
inline constexpr double kHeaderHeight = 30;  ///< title bar
inline constexpr double kPortRowHeight = 22;
inline constexpr double kFooterHeight = 10;
inline constexpr double kGridStep = 20;  ///< snap-to-grid spacing

/// Height of a node with this many input and output ports.
inline double nodeHeight(int inputs, int outputs) {
    return kHeaderHeight + kPortRowHeight * std::max({inputs, outputs, 1}) + kFooterHeight;
}

/// Vertical offset of port `index`'s centre from the node's top edge (inputs and outputs alike).
inline double portOffsetY(int index) { return kHeaderHeight + kPortRowHeight * (index + 0.5); }

}  // namespace isochron::ui::geometry
