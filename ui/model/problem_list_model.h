// The problems panel: every problem the validator reports for the edited graph, by node.
#pragma once

#include <QAbstractListModel>
#include <QtQml/qqmlregistration.h>

#include "ui/model/resolution_cache.h"

namespace isochron::ui {

/// One row per problem, in the validator's order. [ui thread]
class ProblemListModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("owned by a GraphDocument")
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
public:
    enum Role { NodeRole = Qt::UserRole + 1, PortRole, FieldRole, MessageRole, TextRole };

    explicit ProblemListModel(ResolutionCache& resolution, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

Q_SIGNALS:
    void countChanged();

private:
    void refresh();
    ResolutionCache& resolution_;
    std::vector<GraphError> problems_;
};

}  // namespace isochron::ui
