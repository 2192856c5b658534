#include "ui/model/problem_list_model.h"

namespace isochron::ui {

ProblemListModel::ProblemListModel(ResolutionCache& resolution, QObject* parent)
    : QAbstractListModel(parent), resolution_(resolution) {
    connect(&resolution, &ResolutionCache::updated, this, &ProblemListModel::refresh);
}

int ProblemListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(problems_.size());
}

QHash<int, QByteArray> ProblemListModel::roleNames() const {
    return {{NodeRole, "node"}, {PortRole, "port"}, {FieldRole, "field"}, {MessageRole, "message"}, {TextRole, "text"}};
}

QVariant ProblemListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const GraphError& e = problems_[static_cast<std::size_t>(index.row())];
    switch (role) {
        case NodeRole: return QString::fromStdString(e.node);
        case PortRole: return QString::fromStdString(e.port);
        case FieldRole: return QString::fromStdString(e.field);
        case MessageRole: return QString::fromStdString(e.message);
        case TextRole: return QString::fromStdString(e.toString());
        default: return {};
    }
}

void ProblemListModel::refresh() {
    beginResetModel();
    problems_ = resolution_.current().problems();
    endResetModel();
    Q_EMIT countChanged();
}

}  // namespace isochron::ui
