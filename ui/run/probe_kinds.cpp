#include "ui/run/probe_kinds.h"

#include <algorithm>

namespace isochron::ui {

const std::vector<ProbeKind>& probeKinds() {
    static const std::vector<ProbeKind> kinds = {
        {"scope", "Scope", "ScopeView", {"signal<f32>", "frame<f32>", "scalar"}, "signal<f32>, frame<f32> or scalar wires"},
        {"spectrum", "Spectrum", "SpectrumView", {"signal<f32>"}, "signal<f32> wires"},
        {"waterfall", "Waterfall", "WaterfallView", {"signal<f32>"}, "signal<f32> wires"},
        {"level", "Level meter", "LevelMeterView", {"signal<f32>"}, "signal<f32> wires"},
    };
    return kinds;
}

const ProbeKind* findProbeKind(const QString& name) {
    const auto& kinds = probeKinds();
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const ProbeKind& k) { return k.name == name; });
    return it == kinds.end() ? nullptr : &*it;
}

}  // namespace isochron::ui
