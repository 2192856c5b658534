#include "nodes/spatial/mvdr_beamformer.h"

#include <cmath>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "nodes/spatial/beamformer.h"

namespace isochron {
namespace {

/// Added to the loading so that silence (a zero covariance) still gives delay-and-sum weights.
constexpr double kLoadingFloor = 1e-30;

/// Per bin: R(k) = exponential average of X X^H; w(k) = (R + d I)^-1 a / (a^H (R + d I)^-1 a), with
/// d = loading * tr(R) / M (diagonal loading, robustness against a look direction a little off).
class MvdrBeamformer final : public Beamformer {
protected:
    void prepare(int mics, std::int64_t bins) override {
        mics_ = mics;
        covariance_.assign(static_cast<std::size_t>(bins), Eigen::MatrixXcd::Zero(mics, mics));
        weights_.assign(static_cast<std::size_t>(bins * mics), {});
        loaded_ = Eigen::MatrixXcd::Zero(mics, mics);
        look_ = Eigen::VectorXcd::Zero(mics);
        solved_ = Eigen::VectorXcd::Zero(mics);
        snapshot_ = Eigen::VectorXcd::Zero(mics);
        cholesky_ = Eigen::LLT<Eigen::MatrixXcd>(mics);
        loading_ = params().getReal("loading");
        averagingSeconds_ = params().getReal("averaging");
        framesSeen_ = 0;
    }

    void combine(std::span<const std::complex<float>* const> spectra, std::span<const std::complex<double>> steering,
                 std::span<std::complex<float>> output) override {
        const auto mics = static_cast<std::size_t>(mics_);
        // Until the average has seen one time constant of frames, weigh frames equally (no bias towards zero).
        ++framesSeen_;
        const double forget = std::exp(-static_cast<double>(hopSamples()) / (frameRateHz() * averagingSeconds_));
        const double keep = std::min(forget, 1.0 - 1.0 / static_cast<double>(framesSeen_));
        for (std::size_t k = 0; k < output.size(); ++k) {
            for (std::size_t m = 0; m < mics; ++m) snapshot_[static_cast<Eigen::Index>(m)] = std::complex<double>(spectra[m][k]);
            Eigen::MatrixXcd& covariance = covariance_[k];
            covariance *= keep;
            covariance.noalias() += (1.0 - keep) * snapshot_ * snapshot_.adjoint();
            const double loading = loading_ * covariance.trace().real() / static_cast<double>(mics_) + kLoadingFloor;
            loaded_ = covariance;
            loaded_.diagonal().array() += loading;
            for (std::size_t m = 0; m < mics; ++m) look_[static_cast<Eigen::Index>(m)] = steering[k * mics + m];
            cholesky_.compute(loaded_);
            solved_ = cholesky_.solve(look_);
            const std::complex<double> gain = look_.dot(solved_);  // a^H (R + d I)^-1 a, real and > 0
            std::complex<double> y;
            for (std::size_t m = 0; m < mics; ++m) {
                const std::complex<double> w = solved_[static_cast<Eigen::Index>(m)] / gain;
                weights_[k * mics + m] = w;
                y += std::conj(w) * snapshot_[static_cast<Eigen::Index>(m)];
            }
            output[k] = std::complex<float>(y);
        }
    }

    void weightsAt(std::int64_t bin, std::span<const std::complex<double>> steering, std::span<std::complex<double>> weights) const override {
        const auto mics = static_cast<std::size_t>(mics_);
        for (std::size_t m = 0; m < mics; ++m) {
            // Before the first frame the covariance is empty: the weights are delay-and-sum's.
            weights[m] = framesSeen_ > 0 ? weights_[static_cast<std::size_t>(bin) * mics + m] : steering[m] / static_cast<double>(mics_);
        }
    }

private:
    int mics_ = 0;
    double loading_ = 0.05;
    double averagingSeconds_ = 0.5;
    std::int64_t framesSeen_ = 0;
    std::vector<Eigen::MatrixXcd> covariance_;       // [bin]
    std::vector<std::complex<double>> weights_;      // [bin * M + mic]: the last frame's
    Eigen::MatrixXcd loaded_;
    Eigen::VectorXcd look_;
    Eigen::VectorXcd solved_;
    Eigen::VectorXcd snapshot_;
    Eigen::LLT<Eigen::MatrixXcd> cholesky_;
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
        "(large loading tends to delay-and-sum). R includes the target (MPDR): a wrong look direction can cancel it, "
        "which loading limits. Steering, frames and outputs as for delay-and-sum; the pattern output shows the adaptive "
        "nulls (set pattern_interval to follow them).";
    d.inputs = beamformerInputs();
    d.outputs = beamformerOutputs();
    d.params = beamformerParameters();
    d.params.push_back(ParamSpec{"averaging", ParamKind::Real, 0.5, 0.001, 3600.0, "s", "time constant of the covariance average"});
    d.params.push_back(ParamSpec{"loading", ParamKind::Real, 0.05, 1e-6, 100.0, "",
                                 "diagonal loading as a fraction of the mean mic power (robustness; large = delay-and-sum)"});
    d.create = [] { return std::make_unique<MvdrBeamformer>(); };
    return d;
}

}  // namespace isochron
