// Array geometry carried by the channels: a source places its channels from a geometry, and an array
// operator given no geometry takes the positions its mic inputs carry (engine/operators/channel_layout.h).
#pragma once

#include <string>
#include <vector>

#include "engine/operators/descriptor.h"

namespace isochron {

/// The `geometry` parameter of a source with one output per channel. [setup]
ParamSpec sourceGeometryParameter();

/// OperatorDescriptor::channelsOut of such a source: output k is labelled "ch k", and placed at mic k
/// of the `geometry` parameter when one is given, which must then place exactly `outputs` mics (else
/// ParameterError on "geometry"). [setup thread]
std::vector<ChannelLayout> placedSourceChannels(const ParamSet& params, const std::vector<ChannelLayout>& inputs, std::size_t outputs);

/// OperatorDescriptor::adoptChannels of an array operator (its mic inputs are its first port group):
/// when `geometry` is empty and every channel of those inputs carries a position, `geometry` becomes
/// those positions in input order (the JSON loadGeometry reads). Then checks, so that `--check` and the
/// editor report it before anything starts: with `geometryRequired`, that there is a geometry; when the
/// mic inputs are signals (one mic each), that it places one mic per input. Throws ParameterError on
/// "geometry". [setup thread]
void adoptInputGeometry(ParamSet& params, const std::vector<ResolvedPort>& inputs, const std::vector<ChannelLayout>& channels,
                        bool geometryRequired);

}  // namespace isochron
