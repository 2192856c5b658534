// STATFILTER as one hand-written loop: the ceiling the engine is measured against.
#pragma once

#include "app/bench/benchmark.h"

namespace isochron::bench {

/// Samples per second the fused loop (statfilter_loop.cpp) sustains on `context.input` for
/// `context.seconds`, and the windows it passed per pass over the input. [value type]
struct LoopRun {
    double samplesPerSecond = 0;
    double windowsPassedPerPass = 0;
    double seconds = 0;
};
LoopRun runStatfilterLoop(const BenchContext& context);

}  // namespace isochron::bench
