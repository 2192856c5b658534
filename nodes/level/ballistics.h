// Ballistics: how fast a level detector follows its input, as one-pole smoothing with separate
// attack (rising) and release (falling) time constants, the way meters and dynamics processors
// (IEC 60268-10 peak meters, VU-style RMS, compressors) are specified.
#pragma once

#include <cmath>

namespace isochron {

/// The per-sample smoothing coefficient of time constant `seconds` at `rateHz`: after `seconds` the
/// smoothed value has covered 1 - 1/e of a step. 0 s (or less) follows at once (coefficient 1). [no allocation]
inline double smoothingCoefficient(double seconds, double rateHz) {
    return seconds <= 0.0 ? 1.0 : 1.0 - std::exp(-1.0 / (seconds * rateHz));
}

/// A value following its target with attack and release time constants. [value type] [no allocation]
class Ballistics {
public:
    /// Time constants in seconds (>= 0) at `rateHz`.
    void configure(double attackSeconds, double releaseSeconds, double rateHz) {
        attack_ = smoothingCoefficient(attackSeconds, rateHz);
        release_ = smoothingCoefficient(releaseSeconds, rateHz);
    }
    /// One step towards `target`; returns the new value.
    double follow(double target) {
        value_ += (target - value_) * (target > value_ ? attack_ : release_);
        return value_;
    }
    double value() const { return value_; }
    void reset(double value = 0.0) { value_ = value; }

private:
    double attack_ = 1.0;
    double release_ = 1.0;
    double value_ = 0.0;
};

}  // namespace isochron
