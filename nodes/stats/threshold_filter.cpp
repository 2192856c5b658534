#include "nodes/stats/threshold_filter.h"

#include "engine/operators/operator.h"
#include "nodes/kernels/window_statistics.h"

namespace isochron {
namespace {

/// Forwards (moves) each segment whose statistic lies on the `pass` side of `threshold`.
class ThresholdFilter final : public Operator {
public:
    explicit ThresholdFilter(FilteredStatistic statistic) : statistic_(statistic) {}

protected:
    void onActivate() override {
        passAbove_ = params().getString("pass") == "above";
        threshold_ = params().getReal("threshold");
    }

    void process(int, Item&& item) override {
        const kernels::WindowStatistics stats = kernels::windowStatistics(item.segment());
        const double value = statistic_ == FilteredStatistic::Mean ? stats.mean : stats.stddev;
        // Strict comparisons: an empty segment (NaN statistics) never passes.
        const bool passes = passAbove_ ? value > threshold_ : value < threshold_;
        if (passes) emit(0, std::move(item));
    }

    void onParameterChanged(std::string_view name) override {
        if (name == "threshold") threshold_ = params().getReal("threshold");
    }

private:
    FilteredStatistic statistic_;
    bool passAbove_ = true;
    double threshold_ = 0.0;
};

}  // namespace

OperatorDescriptor thresholdFilterDescriptor(const ThresholdFilterTraits& traits) {
    const char* statisticName = traits.statistic == FilteredStatistic::Mean ? "mean" : "population standard deviation";
    OperatorDescriptor d;
    d.typeName = traits.typeName;
    d.category = "stats";
    d.summary = traits.summary;
    d.documentation = std::string("Computes the ") + statisticName +
                      " of each input segment over its storage pieces (vectorized, no copy) and forwards the "
                      "segment itself when the statistic is above (pass = above) or below (pass = below) the "
                      "threshold; other segments are dropped. The threshold can change while running.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "segments to test, e.g. windows"}};
    d.outputs = {PortSpec{"out", PortType::anySignal(), "the segments that pass, unchanged", false, "", "in"}};
    ParamSpec threshold{"threshold", ParamKind::Real, traits.defaultThreshold, traits.minimumThreshold, {}, "",
                        std::string("limit for the ") + statisticName + ", in the samples' unit"};
    threshold.live = true;
    ParamSpec pass{"pass", ParamKind::Choice, traits.defaultPass, {}, {}, "",
                   "which segments pass: statistic above (>) or below (<) the threshold"};
    pass.choices = {"above", "below"};
    d.params = {threshold, pass};
    const FilteredStatistic statistic = traits.statistic;
    d.create = [statistic] { return std::make_unique<ThresholdFilter>(statistic); };
    return d;
}

}  // namespace isochron
