#include "ui/model/problem_list_model.h"

#include <QStringList>

namespace isochron::ui {

ProblemListModel::ProblemListModel(ResolutionCache& resolution, QObject* parent)
    : QAbstractListModel(parent), resolution_(resolution) {
    connect(&resolution, &ResolutionCache::updated, this, [this] {
        beginResetModel();
        problems_ = resolution_.current().problems();
        warnings_ = resolution_.current().warnings();
        finishReset();
    });
}

int ProblemListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

QHash<int, QByteArray> ProblemListModel::roleNames() const {
    return {{NodeRole, "node"}, {PortRole, "port"}, {FieldRole, "field"}, {MessageRole, "message"},
            {TextRole, "text"}, {SourceRole, "source"}, {SeverityRole, "severity"}};
}

QVariant ProblemListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    const GraphError* e = row.problem;
    switch (role) {
        case NodeRole: return QString::fromStdString(e->node);
        case PortRole: return QString::fromStdString(e->port);
        case FieldRole: return QString::fromStdString(e->field);
        case MessageRole: return QString::fromStdString(e->message);
        case TextRole: return QString::fromStdString(e->toString());
        case SourceRole: return row.source;
        case SeverityRole: return row.warning ? QStringLiteral("warning") : QStringLiteral("error");
        default: return {};
    }
}

QString ProblemListModel::summary() const {
    QStringList parts;
    if (const int errors = errorCount(); errors > 0) parts.append(errors == 1 ? tr("1 problem") : tr("%1 problems").arg(errors));
    if (const int warnings = warningCount(); warnings > 0) parts.append(warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings));
    return parts.join(", ");
}

void ProblemListModel::setProblems(const QString& source, std::vector<GraphError> problems) {
    auto it = reported_.find(source);
    if (problems.empty() && it == reported_.end()) return;
    beginResetModel();
    if (problems.empty()) reported_.erase(it);
    else reported_[source] = std::move(problems);
    finishReset();
}

const std::vector<GraphError>& ProblemListModel::problemsOf(const QString& source) const {
    static const std::vector<GraphError> none;
    auto it = reported_.find(source);
    return it == reported_.end() ? none : it->second;
}

// Called between beginResetModel() and the end of the reset: the rows point into the lists.
void ProblemListModel::finishReset() {
    rows_.clear();
    for (const GraphError& e : problems_) rows_.push_back({QString(), false, &e});
    for (const GraphError& e : warnings_) rows_.push_back({QString(), true, &e});
    for (const auto& [source, problems] : reported_) {
        for (const GraphError& e : problems) rows_.push_back({source, false, &e});
    }
    endResetModel();
    Q_EMIT countChanged();
}

}  // namespace isochron::ui
