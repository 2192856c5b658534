#include "nodes/spectral/short_time_parameters.h"

#include <stdexcept>
#include <string>

namespace isochron {

std::vector<ParamSpec> shortTimeParameters(const char* defaultWindow) {
    return {
        ParamSpec{"size", ParamKind::Int, std::int64_t{1024}, 2.0, 1048576.0, "samples", "frame length N (the FFT size)"},
        ParamSpec{"hop", ParamKind::Int, std::int64_t{512}, 1.0, 1048576.0, "samples",
                  "distance between frame starts, at most size (size - hop samples overlap)"},
        ParamSpec{"window", ParamKind::Choice, std::string(defaultWindow), {}, {}, "",
                  "analysis taper (periodic form) applied to each frame", windowShapeNames()},
        ParamSpec{"plan_effort", ParamKind::Choice, std::string("estimate"), {}, {}, "",
                  "FFTW planning: estimate (instant) or measure (slower start, faster transforms)", {"estimate", "measure"}},
    };
}

ShortTimeSettings readShortTimeSettings(const ParamSet& params) {
    ShortTimeSettings settings;
    settings.size = params.getInt("size");
    settings.hop = params.getInt("hop");
    settings.window = windowShapeFromName(params.getString("window")).value_or(WindowShape::Hann);
    settings.effort = params.getString("plan_effort") == "measure" ? PlanEffort::Measure : PlanEffort::Estimate;
    if (settings.hop > settings.size) {
        throw std::invalid_argument("hop " + std::to_string(settings.hop) + " is longer than the frame size " +
                                    std::to_string(settings.size) + " (samples between frames would be lost)");
    }
    return settings;
}

void checkShortTimeSettings(ParamSet& params) { readShortTimeSettings(params); }

}  // namespace isochron
