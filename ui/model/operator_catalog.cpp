#include "ui/model/operator_catalog.h"

#include <QStringList>

#include <algorithm>
#include <filesystem>

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
    std::vector<std::pair<int, const OperatorDescriptor*>> matches;  // (rank, type)
    for (const OperatorDescriptor* d : registry_.all()) {
        const QString written = QString::fromStdString(d->typeName + " " + d->category + " " + d->summary);
        const QString haystack = written + " " + QString(written).replace('_', ' ');
        bool matching = true;
        for (const QString& word : words) matching = matching && haystack.contains(word, Qt::CaseInsensitive);
        if (!matching) continue;
        const QString name = QString::fromStdString(d->typeName.substr(d->typeName.find('.') + 1)).replace('_', ' ');
        bool inName = true;
        for (const QString& word : words) inName = inName && name.contains(word, Qt::CaseInsensitive);
        const int rank = !ranked_ || words.isEmpty() ? 0 : name.startsWith(words.front(), Qt::CaseInsensitive) ? 0 : inName ? 1 : 2;
        matches.emplace_back(rank, d);
    }
    std::stable_sort(matches.begin(), matches.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [rank, d] : matches) shown_.push_back(d);
    endResetModel();
    Q_EMIT countChanged();
}

}  // namespace isochron::ui
