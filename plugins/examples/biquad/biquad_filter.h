// The operator "biquad.filter": one second-order IIR section over a float signal.
#pragma once

#include <isochron/isochron.hpp>

namespace biquad {

/// The type biquad.filter: signal<f32> in, the filtered signal<f32> out (same sample indices);
/// parameters response, frequency_hz and q (the last two live). [setup thread] [may allocate]
isochron::sdk::OperatorType filterType();

}  // namespace biquad
