// Reading a named value from a scalar or event item, the way relational operators address fields.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/items/item.h"

namespace isochron {

/// The value of `field` in `item`: "value" is a scalar's value or an event's score; any other name
/// is an event attribute (absent: nullopt). [any thread] [no allocation]
inline std::optional<double> itemField(const Item& item, std::string_view field) {
    if (field == "value") return item.value();
    if (const EventRecord* record = item.event()) return record->get(field);
    return std::nullopt;
}

/// The names itemField reads in `item`, for messages: "value" then an event's attributes. [allocates]
inline std::string itemFieldNames(const Item& item) {
    std::string names = "value";
    if (const EventRecord* record = item.event()) {
        for (const EventAttribute& attribute : record->attributes()) {
            if (std::string_view(attribute.name) != "value") names += std::string(", ") + attribute.name;  // "value" reads the score
        }
    }
    return names;
}

}  // namespace isochron
