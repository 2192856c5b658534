// The operator the editor adds at the end of a probed wire while a graph runs (never saved in the
// file): it copies the values flowing through into the probe's lock-free ring.
#pragma once

#include "engine/operators/registry.h"

namespace isochron::ui {

/// Type name of the probe operator ("editor.probe", category "editor", hidden from the palette).
inline constexpr const char* kProbeType = "editor.probe";

/// Register the probe operator once (later calls do nothing). [setup thread]
void registerProbeOperator(OperatorRegistry& registry);

}  // namespace isochron::ui
