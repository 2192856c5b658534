#include "engine/time/wall_clock.h"

#include <cmath>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <string>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace isochron {
namespace {

#if defined(__x86_64__)
__extension__ typedef __int128 WideProduct;  // ticks x 32.32 fixed point without overflow (GCC and Clang)
#endif

TimeNs systemRealtimeNs() {
    timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<TimeNs>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

struct TscScale {
    bool usable = false;
    std::int64_t nsPerTickQ32 = 0;  // ns per tick in 32.32 fixed point: a multiply and a shift per read
    unsigned long long tickZero = 0;
    TimeNs wallZero = 0;
};

// The kernel's own verdict: it lists constant_tsc and nonstop_tsc only when the TSC ticks at a
// fixed rate through frequency changes and sleep states.
bool invariantTsc() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("flags", 0) != 0) continue;
        return line.find(" constant_tsc") != std::string::npos && line.find(" nonstop_tsc") != std::string::npos;
    }
    return false;
}

// Out of line: wallClockNs() inlines only the test that the scale is ready.
[[gnu::noinline, gnu::cold]] TscScale calibrate() {
    TscScale scale;
#if defined(__x86_64__)
    if (!invariantTsc()) return scale;
    // Measure the tick rate over ~20 ms against CLOCK_REALTIME. Each reading is bracketed by two
    // TSC reads and kept only if the bracket is tight: a thread preempted inside one (common on a
    // loaded 2-core machine) would otherwise skew the rate by milliseconds over 20 ms.
    auto sample = [](TimeNs& wall, unsigned long long& ticks) {
        unsigned long long bestWidth = ~0ULL;
        for (int attempt = 0; attempt < 50; ++attempt) {
            const unsigned long long before = __rdtsc();
            const TimeNs now = systemRealtimeNs();
            const unsigned long long after = __rdtsc();
            if (after - before < bestWidth) {
                bestWidth = after - before;
                wall = now;
                ticks = before + (after - before) / 2;
            }
            if (bestWidth < 2000) break;  // under ~1 us at any plausible TSC rate
        }
    };
    TimeNs wall0, wall1;
    unsigned long long ticks0, ticks1;
    sample(wall0, ticks0);
    do {
        sample(wall1, ticks1);
    } while (wall1 - wall0 < 20'000'000);
    if (ticks1 <= ticks0) return scale;
    const double nsPerTick = static_cast<double>(wall1 - wall0) / static_cast<double>(ticks1 - ticks0);
    scale.nsPerTickQ32 = std::llround(std::ldexp(nsPerTick, 32));
    scale.tickZero = ticks1;
    scale.wallZero = wall1;
    scale.usable = nsPerTick > 0.01 && nsPerTick < 100.0;
#endif
    return scale;
}

const TscScale& tscScale() {
    static const TscScale scale = calibrate();
    return scale;
}

}  // namespace

TimeNs wallClockNs() {
#if defined(__x86_64__)
    const TscScale& scale = tscScale();
    if (scale.usable) {
        // Integer scaling: converting to double and back cost as much as the TSC read itself.
        const long long ticks = static_cast<long long>(__rdtsc() - scale.tickZero);
        return scale.wallZero + static_cast<TimeNs>((static_cast<WideProduct>(ticks) * scale.nsPerTickQ32) >> 32);
    }
#endif
    return systemRealtimeNs();
}

bool wallClockUsesTsc() { return tscScale().usable; }

}  // namespace isochron
