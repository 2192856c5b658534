// Calibrated busy work: a loop of dependent integer steps whose speed is measured once per process,
// so an operator can cost a set number of microseconds of real CPU work (not sleeping, not
// watching a clock: a preempted box still owes all of its work, as a real one would).
#pragma once

#include <cstdint>

#include "engine/time/timebase.h"

namespace isochron {

/// Iterations of spinIterations() per microsecond on this machine: the best of several short
/// timed runs, measured at the first call (about 10 ms). [any thread; thread-safe]
double busyIterationsPerMicrosecond();

/// Iterations that take `microseconds` (>= 0) of CPU time. [any thread]
std::uint64_t busyIterationsFor(double microseconds);

/// Run `iterations` steps of a dependent multiply-add chain the compiler cannot shorten.
/// [any thread] [no allocation]
void spinIterations(std::uint64_t iterations);

/// Wall-clock ns this thread has spent in spinIterations() so far: the busy work actually done,
/// however fast the core ran it (a benchmark's overhead is its CPU time beyond this). [this thread]
std::int64_t busyNanosecondsOnThisThread();

}  // namespace isochron
