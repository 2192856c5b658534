// Conversions between the graph file's JSON values and the QVariants QML reads and writes.
#pragma once

#include <QVariant>

#include <nlohmann/json.hpp>

namespace isochron::ui {

/// A JSON value as a QVariant (objects become QVariantMap, arrays QVariantList). [any thread]
QVariant jsonToVariant(const nlohmann::json& value);
/// A QVariant from QML as JSON. Whole doubles stay doubles; QML integers become JSON integers. [any thread]
nlohmann::json variantToJson(const QVariant& value);

}  // namespace isochron::ui
