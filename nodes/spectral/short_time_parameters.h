// The parameters the short-time operators share (stft, istft, spectrogram), so that matching nodes
// are set up alike and described alike.
#pragma once

#include <vector>

#include "engine/operators/parameter.h"
#include "nodes/spectral/fft_plan_cache.h"
#include "nodes/spectral/window_functions.h"

namespace isochron {

/// size (samples), hop (samples), window, plan_effort, with `defaultWindow` as the window's default. [setup]
std::vector<ParamSpec> shortTimeParameters(const char* defaultWindow);

/// The settings read back from a node's parameters. [value type]
struct ShortTimeSettings {
    std::int64_t size = 0;
    std::int64_t hop = 0;
    WindowShape window = WindowShape::Hann;
    PlanEffort effort = PlanEffort::Estimate;
};

/// The settings in `params`; throws std::invalid_argument when hop > size. [setup]
ShortTimeSettings readShortTimeSettings(const ParamSet& params);

/// The descriptors' deriveParams: the same checks at validation (--check, the editor), not first
/// when the node starts. [setup]
void checkShortTimeSettings(ParamSet& params);

}  // namespace isochron
