#include "nodes/workload/universal_box.h"

#include <cmath>
#include <cstdint>

#include "engine/operators/operator.h"
#include "nodes/workload/busy_work.h"

namespace isochron {
namespace {

/// Selectivity is applied in millionths, so the pass pattern is exact integer arithmetic.
constexpr std::int64_t kSelectivityScale = 1'000'000;

/// Spends cost_us of busy work on every item from any input, then forwards it when the count of
/// items passed so far falls behind floor(items received x selectivity).
class UniversalBox final : public Operator {
protected:
    void onActivate() override {
        readCost();
        readSelectivity();
    }

    void process(int, Item&& item) override {
        spinIterations(iterationsPerItem_);
        ++received_;
        if (received_ * selectivityMillionths_ / kSelectivityScale > passed_) {
            ++passed_;
            emit(0, std::move(item));
        }
    }

    void onParameterChanged(std::string_view name) override {
        if (name == "cost_us") readCost();
        if (name == "selectivity") readSelectivity();
    }

private:
    void readCost() { iterationsPerItem_ = busyIterationsFor(params().getReal("cost_us")); }

    /// A new selectivity starts a new pattern (counting from the next item).
    void readSelectivity() {
        selectivityMillionths_ = std::llround(params().getReal("selectivity") * kSelectivityScale);
        received_ = 0;
        passed_ = 0;
    }

    std::uint64_t iterationsPerItem_ = 0;
    std::int64_t selectivityMillionths_ = kSelectivityScale;
    std::int64_t received_ = 0;  // since the selectivity was last set
    std::int64_t passed_ = 0;
};

}  // namespace

OperatorDescriptor universalBoxDescriptor() {
    OperatorDescriptor d;
    d.typeName = "workload.universal_box";
    d.category = "workload";
    d.summary = "Stand-in operator: set CPU cost per item and set selectivity (Aurora's universal box)";
    d.documentation =
        "Every item, from any input, costs cost_us microseconds of busy work (a calibrated loop, so the "
        "cost is CPU time: a preempted box still owes all of it). Of the first n items, exactly "
        "floor(n x selectivity) are forwarded, spread evenly: selectivity 0.5 passes every second item. "
        "Items are forwarded unchanged, arrival time included.";
    d.inputs = {PortSpec{"in", PortType::any(), "items of any type, merged in arrival order", false, "inputs"}};
    d.outputs = {PortSpec{"out", PortType::any(), "the items passed on", false, "", "in"}};
    d.params = {
        ParamSpec{"inputs", ParamKind::Int, std::int64_t{1}, 1.0, 1024.0, "", "number of inputs (a union of that many streams)"},
        ParamSpec{"cost_us", ParamKind::Real, 0.0, 0.0, 1e6, "us", "CPU work per item", {}, true},
        ParamSpec{"selectivity", ParamKind::Real, 1.0, 0.0, 1.0, "",
                  "share of the items passed on (resolution 1e-6; a change restarts the pattern)", {}, true},
    };
    d.create = [] { return std::make_unique<UniversalBox>(); };
    d.passesEveryItem = [](const ParamSet& params) { return std::llround(params.getReal("selectivity") * kSelectivityScale) >= kSelectivityScale; };
    return d;
}

}  // namespace isochron
