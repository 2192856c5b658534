// Where things sit on a node box, in canvas units. The one source for QML (through the node
// model's roles) and for the wire layer, so wires always meet their ports.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

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

inline constexpr double kCommentLineHeight = 14;  ///< a node's note (11 px italic), per line
inline constexpr int kCommentMaxLines = 3;        ///< NodeView elides after this many

/// Room a node's note takes above it, estimated from its length (6.5 units per character of
/// 11 px text wrapped to the node's width; 0 without a note), so layouts keep it off other nodes.
inline double commentHeight(std::size_t characters) {
    if (characters == 0) return 0;
    const double perLine = (kNodeWidth - 4) / 6.5;
    const int lines = std::min(kCommentMaxLines, static_cast<int>(std::ceil(static_cast<double>(characters) / perLine)));
    return lines * kCommentLineHeight + 4;
}

}  // namespace isochron::ui::geometry
