#include "app/plugin_check/operator_check.h"

#include <optional>

#include "app/plugin_check/check_settings.h"
#include "app/plugin_check/harness_run.h"
#include "app/plugin_check/input_generator.h"
#include "app/plugin_check/output_trace.h"

namespace isochron::check {
namespace {

std::string rateText(double rateHz) {
    std::string text = std::to_string(rateHz);
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
    return text + " Hz";
}

/// How to make the items of one input port.
struct InputSource {
    PortType type;                 ///< what the feed emits
    std::string producer;          ///< custom items: the plugin's operator that makes them (run first)
    nlohmann::json producerParams;
};

// An operator of the same plugin with one feedable input and an output of custom type `wanted`.
std::optional<InputSource> customProducer(const OperatorRegistry& registry, const PluginLibrary& library, const PortType& wanted) {
    for (const OperatorDescriptor* d : registry.all()) {
        if (d->origin != library.file().string() || d->inputs.size() != 1 || !feedableType(d->inputs[0].type)) continue;
        for (const PortSpec& out : d->outputs) {
            if (out.type.kind == ItemKind::Custom && out.type.customType && (!wanted.customType || out.type.customType == wanted.customType)) {
                return InputSource{out.type, d->typeName, checkSettingsFor(library, d->typeName).params};
            }
        }
    }
    return std::nullopt;
}

void reportFailures(const HarnessResult& run, const std::string& cell, CheckReport& report) {
    for (const auto& failure : run.failures) report.problem(cell + ": " + failure);
}

void reportAllocations(const HarnessResult& run, const std::string& cell, const char* what, CheckReport& report) {
    const AllocationWindow& window = run.allocations;
    if (!window.closed || window.atEnd <= window.atStart) return;
    report.problem(cell + ": " + std::to_string(window.atEnd - window.atStart) + " system allocations while " + what + " " +
                   std::to_string(window.steps) + " steady-state batches (the processing hooks must not allocate; use allocate<T>() for "
                   "output samples and prepare buffers in activate())");
}

void checkSource(const OperatorRegistry& registry, const std::string& type, const CheckSettings& settings, CheckReport& report) {
    report.startCell("as a source");
    HarnessResult run = runHarness(registry, type, settings.params, {}, {}, false);
    reportFailures(run, "as a source", report);
    report.startCell("as a source, counting allocations");
    HarnessResult counted = runHarness(registry, type, settings.params, {}, {}, true);
    reportAllocations(counted, "as a source", "emitting", report);
    report.note("a source: run with its own rate and timing; no split matrix");
}

}  // namespace

void checkOperator(const OperatorRegistry& registry, const PluginLibrary& library, const std::string& type,
                   const CheckPlan& plan, CheckReport& report) {
    const OperatorDescriptor* descriptor = registry.find(type);
    CheckSettings settings;
    try {
        settings = checkSettingsFor(library, type);
    } catch (const std::invalid_argument& e) {
        report.problem(e.what());
        return;
    }
    if (descriptor->isSource()) return checkSource(registry, type, settings, report);

    std::vector<InputSource> sources;
    for (const ResolvedPort& port : descriptor->resolveInputs(parametersWithDefaults(*descriptor, settings.params))) {
        if (auto feedable = feedableType(port.type)) {
            sources.push_back({*feedable, "", {}});
        } else if (auto producer = customProducer(registry, library, port.type)) {
            report.note("input '" + port.name + "' gets " + producer->type.toString() + " items made by " + producer->producer);
            sources.push_back(*producer);
        } else {
            report.note("not run: nothing in the plugin produces " + port.type.toString() + " for input '" + port.name + "'");
            return;
        }
    }
    std::vector<PortType> feedTypes;
    for (const auto& source : sources) feedTypes.push_back(source.type);
    std::vector<std::string> outputNames;
    for (const ResolvedPort& port : descriptor->resolveOutputs(parametersWithDefaults(*descriptor, settings.params))) outputNames.push_back(port.name);

    const std::vector<Split> splits = splitMatrix(plan.samples, plan.randomSplits);
    for (double rate : plan.ratesHz) {
        // Custom inputs come from the producer, run once per rate on the whole stream.
        std::vector<std::vector<Item>> produced(sources.size());
        bool producersOk = true;
        for (std::size_t i = 0; i < sources.size(); ++i) {
            if (sources[i].producer.empty()) continue;
            report.startCell(rateText(rate) + ", producing input with " + sources[i].producer);
            const OperatorDescriptor* producer = registry.find(sources[i].producer);
            const PortType producerInput = *feedableType(producer->inputs[0].type);
            HarnessResult run = runHarness(registry, sources[i].producer, sources[i].producerParams,
                                           {generateInput(producerInput, rate, plan.samples, splits[0])}, {producerInput}, false);
            reportFailures(run, rateText(rate) + ", producer " + sources[i].producer, report);
            producersOk = producersOk && run.failures.empty();
            for (const auto& port : run.outputs) {
                for (const Item& item : port) {
                    if (item.kind() == ItemKind::Custom) produced[i].push_back(item);
                }
            }
        }
        if (!producersOk) continue;
        auto inputsFor = [&](const Split& split) {
            std::vector<FeedScript> scripts;
            for (std::size_t i = 0; i < sources.size(); ++i) {
                scripts.push_back(sources[i].producer.empty() ? generateInput(sources[i].type, rate, plan.samples, split)
                                                              : batchItems(produced[i], rate, plan.samples, split));
            }
            return scripts;
        };

        std::vector<OutputTrace> reference;
        bool splitDependenceReported = false;
        for (const Split& split : splits) {
            const std::string cell = rateText(rate) + ", " + split.name;
            report.startCell(cell);
            HarnessResult run = runHarness(registry, type, settings.params, inputsFor(split), feedTypes, false);
            reportFailures(run, cell, report);
            if (!run.failures.empty()) break;  // the same fault would repeat for every split
            std::vector<OutputTrace> traces;
            for (const auto& port : run.outputs) traces.push_back(traceOf(port));
            if (reference.empty()) {
                reference = std::move(traces);
                continue;
            }
            for (std::size_t o = 0; o < traces.size() && !splitDependenceReported; ++o) {
                auto difference = firstDifference(reference[o], traces[o], settings.tolerance);
                if (!difference) continue;
                const std::string text = cell + ", output '" + outputNames.at(o) + "' depends on the split: " + *difference;
                if (settings.splitInvariant) report.problem(text);
                else report.note(text + " (declared split-dependent)");
                splitDependenceReported = true;  // once per rate is enough to act on
            }
        }
        for (std::size_t s : {std::size_t{2}, splits.size() - 1}) {
            const std::string cell = rateText(rate) + ", " + splits[s].name + ", counting allocations";
            report.startCell(cell);
            HarnessResult counted = runHarness(registry, type, settings.params, inputsFor(splits[s]), feedTypes, true);
            reportAllocations(counted, cell, "processing", report);
        }
    }
}

}  // namespace isochron::check
