// What the graph knows about the channels a wire carries: a label per channel ("mic 2", "left") and,
// for a sensor, where it sits. Layouts are worked out once, at validation, from the sources along the
// edges (see OperatorDescriptor::channelsOut), so a channel selected, filtered, merged or split keeps
// its label and its microphone's position, and an array operator downstream can take its geometry from
// what flows in instead of a second copy the user must keep in the channels' order.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace isochron {

/// One channel as the graph knows it. [value type]
struct ChannelInfo {
    std::string label;                              ///< e.g. "mic 2"; empty = unknown
    std::optional<std::array<double, 3>> position;  ///< metres in the array's frame; none = not a placed sensor

    bool operator==(const ChannelInfo&) const = default;
};

/// The channels one wire carries, in order (one for an ordinary signal, several for interleaved frames
/// or an array's spectra). Empty = unknown. [value type]
using ChannelLayout = std::vector<ChannelInfo>;

/// `inputs` one after another, an unknown input counting as one unknown channel: what an operator
/// carries when it packs single-channel inputs into one wire (interleaving, an array's spectra). [may allocate]
ChannelLayout concatenateChannels(const std::vector<ChannelLayout>& inputs);

class ParamSet;

/// Output k carries what input k carries (outputs beyond the inputs are unknown): filters, gains,
/// meters, resamplers. Usable as OperatorDescriptor::channelsOut. [may allocate]
std::vector<ChannelLayout> channelsPortToPort(const ParamSet& params, const std::vector<ChannelLayout>& inputs, std::size_t outputs);

/// "label (x, y, z m)" or "label", for messages and tooltips; "unknown" for an unknown channel. [may allocate]
std::string describeChannel(const ChannelInfo& channel);
/// Every channel of `layout` described as describeChannel() does, joined by ", ". [may allocate]
std::string describeLayout(const ChannelLayout& layout);

}  // namespace isochron
