#include "tests/support/test_operators.h"

#include "engine/operators/operator.h"
#include "nodes/register_builtin_nodes.h"

namespace isochron::test {
namespace {

class Feed final : public Operator {
protected:
    void onActivate() override {
        auto it = feedScripts().find(params().getString("name"));
        if (it == feedScripts().end()) throw OperatorError("no feed script named '" + params().getString("name") + "'");
        script_ = &it->second;
    }
    SourceStatus onProduce() override {
        if (next_ >= script_->batches.size()) return SourceStatus::finished();
        for (auto& [port, item] : script_->batches[next_]) {
            if (item.isProgress()) emitProgress(item.progressTime());
            else emit(port, Item(item));
        }
        ++next_;
        return next_ >= script_->batches.size() ? SourceStatus::finished() : SourceStatus::produced();
    }

private:
    FeedScript* script_ = nullptr;
    std::size_t next_ = 0;
};

class Collect final : public Operator {
protected:
    void onActivate() override {
        collected_ = &collections()[params().getString("name")];
        collected_->items.assign(static_cast<std::size_t>(inputCount()), {});
        collected_->progress.assign(static_cast<std::size_t>(inputCount()), {});
        collected_->finished = false;
    }
    void process(int port, Item&& item) override { collected_->items[static_cast<std::size_t>(port)].push_back(std::move(item)); }
    TimeNs onProgress(TimeNs t) override {
        collected_->progress[0].push_back(t);
        return t;
    }
    void onFinish() override { collected_->finished = true; }

private:
    Collected* collected_ = nullptr;
};

}  // namespace

std::map<std::string, FeedScript>& feedScripts() {
    static std::map<std::string, FeedScript> scripts;
    return scripts;
}

std::map<std::string, Collected>& collections() {
    static std::map<std::string, Collected> collected;
    return collected;
}

OperatorRegistry& testRegistry() {
    static OperatorRegistry registry = [] {
        OperatorRegistry r;
        registerBuiltinNodes(r);
        OperatorDescriptor feed;
        feed.typeName = "test.feed";
        feed.category = "test";
        feed.summary = "Emits the items of a FeedScript (tests only)";
        feed.outputs = {PortSpec{"out", PortType::any(), "scripted items", false, "outputs", "", "type"}};
        feed.params = {ParamSpec{"name", ParamKind::String, std::string("feed"), {}, {}, "", "script name"},
                       ParamSpec{"outputs", ParamKind::Int, std::int64_t{1}, 1.0, 64.0, "", "number of outputs"},
                       ParamSpec{"type", ParamKind::String, std::string("signal<f32>"), {}, {}, "", "output port type"}};
        feed.create = [] { return std::make_unique<Feed>(); };
        r.add(std::move(feed));
        OperatorDescriptor collect;
        collect.typeName = "test.collect";
        collect.category = "test";
        collect.summary = "Keeps every item it receives (tests only)";
        collect.inputs = {PortSpec{"in", PortType::any(), "anything", true, "inputs"}};
        collect.params = {ParamSpec{"name", ParamKind::String, std::string("out"), {}, {}, "", "collection name"},
                          ParamSpec{"inputs", ParamKind::Int, std::int64_t{1}, 1.0, 64.0, "", "number of inputs"}};
        collect.create = [] { return std::make_unique<Collect>(); };
        r.add(std::move(collect));
        return r;
    }();
    return registry;
}

}  // namespace isochron::test
