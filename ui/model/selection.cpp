#include "ui/model/selection.h"

namespace isochron::ui {

Selection::Selection(QObject* parent) : QObject(parent) {}

QStringList Selection::nodes() const {
    QStringList list;
    for (const QString& id : order_) {
        if (nodes_.contains(id)) list.append(id);
    }
    return list;
}

QStringList Selection::wires() const { return QStringList(wires_.begin(), wires_.end()); }

void Selection::replace(const QSet<QString>& nodes, const QSet<QString>& wires, const QStringList& newOrder) {
    if (nodes == nodes_ && wires == wires_) return;
    const QSet<QString> oldNodes = nodes_, oldWires = wires_;
    nodes_ = nodes;
    wires_ = wires;
    order_.removeIf([&](const QString& id) { return !nodes_.contains(id); });
    for (const QString& id : newOrder) {
        if (nodes_.contains(id) && !order_.contains(id)) order_.append(id);
    }
    for (const QString& id : nodes_) {
        if (!order_.contains(id)) order_.append(id);
    }
    auto symmetricDifference = [](const QSet<QString>& a, const QSet<QString>& b) {
        return (a - b) + (b - a);
    };
    for (const QString& id : symmetricDifference(oldNodes, nodes_)) Q_EMIT nodeToggled(id);
    for (const QString& key : symmetricDifference(oldWires, wires_)) Q_EMIT wireToggled(key);
    Q_EMIT changed();
}

void Selection::selectNode(const QString& id, bool additive) {
    if (!additive) {
        replace({id}, {});
        return;
    }
    QSet<QString> nodes = nodes_;
    if (nodes.contains(id)) nodes.remove(id);
    else nodes.insert(id);
    replace(nodes, wires_);
}

void Selection::selectNodes(const QStringList& ids, bool additive) {
    QSet<QString> nodes = additive ? nodes_ : QSet<QString>{};
    for (const QString& id : ids) nodes.insert(id);
    replace(nodes, additive ? wires_ : QSet<QString>{}, ids);
}

void Selection::selectWire(const QString& key, bool additive) {
    if (!additive) {
        replace({}, {key});
        return;
    }
    QSet<QString> wires = wires_;
    if (wires.contains(key)) wires.remove(key);
    else wires.insert(key);
    replace(nodes_, wires);
}

void Selection::clear() { replace({}, {}); }

void Selection::forgetNode(const QString& id) {
    if (!nodes_.contains(id)) return;
    QSet<QString> nodes = nodes_;
    nodes.remove(id);
    replace(nodes, wires_);
}

void Selection::forgetWire(const QString& key) {
    if (!wires_.contains(key)) return;
    QSet<QString> wires = wires_;
    wires.remove(key);
    replace(nodes_, wires);
}

}  // namespace isochron::ui
