// The palette: every registered operator type (built-ins and plugins), grouped by category and
// filtered as the user types, each with where it comes from (built-in, or its plugin's file).
#pragma once

#include <QAbstractListModel>
#include <QtQml/qqmlregistration.h>

#include <vector>

#include "engine/operators/registry.h"

namespace isochron::ui {

/// Operator types matching `filter`, by category then name, or best match first when `ranked`. [ui thread]
class OperatorCatalog : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString filter READ filter WRITE setFilter NOTIFY filterChanged)
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
    /// With a filter: types whose name starts with the first word first, then those whose name
    /// holds every word, then the rest (quick-add takes the top row; the palette keeps categories).
    Q_PROPERTY(bool ranked MEMBER ranked_ NOTIFY filterChanged)
public:
    /// OriginRole: "built-in" or the plugin's path; OriginNameRole: "built-in" or the plugin's file name.
    enum Role { TypeNameRole = Qt::UserRole + 1, NameRole, CategoryRole, SummaryRole, DocumentationRole, OriginRole, OriginNameRole, PortsRole };

    /// The built-in registry (plugins register into it too).
    explicit OperatorCatalog(QObject* parent = nullptr);
    OperatorCatalog(const OperatorRegistry& registry, QObject* parent);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    QString filter() const { return filter_; }
    /// Words separated by spaces; a type matches when every word matches. A plain word (a keyword)
    /// matches text in its name, category, summary or parameter names, or, when it names what a port
    /// carries ("signal<f32>", "frame", "event"), any port that carries it; "in:TYPE",
    /// "out:TYPE" or "port:TYPE" matches an input, output or any port that carries TYPE ("frame",
    /// "signal<f32>", "event": see portCarries()).
    void setFilter(const QString& filter);
    /// Type name of row `row`, or empty.
    Q_INVOKABLE QString typeAt(int row) const;
    /// List the registry's types again; call it as soon as they changed (a plugin reloaded), since
    /// the rows point at their descriptors.
    Q_INVOKABLE void refresh();

Q_SIGNALS:
    void filterChanged();
    void countChanged();

private:
    bool matches(const OperatorDescriptor& descriptor, const QStringList& words) const;

    const OperatorRegistry& registry_;
    QString filter_;
    bool ranked_ = false;
    std::vector<const OperatorDescriptor*> shown_;
};

/// Whether a port of type `port` carries what `wanted` names: a full type ("signal<f32>", "frame<c32>",
/// "custom<tones.tone>") that one of them accepts from the other (so "signal<f32>" finds
/// signal<any> ports too), or a bare kind ("signal", "frame", "scalar", "event", "time_range",
/// "custom", "any") of that kind. [any thread]
bool portCarries(const PortType& port, const QString& wanted);

}  // namespace isochron::ui
