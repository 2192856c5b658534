#include "nodes/filters/biquad_filter.h"

#include "nodes/filters/biquad_cascade.h"
#include "nodes/filters/iir_design.h"
#include "nodes/filters/sample_filter.h"

namespace isochron {
namespace {

/// A SampleFilter running a cascade of biquads designed from its parameters.
class BiquadFilter final : public SampleFilter {
public:
    explicit BiquadFilter(CascadeDesigner designer) : designer_(std::move(designer)) {}

protected:
    void design(double rateHz) override { cascade_.setSections(designer_(params(), rateHz)); }
    void clearState() override { cascade_.reset(); }
    void filter(const float* input, float* output, std::size_t count) override { cascade_.process(input, output, count); }

private:
    CascadeDesigner designer_;
    filters::BiquadCascade cascade_;
};

}  // namespace

std::unique_ptr<Operator> makeBiquadFilter(CascadeDesigner designer) { return std::make_unique<BiquadFilter>(std::move(designer)); }

std::vector<ParamSpec> classicIirParameters() {
    ParamSpec response{"response", ParamKind::Choice, std::string("lowpass"), {}, {}, "", "which band passes; band responses use cutoff_hz to high_cutoff_hz"};
    response.choices = filters::iirResponseNames();
    ParamSpec order{"order", ParamKind::Int, std::int64_t{4}, 1.0, 32.0, "",
                    "order of the lowpass prototype (bandpass and bandstop have twice as many poles)"};
    ParamSpec cutoff{"cutoff_hz", ParamKind::Real, 1000.0, 0.0, 1e7, "Hz", "cutoff (-3 dB for Butterworth, end of the ripple for Chebyshev), or the band's lower edge"};
    cutoff.live = true;
    ParamSpec highCutoff{"high_cutoff_hz", ParamKind::Real, 4000.0, 0.0, 1e7, "Hz", "the band's upper edge (bandpass, bandstop)"};
    highCutoff.live = true;
    return {response, order, cutoff, highCutoff};
}

}  // namespace isochron
