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

namespace {

/// The positions of the mic inputs' channels as geometry JSON, or "" when one is unknown.
std::string carriedGeometry(const std::vector<ResolvedPort>& inputs, const std::vector<ChannelLayout>& channels) {
    std::string mics;
    for (std::size_t i = 0; i < inputs.size() && i < channels.size(); ++i) {
        if (inputs[i].specIndex != 0) continue;
        if (channels[i].empty()) return "";
        for (const ChannelInfo& channel : channels[i]) {
            if (!channel.position) return "";
            char text[96];
            const auto& p = *channel.position;
            std::snprintf(text, sizeof text, "%s[%.17g, %.17g, %.17g]", mics.empty() ? "" : ", ", p[0], p[1], p[2]);
            mics += text;
        }
    }
    return mics.empty() ? "" : "{\"mics\": [" + mics + "]}";
}

/// How many mics the inputs bring when they are signals (one each), or 0 when they are not.
std::size_t signalMicInputs(const std::vector<ResolvedPort>& inputs) {
    std::size_t count = 0;
    for (const ResolvedPort& port : inputs) {
        if (port.specIndex != 0) continue;
        if (port.type.kind != ItemKind::Signal) return 0;
        ++count;
    }
    return count;
}

}  // namespace

void adoptInputGeometry(ParamSet& params, const std::vector<ResolvedPort>& inputs, const std::vector<ChannelLayout>& channels,
                        bool geometryRequired) {
    if (params.getString("geometry").empty()) params.set("geometry", carriedGeometry(inputs, channels));
    const std::string& spec = params.getString("geometry");
    if (spec.empty()) {
        if (!geometryRequired) return;
        throw ParameterError("geometry", "no array geometry given, and the channels reaching the node carry no mic positions: give one "
                                         "here (a preset such as square4:0.2, or a JSON file), or on the source");
    }
    const std::size_t mics = signalMicInputs(inputs);
    if (mics == 0) return;  // frames of the whole array (frame_directions): its own check knows their channels
    ArrayGeometry geometry;
    try {
        geometry = loadGeometry(spec);
    } catch (const std::invalid_argument& e) {
        throw ParameterError("geometry", e.what());
    }
    if (static_cast<std::size_t>(geometry.micCount()) != mics) {
        throw ParameterError("geometry", "geometry " + geometry.origin + " has " + std::to_string(geometry.micCount()) + " mics but the node has " +
                                             std::to_string(mics) + " inputs: give one position per input, in input order");
    }
}

}  // namespace isochron
