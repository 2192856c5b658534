#include "nodes/spatial/mvdr_beamformer.h"

#include <cmath>
#include <vector>

#include "nodes/spatial/beamformer.h"
#include "nodes/spectral/short_time_parameters.h"

namespace isochron {
namespace {

/// Added to the loading so that silence (a zero covariance) still gives delay-and-sum weights.
constexpr double kLoadingFloor = 1e-30;

/// Solves A z = b for Hermitian positive definite A (M x M, row-major; overwritten by its Cholesky
/// factor L, A = L L^H, in the lower triangle). Small M, every bin of every frame: plain loops beat
/// a general matrix library's dispatch here. [no allocation]
void choleskySolve(std::complex<double>* a, std::size_t m, const std::complex<double>* b, std::complex<double>* z) {
    for (std::size_t j = 0; j < m; ++j) {
        double diagonal = a[j * m + j].real();
        for (std::size_t k = 0; k < j; ++k) diagonal -= std::norm(a[j * m + k]);
        const double root = std::sqrt(diagonal);
        a[j * m + j] = root;
        for (std::size_t i = j + 1; i < m; ++i) {
            std::complex<double> sum = a[i * m + j];
            for (std::size_t k = 0; k < j; ++k) sum -= a[i * m + k] * std::conj(a[j * m + k]);
            a[i * m + j] = sum / root;
        }
    }
    for (std::size_t i = 0; i < m; ++i) {  // L y = b
        std::complex<double> sum = b[i];
        for (std::size_t k = 0; k < i; ++k) sum -= a[i * m + k] * z[k];
        z[i] = sum / a[i * m + i].real();
    }
    for (std::size_t i = m; i-- > 0;) {  // L^H z = y
        std::complex<double> sum = z[i];
        for (std::size_t k = i + 1; k < m; ++k) sum -= std::conj(a[k * m + i]) * z[k];
        z[i] = sum / a[i * m + i].real();
    }
}

/// Per bin: R(k) = exponential average of X X^H; w(k) = (R + d I)^-1 a / (a^H (R + d I)^-1 a), with
/// d = loading * tr(R) / M (diagonal loading, robustness against a look direction a little off).
class MvdrBeamformer final : public Beamformer {
protected:
    void prepare(int mics, std::int64_t bins) override {
        mics_ = static_cast<std::size_t>(mics);
        covariance_.assign(static_cast<std::size_t>(bins) * mics_ * mics_, {});
        weights_.assign(static_cast<std::size_t>(bins) * mics_, {});
        loaded_.assign(mics_ * mics_, {});
        snapshot_.assign(mics_, {});
        loading_ = params().getReal("loading");
        averagingSeconds_ = params().getReal("averaging");
        framesSeen_ = 0;
    }

    void combine(std::span<const std::complex<float>* const> spectra, std::span<const std::complex<double>> steering,
                 std::span<std::complex<float>> output) override {
        const std::size_t m = mics_;
        // Until the average has seen one time constant of frames, weigh frames equally (no bias towards zero).
        ++framesSeen_;
        const double forget = std::exp(-static_cast<double>(hopSamples()) / (frameRateHz() * averagingSeconds_));
        const double keep = std::min(forget, 1.0 - 1.0 / static_cast<double>(framesSeen_));
        for (std::size_t k = 0; k < output.size(); ++k) {
            for (std::size_t i = 0; i < m; ++i) snapshot_[i] = std::complex<double>(spectra[i][k]);
            std::complex<double>* covariance = covariance_.data() + k * m * m;
            double trace = 0.0;
            for (std::size_t i = 0; i < m; ++i) {
                for (std::size_t j = 0; j <= i; ++j) {  // the lower triangle is all the solver reads
                    std::complex<double>& r = covariance[i * m + j];
                    r = keep * r + (1.0 - keep) * snapshot_[i] * std::conj(snapshot_[j]);
                    loaded_[i * m + j] = r;
                }
                trace += covariance[i * m + i].real();
            }
            const double loading = loading_ * trace / static_cast<double>(m) + kLoadingFloor;
            for (std::size_t i = 0; i < m; ++i) loaded_[i * m + i] += loading;
            const std::complex<double>* look = steering.data() + k * m;
            std::complex<double>* w = weights_.data() + k * m;
            choleskySolve(loaded_.data(), m, look, w);
            std::complex<double> gain;  // a^H (R + d I)^-1 a, real and > 0
            for (std::size_t i = 0; i < m; ++i) gain += std::conj(look[i]) * w[i];
            std::complex<double> y;
            for (std::size_t i = 0; i < m; ++i) {
                w[i] /= gain.real();
                y += std::conj(w[i]) * snapshot_[i];
            }
            output[k] = std::complex<float>(y);
        }
    }

    void weightsAt(std::int64_t bin, std::span<const std::complex<double>> steering, std::span<std::complex<double>> weights) const override {
        for (std::size_t i = 0; i < mics_; ++i) {
            // Before the first frame the covariance is empty: the weights are delay-and-sum's.
            weights[i] = framesSeen_ > 0 ? weights_[static_cast<std::size_t>(bin) * mics_ + i] : steering[i] / static_cast<double>(mics_);
        }
    }

private:
    std::size_t mics_ = 0;
    double loading_ = 0.05;
    double averagingSeconds_ = 0.5;
    std::int64_t framesSeen_ = 0;
    std::vector<std::complex<double>> covariance_;  // [bin][i * M + j], lower triangle (i >= j)
    std::vector<std::complex<double>> weights_;     // [bin * M + mic]: the last frame's
    std::vector<std::complex<double>> loaded_;      // R + d I of the bin being solved, then its Cholesky factor
    std::vector<std::complex<double>> snapshot_;    // X(k) of the frame
};

}  // namespace

OperatorDescriptor mvdrBeamformerDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spatial.mvdr_beamformer";
    d.category = "spatial";
    d.summary = "Listens in one direction, nulling the others: MVDR beamformer steered at a fixed direction or a tracked source";
    d.documentation =
        "Framed and transformed as spatial.delay_and_sum_beamformer. Per bin, the mics' covariance R is averaged over "
        "frames (time constant 'averaging') and the weights w = (R + d I)^-1 a / (a^H (R + d I)^-1 a) pass the look "
        "direction a unchanged (distortionless) while minimising everything else, which puts nulls on loud sources "
        "elsewhere; d = loading x the mean mic power keeps the beam robust when the look direction is a few degrees off "
        "(large loading tends to delay-and-sum). R includes the target (MPDR): a wrong look direction, or reverberation, "
        "can cancel part of it, which loading limits. Steering, frames and outputs as for delay-and-sum; the pattern "
        "output shows the adaptive nulls (set pattern_interval to follow them).";
    d.inputs = beamformerInputs();
    d.outputs = beamformerOutputs();
    d.params = beamformerParameters();
    d.deriveParams = checkShortTimeSettings;
    d.params.push_back(ParamSpec{"averaging", ParamKind::Real, 0.5, 0.001, 3600.0, "s", "time constant of the covariance average"});
    d.params.push_back(ParamSpec{"loading", ParamKind::Real, 0.05, 1e-6, 100.0, "",
                                 "diagonal loading as a fraction of the mean mic power (robustness; large = delay-and-sum)"});
    d.create = [] { return std::make_unique<MvdrBeamformer>(); };
    return d;
}

}  // namespace isochron
