// Parameters as the inspector and scheduler chooser see them, and values typed there checked
// with the engine's own parameter rules.
#pragma once

#include <QVariantMap>

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/operators/parameter.h"

namespace isochron::ui {

/// A value from an editor: text is parsed as on the command line ("512", "1,2,3", "true"), other
/// values converted as JSON; then validated. On failure nullopt and `why` says what is wrong.
std::optional<ParamValue> parameterFromVariant(const ParamSpec& spec, const QVariant& value, std::string& why);

/// What a typed editor needs: name, kind, value, text, defaultValue, isDefault, minimum, maximum
/// (null when unbounded), unit, doc, choices, live. `written` is the value in the file, or null.
QVariantMap parameterView(const ParamSpec& spec, const nlohmann::json* written);

}  // namespace isochron::ui
