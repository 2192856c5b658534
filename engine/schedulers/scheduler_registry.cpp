#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/schedulers/depth_first.h"
#include "engine/schedulers/fifo_slice.h"
#include "engine/schedulers/run_to_completion.h"
#include "engine/schedulers/scheduler.h"

namespace isochron {

void Scheduler::invoke(NodeContext& target, int port, Item&& item) {
    target.onStack = true;
    target.op->deliver(port, std::move(item));
    target.onStack = false;
}

void Scheduler::invokeQueued(NodeContext& target, int port) {
    invoke(target, port, target.inputs[static_cast<std::size_t>(port)].queue.pop());
}

namespace {

ParamSpec burstParam() {
    return ParamSpec{"burst", ParamKind::Int, std::int64_t{0}, 0.0, 1e9, "items",
                     "source rate control: admit at most this many items per source, run to quiescence, "
                     "repeat (0 = off)"};
}

}  // namespace

const std::vector<SchedulerInfo>& availableSchedulers() {
    static const std::vector<SchedulerInfo> schedulers = {
        {"fifo", "round-robin over input queues, one item per turn", {burstParam()}},
        {"fifo-slice", "round-robin over input queues, as many items as fit a time slice per turn",
         {ParamSpec{"slice_us", ParamKind::Real, 28.0, 0.0, 1e6, "us", "time slice per turn (0 = one item, i.e. fifo)"},
          burstParam()}},
        {"rtc", "run to completion: drain an operator's queues, then run one successor next", {burstParam()}},
        {"df", "depth first: emitted items run their targets immediately, by reference", {burstParam()}},
    };
    return schedulers;
}

ParamSet schedulerParams(const SchedulerSpec& spec) {
    const SchedulerInfo* info = nullptr;
    std::string names;
    for (const auto& s : availableSchedulers()) {
        names += (names.empty() ? "" : ", ") + s.name;
        if (s.name == spec.name) info = &s;
    }
    if (!info) throw std::invalid_argument("unknown scheduler '" + spec.name + "' (available: " + names + ")");
    ParamSet params;
    for (const auto& [key, raw] : spec.params) {
        const ParamSpec* p = nullptr;
        for (const auto& candidate : info->params) {
            if (candidate.name == key) p = &candidate;
        }
        if (!p) throw std::invalid_argument("scheduler '" + spec.name + "' has no parameter '" + key + "'");
        std::string why;
        auto value = p->fromJson(raw, why);
        if (!value) throw std::invalid_argument("scheduler '" + spec.name + "', parameter '" + key + "': " + why);
        params.set(key, *value);
    }
    for (const auto& p : info->params) {
        if (!params.has(p.name)) params.set(p.name, p.defaultValue);
    }
    return params;
}

std::unique_ptr<Scheduler> createScheduler(const SchedulerSpec& spec) {
    ParamSet params = schedulerParams(spec);
    if (spec.name == "fifo") return std::make_unique<FifoSliceScheduler>("fifo", 0.0);
    if (spec.name == "fifo-slice") return std::make_unique<FifoSliceScheduler>("fifo-slice", params.getReal("slice_us"));
    if (spec.name == "rtc") return std::make_unique<RunToCompletionScheduler>();
    return std::make_unique<DepthFirstScheduler>();
}

SchedulerSpec parseSchedulerText(const std::string& text) {
    SchedulerSpec spec;
    auto colon = text.find(':');
    spec.name = text.substr(0, colon);
    if (colon == std::string::npos) return spec;
    std::stringstream rest(text.substr(colon + 1));
    std::string assignment;
    const SchedulerInfo* info = nullptr;
    for (const auto& s : availableSchedulers()) {
        if (s.name == spec.name) info = &s;
    }
    while (std::getline(rest, assignment, ',')) {
        auto equals = assignment.find('=');
        if (equals == std::string::npos) {
            throw std::invalid_argument("scheduler parameter '" + assignment + "' is not key=value");
        }
        std::string key = assignment.substr(0, equals);
        std::string value = assignment.substr(equals + 1);
        const ParamSpec* p = nullptr;
        if (info) {
            for (const auto& candidate : info->params) {
                if (candidate.name == key) p = &candidate;
            }
        }
        if (!p) throw std::invalid_argument("scheduler '" + spec.name + "' has no parameter '" + key + "'");
        std::string why;
        auto parsed = p->parseText(value, why);
        if (!parsed) throw std::invalid_argument("scheduler '" + spec.name + "', parameter '" + key + "': " + why);
        spec.params[key] = paramValueToJson(*parsed);
    }
    return spec;
}

}  // namespace isochron
