#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/schedulers/depth_first.h"
#include "engine/schedulers/fifo_slice.h"
#include "engine/schedulers/qos.h"
#include "engine/schedulers/qos_bucket.h"
#include "engine/schedulers/round_robin.h"
#include "engine/schedulers/run_to_completion.h"
#include "engine/schedulers/scheduler.h"
#include "engine/schedulers/superbox.h"

namespace isochron {

void Scheduler::invoke(NodeContext& target, int port, Item&& item) {
    target.onStack = true;
    Operator::deliverTo(target, port, std::move(item));
    target.onStack = false;
}

void Scheduler::invokeQueued(NodeContext& target, int port) {
    invoke(target, port, target.inputs[static_cast<std::size_t>(port)].queue.pop());
}

std::size_t Scheduler::runTrain(NodeContext& box, std::size_t limit, bool withCheckpoints) {
    // Counts are taken first so a box that feeds itself (a cycle) cannot extend its own train.
    constexpr std::size_t kMaxPorts = 16;
    std::size_t remaining[kMaxPorts];
    const std::size_t ports = std::min(box.inputs.size(), kMaxPorts);
    std::size_t available = 0;
    for (std::size_t p = 0; p < ports; ++p) available += remaining[p] = box.inputs[p].queue.size();
    const std::size_t train = limit == 0 ? available : std::min(limit, available);
    std::size_t ran = 0;
    for (bool progressed = true; ran < train && progressed && !stopRequested();) {
        progressed = false;
        for (std::size_t p = 0; p < ports && ran < train && !stopRequested(); ++p) {
            if (remaining[p] == 0 || box.inputs[p].queue.empty()) continue;
            --remaining[p];
            invokeQueued(box, static_cast<int>(p));
            ++ran;
            progressed = true;
            if (withCheckpoints) checkpoint();
        }
    }
    // Ports past kMaxPorts (rare: wide merges) are served after the others, one item each.
    for (std::size_t p = ports; p < box.inputs.size() && (limit == 0 || ran < limit) && !stopRequested(); ++p) {
        if (box.inputs[p].queue.empty()) continue;
        invokeQueued(box, static_cast<int>(p));
        ++ran;
    }
    return ran;
}

namespace {

ParamSpec burstParam() {
    return ParamSpec{"burst", ParamKind::Int, std::int64_t{0}, 0.0, 1e9, "items",
                     "source rate control: admit at most this many items per source, run to quiescence, "
                     "repeat (0 = off)"};
}

ParamSpec trainParam() {
    return ParamSpec{"train", ParamKind::Int, std::int64_t{0}, 0.0, 1e9, "items",
                     "items a box call takes from the box's queues (0 = all queued)"};
}

ParamSpec workersParam() {
    return ParamSpec{"workers", ParamKind::Int, std::int64_t{1}, 1.0, 64.0, "threads",
                     "threads running superboxes (used when output trees share no box)"};
}

}  // namespace

const std::vector<SchedulerInfo>& availableSchedulers() {
    static const std::vector<SchedulerInfo> schedulers = {
        {"fifo", "round-robin over input queues, one item per turn", {burstParam()}},
        {"fifo-slice", "round-robin over input queues, as many of the items waiting at the turn's start as fit a time slice",
         {ParamSpec{"slice_us", ParamKind::Real, 28.0, 0.0, 1e6, "us", "time slice per turn (0 = one item, i.e. fifo)"},
          burstParam()}},
        {"rtc", "run to completion: drain an operator's queues, then run one successor next", {burstParam()}},
        {"df", "depth first: emitted items run their targets immediately, by reference", {burstParam()}},
        {"rr", "round-robin box-at-a-time: boxes with queued input take turns, each running a train of items",
         {trainParam(), ParamSpec{"train_fraction", ParamKind::Real, 0.0, 0.0, 1.0, "",
                                  "train as a share of the box's queue (0 = use train)"},
          burstParam()}},
        {"superbox-mc", "one superbox per output tree, run in post-order (fewest box calls)", {workersParam(), burstParam()}},
        {"superbox-ml", "one superbox per output tree, boxes by output cost (first outputs soonest)", {workersParam(), burstParam()}},
        {"superbox-mm", "one superbox per output tree, boxes by memory reduction rate (least memory)", {workersParam(), burstParam()}},
        {"qos", "QoS-driven: the box whose items lose utility fastest (then least slack) runs next", {trainParam(), burstParam()}},
        {"qos-bucket", "QoS-driven with priorities bucketed g x s and refilled in batches (less overhead)",
         {ParamSpec{"gradient_buckets", ParamKind::Int, std::int64_t{10}, 1.0, 1000.0, "", "partitions of the utility-gradient range"},
          ParamSpec{"slack_buckets", ParamKind::Int, std::int64_t{10}, 1.0, 1000.0, "", "partitions of the slack range"},
          trainParam(), burstParam()}},
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
    const auto train = [&] { return static_cast<std::size_t>(params.getInt("train")); };
    if (spec.name == "rr") return std::make_unique<RoundRobinScheduler>(train(), params.getReal("train_fraction"));
    const auto workers = [&] { return static_cast<int>(params.getInt("workers")); };
    if (spec.name == "superbox-mc") return std::make_unique<SuperboxScheduler>(Traversal::MinCost, workers());
    if (spec.name == "superbox-ml") return std::make_unique<SuperboxScheduler>(Traversal::MinLatency, workers());
    if (spec.name == "superbox-mm") return std::make_unique<SuperboxScheduler>(Traversal::MinMemory, workers());
    if (spec.name == "qos") return std::make_unique<QosScheduler>(train());
    if (spec.name == "qos-bucket") {
        return std::make_unique<QosBucketScheduler>(static_cast<int>(params.getInt("gradient_buckets")),
                                                    static_cast<int>(params.getInt("slack_buckets")), train());
    }
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
    std::map<std::string, std::string> givenValues;  // key -> its text
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
        // As in graph files: a key given twice is a mistake, not "the last one wins".
        if (const auto [earlier, first] = givenValues.try_emplace(key, value); !first) {
            throw std::invalid_argument("scheduler '" + spec.name + "', parameter '" + key + "' is given twice (" + key + "=" + earlier->second +
                                        " and " + key + "=" + value + "): give it once");
        }
        spec.params[key] = paramValueToJson(*parsed);
    }
    return spec;
}

}  // namespace isochron
