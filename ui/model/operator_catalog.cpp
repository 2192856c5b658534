#include "ui/model/operator_catalog.h"

#include <QStringList>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "nodes/register_builtin_nodes.h"

namespace isochron::ui {

OperatorCatalog::OperatorCatalog(QObject* parent) : OperatorCatalog(builtinRegistry(), parent) {}

OperatorCatalog::OperatorCatalog(const OperatorRegistry& registry, QObject* parent) : QAbstractListModel(parent), registry_(registry) {
    refresh();
}

int OperatorCatalog::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(shown_.size()); }

QHash<int, QByteArray> OperatorCatalog::roleNames() const {
    return {{TypeNameRole, "typeName"}, {NameRole, "name"},         {CategoryRole, "category"}, {SummaryRole, "summary"},
            {DocumentationRole, "documentation"}, {OriginRole, "origin"}, {OriginNameRole, "originName"},
            {PortsRole, "ports"}};
}

QVariant OperatorCatalog::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const OperatorDescriptor& d = *shown_[static_cast<std::size_t>(index.row())];
    switch (role) {
        case TypeNameRole: return QString::fromStdString(d.typeName);
        case NameRole: return QString::fromStdString(d.typeName.substr(d.typeName.find('.') + 1)).replace('_', ' ');
        case CategoryRole: return QString::fromStdString(d.category);
        case SummaryRole: return QString::fromStdString(d.summary);
        case DocumentationRole: return QString::fromStdString(d.documentation);
        case OriginRole: return QString::fromStdString(d.origin);
        case OriginNameRole: return d.origin == "built-in" ? QStringLiteral("built-in") : QString::fromStdString(std::filesystem::path(d.origin).filename().string());
        case PortsRole: {
            auto describe = [](const std::vector<PortSpec>& ports) {
                QStringList names;
                for (const PortSpec& p : ports) names.append(QString::fromStdString(p.name + (p.countParam.empty() ? "" : "*")));
                return names.join(", ");
            };
            return QStringLiteral("in: %1   out: %2").arg(describe(d.inputs).isEmpty() ? "-" : describe(d.inputs),
                                                          describe(d.outputs).isEmpty() ? "-" : describe(d.outputs));
        }
        default: return {};
    }
}

void OperatorCatalog::setFilter(const QString& filter) {
    if (filter == filter_) return;
    filter_ = filter;
    refresh();
    Q_EMIT filterChanged();
}

QString OperatorCatalog::typeAt(int row) const {
    if (row < 0 || row >= rowCount()) return {};
    return QString::fromStdString(shown_[static_cast<std::size_t>(row)]->typeName);
}

void OperatorCatalog::refresh() {
    beginResetModel();
    shown_.clear();
    const QStringList words = filter_.split(' ', Qt::SkipEmptyParts);
    std::vector<std::pair<int, const OperatorDescriptor*>> ranked;  // (rank, type)
    for (const OperatorDescriptor* d : registry_.all()) {
        if (!matches(*d, words)) continue;
        const QString name = QString::fromStdString(d->typeName.substr(d->typeName.find('.') + 1)).replace('_', ' ');
        bool inName = true;
        for (const QString& word : words) inName = inName && (word.contains(':') || name.contains(word, Qt::CaseInsensitive));
        const int rank = !ranked_ || words.isEmpty() ? 0 : name.startsWith(words.front(), Qt::CaseInsensitive) ? 0 : inName ? 1 : 2;
        ranked.emplace_back(rank, d);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [rank, d] : ranked) shown_.push_back(d);
    endResetModel();
    Q_EMIT countChanged();
}

namespace {

/// Whether `word` names what a port carries: a type that parses ("signal<f32>") or a kind ("event").
bool namesPortType(const QString& word) {
    const std::string text = word.toLower().toStdString();
    if (text.find('<') != std::string::npos) return PortType::parse(text).has_value();
    for (ItemKind kind : {ItemKind::Signal, ItemKind::Frame, ItemKind::Scalar, ItemKind::TimeRange, ItemKind::Event, ItemKind::Custom}) {
        if (itemKindName(kind) == text) return true;
    }
    return false;
}

bool hasPortCarrying(const OperatorDescriptor& d, const QString& wanted) {
    const auto carries = [&](const PortSpec& port) { return portCarries(port.type, wanted); };
    return std::any_of(d.inputs.begin(), d.inputs.end(), carries) || std::any_of(d.outputs.begin(), d.outputs.end(), carries);
}

}  // namespace

bool OperatorCatalog::matches(const OperatorDescriptor& d, const QStringList& words) const {
    // Not the documentation: its prose names other families ("as spectral.stft does") and would
    // drown a family's name in false matches.
    std::string text = d.typeName + " " + d.category + " " + d.summary;
    for (const ParamSpec& param : d.params) text += " " + param.name;
    const QString written = QString::fromStdString(text);
    const QString haystack = written + " " + QString(written).replace('_', ' ');
    for (const QString& word : words) {
        const qsizetype colon = word.indexOf(':');
        const QString side = colon > 0 ? word.left(colon).toLower() : QString();
        if (side == "in" || side == "out" || side == "port") {
            const QString wanted = word.mid(colon + 1);
            bool found = false;
            if (side != "out") {
                for (const PortSpec& port : d.inputs) found = found || portCarries(port.type, wanted);
            }
            if (side != "in") {
                for (const PortSpec& port : d.outputs) found = found || portCarries(port.type, wanted);
            }
            if (!found) return false;
        } else if (!haystack.contains(word, Qt::CaseInsensitive) && !(namesPortType(word) && hasPortCarrying(d, word))) {
            return false;
        }
    }
    return true;
}

bool portCarries(const PortType& port, const QString& wanted) {
    const std::string text = wanted.toLower().toStdString();
    if (text.empty()) return true;
    if (text.find('<') != std::string::npos) {
        const std::optional<PortType> type = PortType::parse(text);
        return type && (port.accepts(*type) || type->accepts(port));
    }
    if (text == "any") return !port.kind.has_value();
    return port.kind.has_value() && itemKindName(*port.kind) == text;
}

}  // namespace isochron::ui
