#include "ui/model/parameter_views.h"

#include <QStringList>

#include "ui/model/json_variant.h"

namespace isochron::ui {

std::optional<ParamValue> parameterFromVariant(const ParamSpec& spec, const QVariant& value, std::string& why) {
    if (value.metaType().id() == QMetaType::QString) return spec.parseText(value.toString().toStdString(), why);
    return spec.fromJson(variantToJson(value), why);
}

QVariantMap parameterView(const ParamSpec& spec, const nlohmann::json* written) {
    const nlohmann::json defaultJson = paramValueToJson(spec.defaultValue);
    const nlohmann::json& current = written ? *written : defaultJson;
    std::string ignored;
    auto parsed = spec.fromJson(current, ignored);
    QStringList choices;
    for (const std::string& c : spec.choices) choices.append(QString::fromStdString(c));
    return {{"name", QString::fromStdString(spec.name)},
            {"kind", QString::fromUtf8(paramKindName(spec.kind).data(), static_cast<qsizetype>(paramKindName(spec.kind).size()))},
            {"value", jsonToVariant(current)},
            {"text", QString::fromStdString(parsed ? paramValueToText(*parsed) : current.dump())},
            {"defaultValue", jsonToVariant(defaultJson)},
            {"defaultText", QString::fromStdString(paramValueToText(spec.defaultValue))},
            {"isDefault", written == nullptr},
            {"minimum", spec.minimum ? QVariant(*spec.minimum) : QVariant()},
            {"maximum", spec.maximum ? QVariant(*spec.maximum) : QVariant()},
            {"unit", QString::fromStdString(spec.unit)},
            {"doc", QString::fromStdString(spec.doc)},
            {"choices", choices},
            {"live", spec.live},
            {"problem", QString()}};
}

}  // namespace isochron::ui
