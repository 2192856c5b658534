// Meter: the base of level meters (RMS, peak). It runs a detector with ballistics over every sample
// and reports the level in dB once per interval of `interval` samples (ending at sample indices
// that are multiples of it), as a scalar covering that interval.
#pragma once

#include <cstdint>

#include "engine/operators/operator.h"
#include "nodes/level/ballistics.h"

namespace isochron {

/// What a meter measures.
enum class MeterDetector {
    Rms,   ///< x^2 smoothed, reported as 10 log10
    Peak,  ///< |x| smoothed, reported as 20 log10
};

/// A level meter over signal<f32> with scalar dB readings. [engine thread]
class Meter final : public Operator {
public:
    explicit Meter(MeterDetector detector) : detector_(detector) {}

protected:
    void onActivate() override;
    void process(int inputPort, Item&& item) override;
    TimeNs onProgress(TimeNs inputProgress) override;
    void onFinish() override;

private:
    void report(std::int64_t end);
    double levelDb() const;

    MeterDetector detector_;
    Ballistics ballistics_;
    const Timebase* timebase_ = nullptr;
    std::int64_t interval_ = 1024;
    double floorDb_ = -120.0;
    std::int64_t intervalStart_ = 0;  // first sample of the interval being measured
    std::int64_t intervalEnd_ = 0;    // one past its last index (a multiple of interval_)
    std::int64_t next_ = 0;           // index of the next sample expected
    bool measuring_ = false;          // samples of the current interval arrived
};

/// The descriptor of a meter type (`typeName`, `summary`) with the shared ports and parameters. [may allocate]
OperatorDescriptor meterDescriptor(std::string typeName, std::string summary, std::string documentation, MeterDetector detector,
                                   double attackSeconds, double releaseSeconds);

}  // namespace isochron
