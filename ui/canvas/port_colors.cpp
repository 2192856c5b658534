#include "ui/canvas/port_colors.h"

namespace isochron::ui {

QColor portTypeColor(std::string_view type) {
    auto starts = [&](std::string_view prefix) { return type.substr(0, prefix.size()) == prefix; };
    // Signals are blues and greens by sample type; other kinds have their own hue.
    if (type == "signal<f32>") return QColor(0x3b, 0x82, 0xf6);
    if (type == "signal<f64>") return QColor(0x63, 0x66, 0xf1);
    if (type == "signal<i16>") return QColor(0x14, 0xb8, 0xa6);
    if (type == "signal<c32>") return QColor(0xa8, 0x55, 0xf7);
    if (starts("signal")) return QColor(0x60, 0xa5, 0xfa);
    if (starts("frame")) return QColor(0xf9, 0x73, 0x16);
    if (type == "scalar") return QColor(0x22, 0xc5, 0x5e);
    if (type == "time_range") return QColor(0xea, 0xb3, 0x08);
    if (type == "event") return QColor(0xec, 0x48, 0x99);
    return QColor(0x94, 0xa3, 0xb8);
}

}  // namespace isochron::ui
