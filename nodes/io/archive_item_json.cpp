#include "nodes/io/archive_item_json.h"

#include <nlohmann/json.hpp>

#include "engine/items/event_record.h"

namespace isochron {

bool archivePersists(const Item& item) { return item.kind() != ItemKind::Event || item.event()->get("persist") != 0.0; }

std::string archivedItemJson(const Item& item) {
    nlohmann::ordered_json json;
    if (item.kind() == ItemKind::Scalar) {
        json["kind"] = "scalar";
        json["value"] = item.value();
    } else {
        json["kind"] = "event";
        json["label"] = item.event()->label();
        json["score"] = item.value();
        nlohmann::ordered_json attributes = nlohmann::ordered_json::object();
        for (const EventAttribute& attribute : item.event()->attributes()) attributes[attribute.name] = attribute.value;
        json["attributes"] = std::move(attributes);
    }
    return json.dump();
}

}  // namespace isochron
