#include "tests/support/test_operators.h"

#include <algorithm>

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

// Emits one scalar per produce() call and never finishes: a run ends only when it is stopped.
class Endless final : public Operator {
protected:
    void onActivate() override {
        auto it = endlessStarted().find(params().getString("name"));
        started_ = it == endlessStarted().end() ? nullptr : &it->second;
    }
    SourceStatus onProduce() override {
        emit(0, Item::scalar(static_cast<double>(next_), SampleRange{&Timebase::get(100), next_, 1}));
        ++next_;
        if (started_ != nullptr) {
            started_->set_value();
            started_ = nullptr;
        }
        return SourceStatus::produced();
    }

private:
    std::promise<void>* started_ = nullptr;
    std::int64_t next_ = 0;
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

// Merges two scalar streams by range start, releasing items only once progress on both inputs
// passed them: the output is the same whatever order the inputs arrive in.
class Merge final : public Operator {
protected:
    void process(int port, Item&& item) override { held_.push_back({port, std::move(item)}); }
    TimeNs onProgress(TimeNs t) override {
        release(t);
        return t;
    }
    void onFinish() override { release(kEndOfTime); }

private:
    void release(TimeNs before) {
        std::stable_sort(held_.begin(), held_.end(), [](const auto& a, const auto& b) {
            return std::make_pair(a.second.range().startTime(), a.first) < std::make_pair(b.second.range().startTime(), b.first);
        });
        std::size_t n = 0;
        while (n < held_.size() && (before == kEndOfTime || held_[n].second.range().startTime() < before)) ++n;
        for (std::size_t i = 0; i < n; ++i) emit(0, std::move(held_[i].second));
        held_.erase(held_.begin(), held_.begin() + static_cast<std::ptrdiff_t>(n));
    }
    std::vector<std::pair<int, Item>> held_;
};

// Sends each scalar around a loop `laps` times (adding 1000 per lap) before emitting it on `out`.
class Loop final : public Operator {
protected:
    void process(int port, Item&& item) override {
        double v = item.value();
        if (port == 1 && v >= 1000.0 * static_cast<double>(params().getInt("laps"))) {
            emit(0, std::move(item));
            return;
        }
        emit(1, Item::scalar(v + 1000.0, item.range()));
    }
};

// Forwards items but throws on the n-th one.
class FailAfter final : public Operator {
protected:
    void process(int, Item&& item) override {
        if (++seen_ == params().getInt("n")) throw OperatorError("planted failure on item " + std::to_string(seen_));
        emit(0, std::move(item));
    }

private:
    std::int64_t seen_ = 0;
};

// An output that takes items but throws on the n-th one (a sink on a full disk).
class FailingSink final : public Operator {
protected:
    void process(int, Item&&) override {
        if (++seen_ == params().getInt("n")) throw OperatorError("planted sink failure on item " + std::to_string(seen_));
    }

private:
    std::int64_t seen_ = 0;
};

// Multiplies scalar values by a live `gain`.
class Gain final : public Operator {
protected:
    void onActivate() override { gain_ = params().getReal("gain"); }
    void onParameterChanged(std::string_view) override { gain_ = params().getReal("gain"); }
    void process(int, Item&& item) override { emit(0, Item::scalar(item.value() * gain_, item.range())); }

private:
    double gain_ = 1;
};

OperatorDescriptor simple(std::string name, std::string summary, std::function<std::unique_ptr<Operator>()> create) {
    OperatorDescriptor d;
    d.typeName = "test." + name;
    d.category = "test";
    d.summary = std::move(summary);
    d.create = std::move(create);
    return d;
}

}  // namespace

std::map<std::string, FeedScript>& feedScripts() {
    static std::map<std::string, FeedScript> scripts;
    return scripts;
}

std::map<std::string, std::promise<void>>& endlessStarted() {
    static std::map<std::string, std::promise<void>> started;
    return started;
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
                          ParamSpec{"inputs", ParamKind::Int, std::int64_t{1}, 0.0, 64.0, "", "number of inputs (0 = as many as wired: the bus feeding them or the highest inN edge)"}};
        collect.create = [] { return std::make_unique<Collect>(); };
        r.add(std::move(collect));

        auto endless = simple("endless", "Emits scalars forever (tests only)", [] { return std::make_unique<Endless>(); });
        endless.outputs = {PortSpec{"out", PortType::scalar(), "one scalar per call"}};
        endless.params = {ParamSpec{"name", ParamKind::String, std::string("endless"), {}, {}, "", "key in endlessStarted()"}};
        r.add(std::move(endless));

        auto merge = simple("merge", "Merges two scalar streams by time using progress", [] { return std::make_unique<Merge>(); });
        merge.inputs = {PortSpec{"a", PortType::scalar(), "first"}, PortSpec{"b", PortType::scalar(), "second"}};
        merge.outputs = {PortSpec{"out", PortType::scalar(), "merged"}};
        r.add(std::move(merge));

        auto loop = simple("loop", "Sends scalars around a cycle", [] { return std::make_unique<Loop>(); });
        loop.inputs = {PortSpec{"in", PortType::scalar(), "new items"}, PortSpec{"back", PortType::scalar(), "returning items", true}};
        loop.outputs = {PortSpec{"out", PortType::scalar(), "finished items"}, PortSpec{"around", PortType::scalar(), "into the loop"}};
        loop.params = {ParamSpec{"laps", ParamKind::Int, std::int64_t{3}, 0.0, 100.0, "", "laps per item"}};
        r.add(std::move(loop));

        auto fail = simple("fail_after", "Throws on the n-th item", [] { return std::make_unique<FailAfter>(); });
        fail.inputs = {PortSpec{"in", PortType::any(), "anything"}};
        fail.outputs = {PortSpec{"out", PortType::any(), "the same", false, "", "in"}};
        fail.params = {ParamSpec{"n", ParamKind::Int, std::int64_t{3}, 1.0, 1e9, "items", "which item throws"}};
        r.add(std::move(fail));

        auto failingSink = simple("fail_sink", "An output that throws on the n-th item", [] { return std::make_unique<FailingSink>(); });
        failingSink.inputs = {PortSpec{"in", PortType::any(), "anything"}};
        failingSink.params = {ParamSpec{"n", ParamKind::Int, std::int64_t{3}, 1.0, 1e9, "items", "which item throws"}};
        r.add(std::move(failingSink));

        auto gain = simple("gain", "Multiplies scalars by a live gain", [] { return std::make_unique<Gain>(); });
        gain.inputs = {PortSpec{"in", PortType::scalar(), "values"}};
        gain.outputs = {PortSpec{"out", PortType::scalar(), "scaled values"}};
        gain.params = {ParamSpec{"gain", ParamKind::Real, 1.0, -100.0, 100.0, "", "factor", {}, true}};
        gain.passesEveryItem = [](const ParamSet&) { return true; };
        r.add(std::move(gain));
        return r;
    }();
    return registry;
}

}  // namespace isochron::test
