#include "app/plugin_check/harness_run.h"

#include <optional>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "engine/graph/validated_graph.h"
#include "engine/runtime/engine.h"

namespace isochron::check {
namespace {

/// Calls requestStop() on an engine after a delay unless dismissed first.
class StopTimer {
public:
    StopTimer(Engine& engine, double seconds)
        : thread_([this, &engine, seconds] {
              std::unique_lock lock(mutex_);
              if (!dismissed_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; })) engine.requestStop();
          }) {}
    ~StopTimer() {
        {
            std::lock_guard lock(mutex_);
            done_ = true;
        }
        dismissed_.notify_all();
        thread_.join();
    }

private:
    std::mutex mutex_;
    std::condition_variable dismissed_;
    bool done_ = false;
    std::thread thread_;
};

}  // namespace

ParamSet parametersWithDefaults(const OperatorDescriptor& descriptor, const nlohmann::json& params) {
    ParamSet resolved;
    for (const ParamSpec& p : descriptor.params) {
        std::string error;
        std::optional<ParamValue> value;
        if (params.contains(p.name)) value = p.fromJson(params[p.name], error);
        resolved.set(p.name, value.value_or(p.defaultValue));
    }
    return resolved;
}

HarnessResult runHarness(const OperatorRegistry& registry, const std::string& type, const nlohmann::json& params,
                         std::vector<FeedScript> inputs, const std::vector<PortType>& inputTypes, bool countAllocations,
                         double sourceSeconds) {
    HarnessResult result;
    const OperatorDescriptor* descriptor = registry.find(type);
    GraphSpec spec;
    spec.name = "isochron-plugin-check";
    // The node is named after its type, so what the engine says about it (errors, the plugin call a
    // crash or hang was in) names the operator under test.
    NodeSpec subject{type, type, {}, std::nullopt};
    for (const auto& [name, value] : params.items()) subject.params[name] = value;
    spec.nodes.push_back(subject);

    // The subject's ports as its parameters resolve them (repeated ports expanded).
    const ParamSet resolvedParams = parametersWithDefaults(*descriptor, params);
    const std::vector<ResolvedPort> inputPorts = descriptor->resolveInputs(resolvedParams);
    const std::vector<ResolvedPort> outputPorts = descriptor->resolveOutputs(resolvedParams);
    for (std::size_t i = 0; i < inputPorts.size(); ++i) {
        const std::string id = "feed" + std::to_string(i);
        spec.nodes.push_back(NodeSpec{id, "check.feed", {{"slot", static_cast<int>(i)}, {"type", inputTypes.at(i).toString()}}, std::nullopt});
        spec.edges.push_back(EdgeSpec{id, "out", type, inputPorts[i].name});
    }
    for (std::size_t o = 0; o < outputPorts.size(); ++o) {
        const std::string id = "capture" + std::to_string(o);
        spec.nodes.push_back(NodeSpec{id, "check.capture", {{"slot", static_cast<int>(o)}, {"measures_source", inputPorts.empty() && o == 0}}, std::nullopt});
        spec.edges.push_back(EdgeSpec{type, outputPorts[o].name, id, "in"});
    }

    HarnessState& state = harnessState();
    state.feeds = std::move(inputs);
    state.captured.assign(outputPorts.size(), {});
    state.keepOutputs = !countAllocations;
    state.allocations = AllocationWindow{};
    state.allocations.enabled = countAllocations;
    state.inputWrites.clear();
    try {
        ValidatedGraph graph = validateGraph(spec, registry);
        Engine engine(graph, SchedulerSpec{"df", {}});
        std::optional<StopTimer> timer;
        if (inputPorts.empty()) timer.emplace(engine, sourceSeconds);
        RunOutcome outcome = engine.run();
        result.failures = outcome.failures;
    } catch (const GraphException& e) {
        for (const auto& error : e.errors()) result.failures.push_back(error.toString());
    } catch (const std::exception& e) {
        result.failures.push_back(e.what());
    }
    result.failures.insert(result.failures.end(), state.inputWrites.begin(), state.inputWrites.end());
    result.outputs = std::move(state.captured);
    result.allocations = state.allocations;
    state.feeds.clear();
    state.captured.clear();
    return result;
}

}  // namespace isochron::check
