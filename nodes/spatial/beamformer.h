// Beamformer: the shared body of the frequency-domain beamformers (delay-and-sum, MVDR): M mic
// signals in, one signal out, listening in one direction that may follow a tracked source.
//
// Each mic's signal is cut into frames (StftFramer, edges padded) and transformed (WindowedSpectrum);
// per bin k the M spectra X(k) become Y(k) = w(k)^H X(k), where the weights come from the array's
// geometry and the look direction; Y is overlap-added back into a signal (OverlapAdd) on the mics'
// timebase, sample n of the output lining up with sample n of the inputs. With weights whose
// response towards the look direction is 1, a plane wave from there comes out as it would be heard
// at the array's origin.
//
// Steering: the optional `steer` input takes direction events (SteeringSchedule). A frame is
// processed only once progress on `steer` has passed its centre, so every event that should steer
// it has arrived; the result is then the same under every scheduler and input split. The price is
// latency: audio waits for the localizer (the mic frames are held as views, not copied).
//
// The `pattern` output tells what the array hears from where: at the first frame and whenever the
// look direction changes (and every pattern_interval seconds if set), the beam pattern
// |w^H a(u)|^2 in dB at pattern_hz over azimuths 0, step, ... < 360 at the look elevation.
//
// Allocation: frames use pool storage only; a change of look direction (steering vectors) and each
// pattern (per-direction delays) allocate from the system, as rare events do elsewhere.
#pragma once

#include <complex>
#include <optional>
#include <span>
#include <vector>

#include "engine/operators/operator.h"
#include "engine/runtime/ring_buffer.h"
#include "nodes/spatial/array_geometry.h"
#include "nodes/spatial/steering_schedule.h"
#include "nodes/spectral/overlap_add.h"
#include "nodes/spectral/stft_framer.h"
#include "nodes/spectral/windowed_spectrum.h"

namespace isochron {

/// Base of the beamforming operators; subclasses choose the weights. [engine thread]
class Beamformer : public Operator {
protected:
    void onActivate() final;
    void process(int inputPort, Item&& item) final;
    TimeNs onProgress(TimeNs inputProgress) final;
    void onFinish() final;
    void onParameterChanged(std::string_view name) final;

    /// Prepare for `mics` mics and `bins` bins per frame. [in onActivate, may allocate]
    virtual void prepare(int mics, std::int64_t bins) = 0;
    /// One frame: spectra[m][k] is mic m's bin k, steering[k * mics + m] the look direction's
    /// a_m(f_k); write Y(k) = w(k)^H X(k) to `output` (bins values). [no allocation]
    virtual void combine(std::span<const std::complex<float>* const> spectra, std::span<const std::complex<double>> steering,
                         std::span<std::complex<float>> output) = 0;
    /// The weights the last combine() used at bin k (the look direction's, before any frame). [no allocation]
    virtual void weightsAt(std::int64_t bin, std::span<const std::complex<double>> steering, std::span<std::complex<double>> weights) const = 0;

    /// Mic count (inputs in0 .. in{M-1}).
    int micCount() const { return micCount_; }
    /// Rate of the frame being combined, in Hz. [no allocation]
    double frameRateHz() const { return steeredRateHz_; }
    /// Samples between frames.
    std::int64_t hopSamples() const { return synthesis_->hop(); }

private:
    struct HeldFrame {
        SigSeg<float> samples;
        SampleRange range;
    };

    void frameReady(int mic, const SigSeg<float>& samples, const SampleRange& range);
    /// Process every frame that all mics have delivered and that no steering event can still change.
    void processReadyFrames();
    /// Drop the oldest frames when the mics' next frames do not line up; true when they do.
    bool alignFronts();
    void processFrame();
    void updateSteering(const LookAngles& angles, double rateHz);
    void emitPattern(const SampleRange& range);

    std::optional<ArrayGeometry> geometry_;
    double speedOfSound_ = kSpeedOfSoundMetresPerSecond;
    int micCount_ = 0;
    int steerPort_ = 0;
    std::vector<StftFramer> framers_;                 // [mic]
    std::vector<RingBuffer<HeldFrame>> held_;         // [mic]: frames waiting to be combined
    std::optional<WindowedSpectrum> analysis_;
    std::optional<OverlapAdd> synthesis_;
    std::optional<SteeringSchedule> schedule_;
    std::vector<SigSeg<std::complex<float>>> spectra_;  // [mic]: the current frame's bins (aligned)
    std::vector<std::complex<float>*> spectrumRows_;      // [mic]: spectra_[mic]'s bins, written by the analysis
    std::vector<const std::complex<float>*> spectrumViews_;  // the same, read by combine()
    SigSeg<std::complex<float>> combined_;
    std::vector<std::complex<double>> steering_;      // [bin * M + mic]
    std::optional<LookAngles> steeredAt_;             // the angles steering_ holds
    double steeredRateHz_ = 0.0;
    bool patternDue_ = true;
    TimeNs nextPatternNs_ = 0;
    TimeNs patternIntervalNs_ = 0;                    // 0: only on steering changes
    double patternHz_ = 1000.0;
    std::vector<double> patternAzimuths_;
    std::vector<std::complex<double>> patternWeights_;
    bool warnedMisaligned_ = false;
    bool warnedSteering_ = false;
};

/// The parameters every beamformer has (geometry, steering, frames, pattern). [setup]
std::vector<ParamSpec> beamformerParameters();
/// Inputs in0.. (counted by `channels`) and the optional `steer` events. [setup]
std::vector<PortSpec> beamformerInputs();
/// Outputs `out` (the beam's signal) and `pattern` (its beam pattern). [setup]
std::vector<PortSpec> beamformerOutputs();

}  // namespace isochron
