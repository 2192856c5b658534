#include "ui/model/json_variant.h"

#include <QJSValue>
#include <QVariantList>
#include <QVariantMap>

namespace isochron::ui {

QVariant jsonToVariant(const nlohmann::json& value) {
    switch (value.type()) {
        case nlohmann::json::value_t::boolean: return value.get<bool>();
        case nlohmann::json::value_t::number_integer: return QVariant::fromValue<qlonglong>(value.get<std::int64_t>());
        case nlohmann::json::value_t::number_unsigned: return QVariant::fromValue<qulonglong>(value.get<std::uint64_t>());
        case nlohmann::json::value_t::number_float: return value.get<double>();
        case nlohmann::json::value_t::string: return QString::fromStdString(value.get<std::string>());
        case nlohmann::json::value_t::array: {
            QVariantList list;
            for (const auto& element : value) list.append(jsonToVariant(element));
            return list;
        }
        case nlohmann::json::value_t::object: {
            QVariantMap map;
            for (const auto& [key, element] : value.items()) map.insert(QString::fromStdString(key), jsonToVariant(element));
            return map;
        }
        default: return {};
    }
}

nlohmann::json variantToJson(const QVariant& input) {
    QVariant value = input;
    if (value.canConvert<QJSValue>() && value.metaType().id() == qMetaTypeId<QJSValue>()) {
        value = value.value<QJSValue>().toVariant();
    }
    switch (value.metaType().id()) {
        case QMetaType::UnknownType:
        case QMetaType::Nullptr: return nullptr;
        case QMetaType::Bool: return value.toBool();
        case QMetaType::Int:
        case QMetaType::LongLong:
        case QMetaType::Short:
        case QMetaType::Long: return value.toLongLong();
        case QMetaType::UInt:
        case QMetaType::ULongLong:
        case QMetaType::UShort:
        case QMetaType::ULong: return value.toULongLong();
        case QMetaType::Double:
        case QMetaType::Float: return value.toDouble();
        case QMetaType::QString: return value.toString().toStdString();
        case QMetaType::QVariantList:
        case QMetaType::QStringList: {
            nlohmann::json list = nlohmann::json::array();
            for (const QVariant& element : value.toList()) list.push_back(variantToJson(element));
            return list;
        }
        case QMetaType::QVariantMap: {
            nlohmann::json object = nlohmann::json::object();
            const QVariantMap map = value.toMap();
            for (auto it = map.begin(); it != map.end(); ++it) object[it.key().toStdString()] = variantToJson(it.value());
            return object;
        }
        default:
            if (value.canConvert<QVariantList>()) return variantToJson(value.toList());
            if (value.canConvert<QString>()) return value.toString().toStdString();
            return nullptr;
    }
}

}  // namespace isochron::ui
