#include "nodes/spatial/channel_geometry.h"

#include <cstdio>
#include <stdexcept>

#include "nodes/spatial/array_geometry.h"

namespace isochron {

ParamSpec sourceGeometryParameter() {
    return ParamSpec{"geometry", ParamKind::Path, std::string(), {}, {}, "",
                     "where the channels' mics are: a JSON file {\"mics\": [[x, y, z], ...]} in metres or a preset such as square4:0.2, "
                     "one mic per output; the positions follow the channels downstream, so an array operator there needs no geometry "
                     "of its own. Empty = not an array"};
}

std::vector<ChannelLayout> placedSourceChannels(const ParamSet& params, const std::vector<ChannelLayout>&, std::size_t outputs) {
    std::vector<ChannelLayout> channels(outputs);
    for (std::size_t k = 0; k < outputs; ++k) channels[k] = {ChannelInfo{"ch " + std::to_string(k), std::nullopt}};
    const std::string& spec = params.getString("geometry");
    if (spec.empty()) return channels;
    ArrayGeometry geometry;
    try {
        geometry = loadGeometry(spec);
    } catch (const std::invalid_argument& e) {
        throw ParameterError("geometry", e.what());
    }
    if (static_cast<std::size_t>(geometry.micCount()) != outputs) {
        throw ParameterError("geometry", geometry.origin + " places " + std::to_string(geometry.micCount()) + " mics but the node has " +
                                             std::to_string(outputs) + " channels: give one position per channel, in channel order");
    }
    for (std::size_t k = 0; k < outputs; ++k) {
        const Eigen::Vector3d& p = geometry.mics[k];
        channels[k][0].position = std::array<double, 3>{p.x(), p.y(), p.z()};
    }
    return channels;
}

void adoptInputGeometry(ParamSet& params, const std::vector<ResolvedPort>& inputs, const std::vector<ChannelLayout>& channels) {
    if (!params.getString("geometry").empty()) return;
    std::string mics;
    for (std::size_t i = 0; i < inputs.size() && i < channels.size(); ++i) {
        if (inputs[i].specIndex != 0) continue;
        if (channels[i].empty()) return;
        for (const ChannelInfo& channel : channels[i]) {
            if (!channel.position) return;
            char text[96];
            const auto& p = *channel.position;
            std::snprintf(text, sizeof text, "%s[%.17g, %.17g, %.17g]", mics.empty() ? "" : ", ", p[0], p[1], p[2]);
            mics += text;
        }
    }
    if (mics.empty()) return;
    const std::string geometry = "{\"mics\": [" + mics + "]}";
    try {
        loadGeometry(geometry);
    } catch (const std::invalid_argument& e) {
        throw ParameterError("geometry", e.what());
    }
    params.set("geometry", geometry);
}

}  // namespace isochron
