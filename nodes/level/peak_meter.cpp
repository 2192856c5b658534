#include "nodes/level/peak_meter.h"

#include "nodes/level/meter.h"

namespace isochron {

OperatorDescriptor peakMeterDescriptor() {
    return meterDescriptor("level.peak_meter", "Peak level meter with ballistics (instant attack, slow release), in dBFS",
                           "The level is |x| smoothed with the attack and release time constants, as 20 log10 (attack 0 s takes every peak at once; with the default 1.7 s release a reading falls 20 dB in 1.7 s x ln 10, about 3.9 s).",
                           MeterDetector::Peak, 0.0, 1.7);
}

}  // namespace isochron
