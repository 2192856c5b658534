#include "engine/items/item.h"

namespace isochron {

std::string_view itemKindName(ItemKind kind) {
    switch (kind) {
        case ItemKind::Signal: return "signal";
        case ItemKind::Frame: return "frame";
        case ItemKind::Scalar: return "scalar";
        case ItemKind::TimeRange: return "time_range";
        case ItemKind::Event: return "event";
        case ItemKind::Progress: return "progress";
        case ItemKind::Custom: return "custom";
    }
    return "unknown";
}

}  // namespace isochron
