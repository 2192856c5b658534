// The engine's wall clock (Clock::wall): ns since the Unix epoch, cheap enough to read per item.
//
// Sources stamp arrival times and outputs compute latency with it on every item, so it must cost
// a few ns, not a system call. On x86-64 with an invariant TSC (constant and nonstop, the usual
// case and this project's CI) it reads the TSC and scales it with a rate measured once against
// CLOCK_REALTIME at first use; elsewhere it calls clock_gettime. Every engine timestamp comes from
// this one clock, so differences (latencies, pacing) are consistent; its absolute value may drift
// from the system clock by up to about 0.1 ms per second (the rate is measured over 20 ms).
#pragma once

#include "engine/time/timebase.h"

namespace isochron {

/// Now, in ns since the Unix epoch on the engine's clock. [any thread] [no allocation, no system call]
TimeNs wallClockNs();

/// Whether wallClockNs() reads the TSC (true) or falls back to clock_gettime (false).
bool wallClockUsesTsc();

}  // namespace isochron
