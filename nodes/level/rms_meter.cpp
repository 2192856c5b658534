#include "nodes/level/rms_meter.h"

#include "nodes/level/meter.h"

namespace isochron {

OperatorDescriptor rmsMeterDescriptor() {
    return meterDescriptor("level.rms_meter", "RMS level meter with ballistics (attack/release), in dBFS",
                           "The level is the mean square of the signal smoothed with the attack and release time constants, as 10 log10 (a sine of amplitude 1 reads -3.01 dB once settled).",
                           MeterDetector::Rms, 0.3, 0.3);
}

}  // namespace isochron
