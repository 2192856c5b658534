#include "ui/localization/archived_attributes.h"

#include <limits>

namespace isochron::ui {

ArchivedAttributes::ArchivedAttributes(const std::string& json) : json_(nlohmann::json::parse(json, nullptr, false)) {
    // Compared as JSON: a "kind" that is not a string is no event (value() would throw).
    isEvent_ = json_.is_object() && json_.contains("kind") && json_["kind"] == "event" && json_.contains("attributes") &&
               json_["attributes"].is_object();
}

bool ArchivedAttributes::has(const char* name) const { return isEvent_ && json_["attributes"].contains(name); }

double ArchivedAttributes::operator()(const char* name, double otherwise) const {
    if (!isEvent_) return otherwise;
    const nlohmann::json& attributes = json_["attributes"];
    const auto found = attributes.find(name);
    if (found == attributes.end()) return otherwise;
    if (found->is_null()) return std::numeric_limits<double>::quiet_NaN();
    return found->is_number() ? found->get<double>() : otherwise;
}

}  // namespace isochron::ui
