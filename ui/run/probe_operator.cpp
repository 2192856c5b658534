#include "ui/run/probe_operator.h"

#include "engine/operators/operator.h"
#include "ui/run/probe_ring.h"

namespace isochron::ui {
namespace {

/// Signal<f32> samples, frame<f32> values (one frame after another) or scalar values into a ring.
class ProbeOperator final : public Operator {
protected:
    void onActivate() override {
        ring_ = ProbeRegistry::instance().find(params().getString("probe"));
        if (!ring_) throw OperatorError("no probe named '" + params().getString("probe") + "'");
    }

    void process(int, Item&& item) override {
        switch (item.kind()) {
            case ItemKind::Signal:
            case ItemKind::Frame: {
                if (item.sampleType() != SampleType::Float32) return;
                const auto values = item.signal<float>();
                const SampleRange range = item.range();
                ring_->describe(item.kind() == ItemKind::Frame ? static_cast<int>(values.length()) : 0,
                                range.timebase ? range.timebase->rateHz() : 0.0);
                values.forEachSpan([&](std::span<const float> run) { ring_->write(run.data(), run.size()); });
                return;
            }
            case ItemKind::Scalar: {
                const float value = static_cast<float>(item.value());
                ring_->describe(0, 0.0);
                ring_->write(&value, 1);
                return;
            }
            default: return;
        }
    }

private:
    std::shared_ptr<ProbeRing> ring_;
};

}  // namespace

void registerProbeOperator(OperatorRegistry& registry) {
    if (registry.find(kProbeType)) return;
    OperatorDescriptor d;
    d.typeName = kProbeType;
    d.category = "editor";
    d.summary = "The editor's probe on a wire (scope or spectrum); added while running, never saved";
    d.inputs = {PortSpec{"in", PortType::any(), "the probed wire's items"}};
    d.params = {ParamSpec{"probe", ParamKind::String, std::string(), {}, {}, "", "key of the probe's ring"}};
    d.create = [] { return std::make_unique<ProbeOperator>(); };
    d.origin = "editor";
    registry.add(std::move(d));
}

}  // namespace isochron::ui
