// FilterbankOperator: the shared body of the band operators (mel_bands, third_octave_bands): each
// power-spectrum frame in, one value per band out.
//
// The bands depend on the stream's rate, which a frame carries on its range's timebase, so the
// filterbank is designed at the first frame (and again if the rate or the bin count changes): that
// frame allocates, the following ones do not.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/spectral/band_filterbank.h"

namespace isochron {

/// Designs the bands for a node's parameters, a rate (Hz) and an FFT size. Throws std::invalid_argument.
using FilterbankDesign = std::function<std::vector<SpectralBand>(const ParamSet& params, double rateHz, std::int64_t fftSize)>;

/// Applies a designed filterbank to every frame. [engine thread]
class FilterbankOperator final : public Operator {
public:
    explicit FilterbankOperator(FilterbankDesign design) : design_(std::move(design)) {}

protected:
    void onActivate() override;
    void process(int inputPort, Item&& item) override;

private:
    void redesign(double rateHz, std::int64_t binCount);

    FilterbankDesign design_;
    std::vector<SpectralBand> bands_;
    double rateHz_ = 0.0;          // what bands_ was designed for
    std::int64_t binCount_ = 0;
    std::int64_t fftSize_ = 0;     // parameter 'size'; 0 = 2 (bins - 1)
    bool binWidthWeighted_ = false;  // density input: multiply by rate / N to integrate
    bool decibels_ = false;
};

/// The parameters every band operator has: size, input scaling, decibels. [setup]
std::vector<ParamSpec> filterbankParameters();

}  // namespace isochron
