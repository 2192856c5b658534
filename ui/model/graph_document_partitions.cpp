// GraphDocument's partitions (docs/scale-out.md): which rank runs each node under mpirun. The canvas
// colours nodes by partition; setting the selection's partition is one undo step.
#include <map>
#include <utility>
#include <vector>

#include "ui/model/graph_document.h"
#include "ui/model/graph_edits.h"

namespace isochron::ui {

QString GraphDocument::setPartitionOfSelection(int partition) {
    if (partition < -1 || partition > kMaxEditorPartition) {
        fail(tr("A partition is a rank from 0 to %1 (or none), not %2").arg(kMaxEditorPartition).arg(partition));
        return lastError_;
    }
    std::vector<std::pair<NodeSpec, NodeSpec>> changes;  // before, after
    for (const QString& id : selection_.nodes()) {
        const NodeSpec* node = store_.node(id.toStdString());
        if (!node) continue;
        NodeSpec after = *node;
        if (partition < 0) after.partition.reset();
        else after.partition = partition;
        if (after.partition != node->partition) changes.emplace_back(*node, std::move(after));
    }
    if (changes.empty()) return {};
    const QString what = partition < 0 ? tr("No partition") : tr("Partition %1").arg(partition);
    const QString text = changes.size() == 1 ? tr("%1 for %2").arg(what, QString::fromStdString(changes.front().first.id))
                                             : tr("%1 for %2 nodes").arg(what).arg(changes.size());
    undoStack_.beginMacro(text);
    for (auto& [before, after] : changes) push(new EditNode(store_, std::move(before), std::move(after), text));
    undoStack_.endMacro();
    return {};
}

QVariantList GraphDocument::partitions() const {
    std::map<int, int> nodesIn;
    bool any = false;
    for (const NodeSpec& node : store_.spec().nodes) {
        any = any || node.partition.has_value();
        ++nodesIn[node.partition.value_or(0)];
    }
    QVariantList list;
    if (!any) return list;
    for (const auto& [partition, count] : nodesIn) list.append(QVariantMap{{"partition", partition}, {"nodes", count}});
    return list;
}

}  // namespace isochron::ui
