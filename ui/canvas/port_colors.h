// The colour of a port and its wires, by port type, so a type reads the same everywhere.
#pragma once

#include <QColor>

#include <string_view>

namespace isochron::ui {

/// Colour for a port type as the validator spells it ("signal<f32>", "scalar", "any", ...). [any thread]
QColor portTypeColor(std::string_view type);

}  // namespace isochron::ui
