// The attributes of an event item as an archive stores it (docs/archive.md: a row's JSON
// {"kind":"event","label":…,"score":…,"attributes":{name: value, …}}), read as numbers the way the
// live taps read an EventRecord, so that past and live items give the Localization tab the same
// values. No Qt.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace isochron::ui {

/// One archived item's event attributes. [value type]
class ArchivedAttributes {
public:
    /// Parse an item's stored JSON; anything but an event with an attributes object is not an event.
    explicit ArchivedAttributes(const std::string& json);

    /// The item is an event with attributes.
    bool isEvent() const { return isEvent_; }
    /// The event has an attribute `name` (a number, or null for a NaN).
    bool has(const char* name) const;
    /// Attribute `name`: its number, NaN for null (how the archive stores a NaN), else `otherwise`.
    double operator()(const char* name, double otherwise) const;

private:
    nlohmann::json json_;
    bool isEvent_ = false;
};

}  // namespace isochron::ui
