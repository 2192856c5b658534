// The problems panel: every problem the validator reports for the edited graph, by node, then the
// warnings isochron-run --check gives for it (a run that can never end, partitions mpirun refuses), then the problems other
// parts of the editor report about it (a run's faulted nodes, plugins that failed to reload), each
// source replacing its own list.
#pragma once

#include <QAbstractListModel>
#include <QtQml/qqmlregistration.h>

#include <map>

#include "ui/model/resolution_cache.h"

namespace isochron::ui {

/// One row per problem: the validator's, in its order, its warnings, then each source's, by source
/// name. [ui thread]
class ProblemListModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("owned by a GraphDocument")
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
    /// Rows that are warnings (the graph still runs); the others are errors.
    Q_PROPERTY(int warningCount READ warningCount NOTIFY countChanged)
    /// Rows that are errors (the graph cannot run until they are fixed).
    Q_PROPERTY(int errorCount READ errorCount NOTIFY countChanged)
    /// The rows counted by severity, e.g. "1 problem, 1 warning", "2 problems", "1 warning" (empty
    /// without rows): the one wording of the Problems tab and the status bar, so they always agree.
    Q_PROPERTY(QString summary READ summary NOTIFY countChanged)
public:
    enum Role { NodeRole = Qt::UserRole + 1, PortRole, FieldRole, MessageRole, TextRole, SourceRole, SeverityRole };

    explicit ProblemListModel(ResolutionCache& resolution, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;
    int warningCount() const { return static_cast<int>(warnings_.size()); }
    int errorCount() const { return rowCount() - warningCount(); }
    QString summary() const;

    /// Replace the problems reported by `source` (e.g. "run", "plugins"); empty clears them.
    void setProblems(const QString& source, std::vector<GraphError> problems);
    /// The problems `source` reported (for tests and the status bar).
    const std::vector<GraphError>& problemsOf(const QString& source) const;

Q_SIGNALS:
    void countChanged();

private:
    // Rebuild the rows and end the model reset the caller began.
    void finishReset();
    ResolutionCache& resolution_;
    /// One row: who reported it ("" for the validator), whether it is a warning, and what.
    struct Row {
        QString source;
        bool warning = false;
        const GraphError* problem = nullptr;
    };
    std::vector<GraphError> problems_;                     // the validator's
    std::vector<GraphError> warnings_;                     // isochron-run --check's for a valid graph
    std::map<QString, std::vector<GraphError>> reported_;  // by source
    std::vector<Row> rows_;
};

}  // namespace isochron::ui
