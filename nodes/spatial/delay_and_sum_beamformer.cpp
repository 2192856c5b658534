#include "nodes/spatial/delay_and_sum_beamformer.h"

#include "nodes/spatial/beamformer.h"
#include "nodes/spectral/short_time_parameters.h"

namespace isochron {
namespace {

/// w(k) = a(k) / M: every mic delayed onto the look direction's wavefront, then averaged.
class DelayAndSumBeamformer final : public Beamformer {
protected:
    void prepare(int mics, std::int64_t) override { inverseCount_ = 1.0f / static_cast<float>(mics); }

    void combine(std::span<const std::complex<float>* const> spectra, std::span<const std::complex<double>> steering,
                 std::span<std::complex<float>> output) override {
        const std::size_t mics = spectra.size();
        for (std::size_t k = 0; k < output.size(); ++k) {
            std::complex<float> sum;
            const std::complex<double>* a = steering.data() + k * mics;
            for (std::size_t m = 0; m < mics; ++m) sum += std::conj(std::complex<float>(a[m])) * spectra[m][k];
            output[k] = sum * inverseCount_;
        }
    }

    void weightsAt(std::int64_t, std::span<const std::complex<double>> steering, std::span<std::complex<double>> weights) const override {
        for (std::size_t m = 0; m < weights.size(); ++m) weights[m] = steering[m] * static_cast<double>(inverseCount_);
    }

private:
    float inverseCount_ = 1.0f;
};

}  // namespace

OperatorDescriptor delayAndSumBeamformerDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spatial.delay_and_sum_beamformer";
    d.category = "spatial";
    d.summary = "Listens in one direction: delay-and-sum beamformer steered at a fixed direction or a tracked source";
    d.documentation =
        "Each mic's signal is cut into frames (size, hop, window; edges padded) and transformed; per bin the mics are "
        "phase-aligned on a far-field plane wave from the look direction and averaged, Y = (1/M) sum_m e^{i 2 pi f tau_m} X_m "
        "(tau_m: mic m's delay from the geometry), and the frames are overlap-added back into one signal, sample n of the "
        "output beside sample n of the inputs. Sound from the look direction comes out as heard at the array's origin; "
        "from elsewhere it is attenuated by the array's beam pattern (pattern output). The look direction is azimuth_deg / "
        "elevation_deg until events on 'steer' (e.g. spatial.bearing_tracker's, or any with azimuth_deg) move it, each "
        "from the start of its range; track_id keeps one track's. Frames wait until progress on 'steer' passes them, so "
        "the output is the same under every scheduler (and lags the localizer).";
    d.inputs = beamformerInputs();
    d.outputs = beamformerOutputs();
    d.params = beamformerParameters();
    d.deriveParams = checkShortTimeSettings;
    d.create = [] { return std::make_unique<DelayAndSumBeamformer>(); };
    return d;
}

}  // namespace isochron
