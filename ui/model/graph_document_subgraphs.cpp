// GraphDocument's subgraph actions: group the selection into a file, ungroup a node, find its file,
// and the exposed parameters its inspector edits.
#include <QDir>
#include <QFileInfo>
#include <QUrl>

#include <algorithm>
#include <cctype>

#include "engine/graph/graph_file.h"
#include "ui/model/graph_document.h"
#include "ui/model/graph_edits.h"
#include "ui/model/graph_fragment.h"
#include "ui/model/subgraph_grouping.h"

namespace isochron::ui {
namespace {

namespace fs = std::filesystem;

// A structural edit that also puts the selection back as it was before and after it, so undoing a
// group selects the grouped nodes again.
class SelectingEdit : public StructureEdit {
public:
    SelectingEdit(GraphStore& store, Selection& selection, QStringList before, QStringList after, const QString& text)
        : StructureEdit(store, text), selection_(selection), before_(std::move(before)), after_(std::move(after)) {}
    void redo() override {
        StructureEdit::redo();
        selection_.selectNodes(after_);
    }
    void undo() override {
        StructureEdit::undo();
        selection_.selectNodes(before_);
    }

private:
    Selection& selection_;
    QStringList before_, after_;
};

QString localFile(const QString& pathOrUrl) {
    const QString path = pathOrUrl.startsWith(QStringLiteral("file:")) ? QUrl(pathOrUrl).toLocalFile() : pathOrUrl;
    return QFileInfo(path).absoluteFilePath();
}

}  // namespace

QStringList GraphDocument::selectionParameters() const {
    QStringList list;
    for (const QString& id : selection_.nodes()) {
        if (const NodeSpec* node = store_.node(id.toStdString())) {
            for (const auto& [name, value] : node->params) list.append(id + "." + QString::fromStdString(name));
        }
    }
    return list;
}

QString GraphDocument::groupSelection(const QString& pathOrUrl, const QVariant& parameters) {
    std::vector<Endpoint> exposed;
    for (const QString& text : parameters.isValid() ? parameters.toStringList() : selectionParameters()) {
        Endpoint parameter;
        if (!splitEndpoint(text.toStdString(), parameter.node, parameter.name)) return tr("'%1' is not node.parameter").arg(text);
        exposed.push_back(std::move(parameter));
    }
    const QStringList selected = selection_.nodes();
    std::vector<std::string> ids;
    for (const QString& id : selected) ids.push_back(id.toStdString());
    const fs::path file = localFile(pathOrUrl).toStdString();
    const fs::path graphFolder = store_.spec().baseDirectory;
    const std::string reference = graphFolder.empty() ? file.generic_string() : fs::relative(file, graphFolder).generic_string();
    std::set<std::string> taken = takenIds();
    for (const std::string& id : ids) taken.erase(id);
    std::string stem = file.filename().string();
    stem = stem.substr(0, stem.find('.'));
    std::replace_if(stem.begin(), stem.end(), [](char c) { return !(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'); }, '_');
    const std::string nodeId = uniqueNodeId(stem.empty() ? "subgraph" : stem, taken);
    GroupPlan plan;
    try {
        plan = planGroup(store_.spec(), ids, nodeId, reference, exposed, file.parent_path(), registry_);
        plan.file.name = stem;
        GraphSpec written = plan.file;
        written.baseDirectory.clear();
        saveGraphFile(written, file);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    auto* edit = new SelectingEdit(store_, selection_, selected, {QString::fromStdString(nodeId)},
                                   tr("Group %n node(s) into %1", nullptr, static_cast<int>(ids.size())).arg(QString::fromStdString(nodeId)));
    for (const std::string& id : ids) edit->removeNode(id);
    edit->addNode(std::move(plan.node));
    for (EdgeSpec& edge : plan.outerEdges) edit->addEdge(std::move(edge));
    push(edit);
    return {};
}

QString GraphDocument::ungroup(const QString& nodeId) {
    const NodeSpec* node = store_.node(nodeId.toStdString());
    if (!node || !isSubgraphNode(*node)) return tr("'%1' is not a subgraph node").arg(nodeId);
    UngroupPlan plan;
    try {
        const GraphSpec file = loadGraphFile(subgraphFile(store_.spec(), *node));
        std::set<std::string> taken = takenIds();
        taken.erase(node->id);
        plan = planUngroup(store_.spec(), node->id, file, taken, registry_);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    QStringList inlined;
    for (const NodeSpec& inner : plan.nodes) inlined.append(QString::fromStdString(inner.id));
    auto* edit = new SelectingEdit(store_, selection_, {nodeId}, inlined, tr("Ungroup %1").arg(nodeId));
    edit->removeNode(node->id);
    for (NodeSpec& inner : plan.nodes) edit->addNode(std::move(inner));
    for (EdgeSpec& edge : plan.edges) edit->addEdge(std::move(edge));
    push(edit);
    return {};
}

QString GraphDocument::subgraphFileOf(const QString& nodeId) const {
    const NodeSpec* node = store_.node(nodeId.toStdString());
    if (!node || !isSubgraphNode(*node)) return {};
    return QFileInfo(QString::fromStdString(subgraphFile(store_.spec(), *node).string())).absoluteFilePath();
}

QString GraphDocument::suggestedSubgraphPath() const {
    const QDir folder = filePath_.isEmpty() ? QDir::current() : QFileInfo(filePath_).absoluteDir();
    for (int n = 1;; ++n) {
        const QString name = n == 1 ? QStringLiteral("subgraph.isograph.json") : QStringLiteral("subgraph-%1.isograph.json").arg(n);
        if (!folder.exists(name)) return folder.absoluteFilePath(name);
    }
}

std::optional<ParamSpec> GraphDocument::exposedParameter(const NodeSpec& node, const std::string& name) {
    const ExpandedGraph& expanded = resolution_.current().expanded();
    auto subgraph = expanded.subgraphs.find(node.id);
    if (subgraph == expanded.subgraphs.end()) return std::nullopt;
    for (const ExposedEndpoint& exposed : subgraph->second.flat.params) {
        if (exposed.name != name) continue;
        const NodeSpec* inner = expanded.flat.findNode(exposed.inner.front().node);
        const OperatorDescriptor* d = inner ? registry_.find(inner->type) : nullptr;
        const ParamSpec* p = d ? d->findParam(exposed.inner.front().name) : nullptr;
        if (!p) return std::nullopt;
        ParamSpec spec = *p;
        spec.name = name;
        if (auto value = subgraph->second.paramDefaults.find(name); value != subgraph->second.paramDefaults.end()) {
            std::string why;
            if (auto parsed = p->fromJson(value->second, why)) spec.defaultValue = *parsed;
        }
        return spec;
    }
    return std::nullopt;
}

}  // namespace isochron::ui
