// The operator behind resample.rational and resample.to_rate: a signal<f32> through libsoxr
// (soxr_stream.h) to another rate, with the output's timebase exact.
//
// Timebase: the output runs on the input's clock at the output rate. Output sample m is at the same
// time as input position m x (input rate / output rate): when the stream's first index maps to a
// whole output index (always for streams starting at 0, as files and generators do), the output
// keeps the input's zero time and continues its numbering; otherwise its zero time is the first
// input sample's time (to the nanosecond) and numbering starts at 0. A gap or a new timebase ends
// the current stream (its tail is flushed) and starts a new one the same way.
//
// Progress: libsoxr holds back a filter's length of samples; the operator promises the time of the
// next output sample it has not sent, so a downstream join never waits past what can still come.
#pragma once

#include <functional>

#include "engine/operators/operator.h"

namespace isochron {

/// The output rate in Hz for an input rate in Hz, from a node's parameters; throws
/// std::invalid_argument when it cannot be used. [any thread]
using OutputRateRule = std::function<double(const ParamSet& params, double inputRateHz)>;

/// A fresh resampling operator whose output rate `rule` gives. [setup thread]
std::unique_ptr<Operator> makeResampler(OutputRateRule rule);

/// Parameters every resampler has (quality). [setup]
ParamSpec resampleQualityParameter();

}  // namespace isochron
