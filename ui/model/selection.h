// Which nodes and wires are selected on the canvas (not part of the document, not undoable).
#pragma once

#include <QObject>
#include <QSet>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

namespace isochron::ui {

/// Selected node ids and wire keys ("from.port>to.port"). [ui thread]
class Selection : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("owned by a GraphDocument")
    Q_PROPERTY(QStringList nodes READ nodes NOTIFY changed)
    Q_PROPERTY(QStringList wires READ wires NOTIFY changed)
    Q_PROPERTY(int nodeCount READ nodeCount NOTIFY changed)
    Q_PROPERTY(bool empty READ empty NOTIFY changed)
public:
    explicit Selection(QObject* parent = nullptr);

    QStringList nodes() const;
    QStringList wires() const;
    int nodeCount() const { return static_cast<int>(nodes_.size()); }
    bool empty() const { return nodes_.isEmpty() && wires_.isEmpty(); }

    /// Select one node; with `additive` keep the rest (toggling it if it was selected).
    Q_INVOKABLE void selectNode(const QString& id, bool additive = false);
    /// Select these nodes; with `additive` add them to the selection.
    Q_INVOKABLE void selectNodes(const QStringList& ids, bool additive = false);
    Q_INVOKABLE void selectWire(const QString& key, bool additive = false);
    Q_INVOKABLE void clear();
    Q_INVOKABLE bool hasNode(const QString& id) const { return nodes_.contains(id); }
    Q_INVOKABLE bool hasWire(const QString& key) const { return wires_.contains(key); }
    /// Drop ids that left the document.
    void forgetNode(const QString& id);
    void forgetWire(const QString& key);

Q_SIGNALS:
    void changed();
    /// One node or wire entered or left the selection.
    void nodeToggled(const QString& id);
    void wireToggled(const QString& key);

private:
    void replace(const QSet<QString>& nodes, const QSet<QString>& wires, const QStringList& newOrder = {});
    QSet<QString> nodes_;
    QSet<QString> wires_;
    QStringList order_;  // selection order, for a stable nodes() list
};

}  // namespace isochron::ui
