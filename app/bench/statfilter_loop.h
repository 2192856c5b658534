// STATFILTER as one hand-written loop: the ceiling the engine is measured against.
#pragma once

#include "app/bench/benchmark.h"

namespace isochron::bench {

/// What the fused loop (statfilter_loop.cpp) did on `context.input` in `context.seconds`. [value type]
struct LoopRun {
    double samplesPerSecond = 0;     ///< per second of wall time
    double samplesPerCpuSecond = 0;  ///< per second of the thread's CPU time (steadier on a shared machine)
    double windowsPassedPerPass = 0;
    double seconds = 0;
};
LoopRun runStatfilterLoop(const BenchContext& context);

}  // namespace isochron::bench
