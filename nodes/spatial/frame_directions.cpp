#include "nodes/spatial/frame_directions.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/detect/activity_frame.h"
#include "nodes/spatial/array_geometry.h"
#include "nodes/spatial/direction_frame.h"
#include "nodes/spatial/noise_covariance.h"
#include "nodes/spatial/pair_lag_tables.h"
#include "nodes/spatial/srp_peak_search.h"
#include "nodes/spatial/subspace_projector.h"

namespace isochron {
namespace {

constexpr double kNoiseWarmupSeconds = 0.3;  // the noise covariance does not learn before this
constexpr double kSubspaceSeconds = 0.05;   // MUSIC's covariance: a few frames (one has rank 1)
constexpr double kBackgroundSeconds = 0.5;   // time between two looks for the noise's own directions
constexpr double kBackgroundBins = 1.0;      // directional noise in fewer (directivity-weighted) bins is no source
constexpr double kBackgroundContrast = 0.2;  // (peak - mean) / (1 - mean) of a steady source's direction
constexpr std::int64_t kLongestFrame = 16384;  // spatial.array_stft's largest 'frame'
constexpr std::string_view kStftType = "spatial.array_stft";

/// Per frame: the PHAT-weighted cross-spectrum of every mic pair over the bins that hold sound,
///   Psi_mn(k) = w(k) (X_m X_n^* - s N_mn(k)) / (|X_m| |X_n|),
/// w the activity's signal weight (0 for bins of noise), N the noise cross-spectral matrix (averaged
/// over frames where the activity says no sound is present, time constant noise_time_constant) and s
/// the subtraction strength; then the steered response
///   P(u) = sum_k sum_pairs Re(Psi_mn(k) e^{i w_k tau_mn(u)}) / (pairs x sum_k w(k)),   in [-1, 1],
/// through lag tables (pair_lag_tables.h) and its peaks, coarse to fine (srp_peak_search.h).
/// Subtracting N removes, on average, what a steady directional noise (a fan) adds to each pair, so
/// it does not pull the peaks towards itself where it is as loud as the sound.
class FrameDirections final : public Operator {
protected:
    void onActivate() override {
        try {
            geometry_ = loadGeometry(params().getString("geometry"));
        } catch (const std::invalid_argument& e) {
            throw OperatorError(std::string("geometry: ") + e.what());
        }
        bandLowHz_ = params().getReal("band_low_hz");
        bandHighHz_ = params().getReal("band_high_hz");
        if (bandHighHz_ >= 0.0 && bandLowHz_ > bandHighHz_) {
            throw OperatorError("band_low_hz " + std::to_string(bandLowHz_) + " is above band_high_hz " + std::to_string(bandHighHz_));
        }
        search_.azimuthStepDegrees = params().getReal("azimuth_step_deg");
        search_.elevationMinDegrees = params().getReal("elevation_min_deg");
        search_.elevationMaxDegrees = params().getReal("elevation_max_deg");
        search_.elevationStepDegrees = params().getReal("elevation_step_deg");
        search_.suppressionDegrees = params().getReal("suppression_deg");
        if (search_.elevationMinDegrees > search_.elevationMaxDegrees) {
            throw OperatorError("elevation_min_deg " + std::to_string(search_.elevationMinDegrees) + " is above elevation_max_deg " +
                                std::to_string(search_.elevationMaxDegrees));
        }
        maxPeaks_ = static_cast<int>(params().getInt("peaks"));
        minimumSignalBins_ = params().getReal("min_signal_bins");
        subtraction_ = static_cast<float>(params().getReal("noise_subtraction"));
        noiseSeconds_ = params().getReal("noise_time_constant");
        onsetEmphasis_ = static_cast<float>(params().getReal("onset_emphasis"));
        projection_ = static_cast<float>(params().getReal("noise_projection"));
        method_ = params().getString("method");
        whitenSubspace_ = method_ == "gevd_music";
        sources_ = static_cast<int>(params().getInt("sources"));
        subspaceBins_ = static_cast<int>(params().getInt("subspace_bins"));
        directivityThreshold_ = static_cast<float>(params().getReal("directivity_threshold"));

        frameSize_ = 0;
    }

    void process(int, Item&& item) override {
        const auto* activity = item.customAs<ActivityFrame>();
        if (!activity) throw OperatorError("expected detect.activity_frame items");
        const ArraySpectra& spectra = activity->spectra();
        if (spectra.frameSize() != frameSize_ || spectra.rateHz() != rateHz_ || spectra.hop() != hop_) prepare(spectra);

        auto* frame = new DirectionFrame();
        frame->signalBins = activity->signalBins;
        frame->logSnrSum = activity->logSnrSum;
        frame->onsetWeight = activity->onsetWeight;
        frame->hop = hop_;
        const auto weight = activity->row(ActivityFrame::Row::SignalWeight);
        const auto onset = activity->row(ActivityFrame::Row::Onset);
        const auto presence = activity->row(ActivityFrame::Row::Presence);

        // Per band bin: its weight (0 where no sound), and every mic's unit-magnitude spectrum.
        const auto band = static_cast<std::size_t>(lastBin_ - firstBin_ + 1);
        double weightSum = 0.0;
        for (std::size_t i = 0; i < band; ++i) {
            const std::size_t k = static_cast<std::size_t>(firstBin_) + i;
            float w = 0.0f;
            if (weight[k] > 0.0f) {
                w = weight[k] * (1.0f + onsetEmphasis_ * onset[k]);
            }
            binWeight_[i] = w;
            weightSum += w;
        }
        const bool localize = activity->signalBins >= minimumSignalBins_ && weightSum > 0.0;
        if (subspace_) subspace_->update(spectra);
        const auto peaks = std::span(frame->peaks).first(static_cast<std::size_t>(maxPeaks_));
        if (localize && !subspace_) {
            projectionShares();
            normalizeSpectra(spectra);
            fillPairTables(weightSum);
            frame->peakCount = static_cast<int>(peakSearch_->search(1.0, peaks));
            frame->mapMean = peakSearch_->mean();
        } else if (localize) {
            const double constant = fillSubspaceTables();
            frame->peakCount = static_cast<int>(peakSearch_->search(1.0, peaks));
            for (int i = 0; i < frame->peakCount; ++i) peaks[static_cast<std::size_t>(i)].value += constant;
            frame->mapMean = peakSearch_->mean() + constant;
        }
        noise_->update(spectra, presence, activity->row(ActivityFrame::Row::NoiseFloor));
        if (++framesSinceBackground_ >= backgroundFrames_) {
            framesSinceBackground_ = 0;
            locateBackground();
        }
        frame->background = background_;
        frame->backgroundCount = backgroundCount_;
        emit(0, Item::custom(frame, item.range(), frame->peakCount > 0 ? frame->peaks[0].value : 0.0));
    }

private:
    /// Tables, search grid and buffers for frames of a new size or rate. [allocates]
    void prepare(const ArraySpectra& spectra) {
        if (spectra.micCount() != geometry_.micCount()) {
            throw OperatorError("parameter 'geometry': " + geometry_.origin + " places " + std::to_string(geometry_.micCount()) +
                                " mics but the recording has " + std::to_string(spectra.micCount()) +
                                " channels (one position per channel, in channel order)");
        }
        frameSize_ = spectra.frameSize();
        rateHz_ = spectra.rateHz();
        hop_ = spectra.hop();
        const double hzPerBin = rateHz_ / static_cast<double>(frameSize_);
        firstBin_ = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(bandLowHz_ / hzPerBin)));
        lastBin_ = frameSize_ / 2 - 1;
        if (bandHighHz_ >= 0.0) lastBin_ = std::min(lastBin_, static_cast<std::int64_t>(std::floor(bandHighHz_ / hzPerBin)));
        if (lastBin_ < firstBin_) throw OperatorError("the band holds no bin of these frames");
        const double speedOfSound = params().getReal("speed_of_sound");
        if (!PairLagTables::framesHoldLags(geometry_, speedOfSound, frameSize_, rateHz_, highestBandHz(frameSize_, rateHz_))) {
            throw OperatorError(framesTooShort(spectra.producer(), speedOfSound));
        }
        try {
            tables_ = std::make_unique<PairLagTables>(geometry_, speedOfSound, frameSize_, rateHz_,
                                                      static_cast<double>(lastBin_) * hzPerBin);
            peakSearch_ = std::make_unique<SrpPeakSearch>(*tables_, search_);
        } catch (const std::invalid_argument& e) {
            throw OperatorError(e.what() + std::string(" (geometry ") + geometry_.origin + ")");
        }
        const auto band = static_cast<std::size_t>(lastBin_ - firstBin_ + 1);
        const auto mics = static_cast<std::size_t>(geometry_.micCount());
        unitRe_.assign(mics * band, 0.0f);
        unitIm_.assign(mics * band, 0.0f);
        magnitude_.assign(mics * band, 0.0f);
        binWeight_.assign(band, 0.0f);
        scaledWeight_.assign(band, 0.0f);
        projected_.assign(band, 0.0f);
        subspace_.reset();
        if (method_ != "srp_phat") {
            try {
                subspace_ = std::make_unique<SubspaceProjector>(
                    geometry_.micCount(), sources_, firstBin_, lastBin_,
                    static_cast<float>(std::exp(-static_cast<double>(hop_) / (kSubspaceSeconds * rateHz_))));
            } catch (const std::invalid_argument& e) {
                throw OperatorError(std::string("method ") + method_ + ": " + e.what());
            }
            order_.reserve(band);
            selected_.reserve(static_cast<std::size_t>(subspaceBins_));
            projectors_.assign(static_cast<std::size_t>(subspaceBins_) * mics * mics, {});
        }
        backgroundFrames_ = std::max<std::int64_t>(1, std::llround(kBackgroundSeconds * rateHz_ / static_cast<double>(hop_)));
        framesSinceBackground_ = 0;
        backgroundCount_ = 0;
        subtracted_.assign(band, 0.0f);
        projectedSpectra_.assign(mics * band, {});
        // The noise floor needs about a third of a second to leave a loud start.
        const auto warmupFrames = static_cast<std::int64_t>(std::ceil(kNoiseWarmupSeconds * rateHz_ / static_cast<double>(hop_)));
        noise_ = std::make_unique<NoiseCovariance>(geometry_.micCount(), firstBin_, lastBin_,
                                                   static_cast<float>(std::exp(-static_cast<double>(hop_) / (noiseSeconds_ * rateHz_))),
                                                   warmupFrames);

    }

    /// The highest frequency of the band's last bin in frames of `frameSize` samples at `rateHz`.
    double highestBandHz(std::int64_t frameSize, double rateHz) const {
        const double hzPerBin = rateHz / static_cast<double>(frameSize);
        std::int64_t last = frameSize / 2 - 1;
        if (bandHighHz_ >= 0.0) last = std::min(last, static_cast<std::int64_t>(std::floor(bandHighHz_ / hzPerBin)));
        return static_cast<double>(last) * hzPerBin;
    }

    /// Why the current frames cannot hold the array's delays, naming the parameter to change on the node
    /// that made them (`producer`) and the shortest frame that would do.
    std::string framesTooShort(std::string_view producer, double speedOfSound) const {
        const std::string frame = producer.empty() ? std::string("'frame' of the spatial.array_stft feeding this node")
                                                   : "'frame' of node '" + std::string(producer) + "' (" + std::string(producer) + ".frame)";
        char facts[256];
        std::snprintf(facts, sizeof facts, "frames of %lld samples (%.1f ms at %g Hz) are too short for an array %.3f m across (%.2f ms at %g m/s)",
                      static_cast<long long>(frameSize_), 1e3 * static_cast<double>(frameSize_) / rateHz_, rateHz_, geometry_.aperture(),
                      1e3 * geometry_.aperture() / speedOfSound, speedOfSound);
        // A hand-held or table array is centimetres wide: metres across is mostly a geometry in cm or mm.
        const std::string units = geometry_.aperture() > 2.0 ? "; positions are in metres: is the geometry in centimetres or millimetres?" : "";
        const std::string why = std::string(facts) + " (" + geometry_.origin + units + ")";
        for (std::int64_t longer = frameSize_ + 1; longer <= kLongestFrame; ++longer) {
            if (PairLagTables::framesHoldLags(geometry_, speedOfSound, longer, rateHz_, highestBandHz(longer, rateHz_))) {
                return why + ": set " + frame + " to at least " + std::to_string(longer) + " samples";
            }
        }
        return why + ": no frame up to " + std::to_string(kLongestFrame) + " samples is long enough";
    }

    /// MUSIC / GEVD-MUSIC: the signal-subspace projectors of the subspace_bins bins of largest weight,
    /// tabulated like cross-spectra (subspace_projector.h); returns the map's constant part (D / M).
    double fillSubspaceTables() {
        const auto band = static_cast<std::size_t>(lastBin_ - firstBin_ + 1);
        const auto mics = static_cast<std::size_t>(geometry_.micCount());
        // The heaviest bins first.
        order_.resize(band);
        for (std::size_t i = 0; i < band; ++i) order_[i] = static_cast<int>(i);
        const std::size_t chosen = std::min<std::size_t>(subspaceBins_, band);
        std::partial_sort(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(chosen), order_.end(),
                          [&](int a, int b) { return binWeight_[static_cast<std::size_t>(a)] > binWeight_[static_cast<std::size_t>(b)]; });
        selected_.clear();
        double weightSum = 0.0;
        for (std::size_t j = 0; j < chosen; ++j) {
            const auto i = static_cast<std::size_t>(order_[j]);
            if (binWeight_[i] <= 0.0f) break;
            std::complex<float>* projector = projectors_.data() + selected_.size() * mics * mics;
            if (!subspace_->project(i, whitenSubspace_ ? noise_.get() : nullptr, projector)) continue;
            selected_.push_back(static_cast<int>(i));
            weightSum += binWeight_[i];
        }
        if (!(weightSum > 0.0)) return 0.0;
        const auto pairs = tables_->pairs();
        const auto scale = static_cast<float>(1.0 / (static_cast<double>(mics) * weightSum));
        for (std::size_t p = 0; p < pairs.size(); ++p) {
            const auto m = static_cast<std::size_t>(pairs[p].first);
            const auto n = static_cast<std::size_t>(pairs[p].second);
            std::span<std::complex<float>> spectrum = tables_->pairSpectrum();
            for (std::size_t j = 0; j < selected_.size(); ++j) {
                const auto i = static_cast<std::size_t>(selected_[j]);
                spectrum[static_cast<std::size_t>(firstBin_) + i] = scale * binWeight_[i] * projectors_[j * mics * mics + m * mics + n];
            }
            tables_->tabulate(p);
        }
        return static_cast<double>(sources_) / static_cast<double>(mics);
    }

    /// The directions of the noise itself: the steered response of its cross-spectra, PHAT-weighted, each
    /// bin weighted by its directivity (so a spatially white or diffuse noise gives nothing). Peaks whose
    /// response stands out of the map by at least kBackgroundContrast are steady directional sources.
    void locateBackground() {
        const auto band = static_cast<std::size_t>(lastBin_ - firstBin_ + 1);
        double weightSum = 0.0;
        for (std::size_t i = 0; i < band; ++i) {
            scaledWeight_[i] = noise_->learnt(i) ? noise_->directivity(i) : 0.0f;
            weightSum += scaledWeight_[i];
        }
        backgroundCount_ = 0;
        if (weightSum < kBackgroundBins) return;
        const auto pairs = tables_->pairs();
        const auto scale = static_cast<float>(1.0 / (2.0 * static_cast<double>(pairs.size()) * weightSum));
        for (std::size_t p = 0; p < pairs.size(); ++p) {
            const float* re = noise_->pairReal(p);
            const float* im = noise_->pairImaginary(p);
            float* out = reinterpret_cast<float*>(tables_->pairSpectrum().data() + firstBin_);
            for (std::size_t i = 0; i < band; ++i) {
                const float size = std::sqrt(re[i] * re[i] + im[i] * im[i]);
                const float factor = size > 0.0f ? scale * scaledWeight_[i] / size : 0.0f;
                out[2 * i] = factor * re[i];
                out[2 * i + 1] = factor * im[i];
            }
            tables_->tabulate(p);
        }
        std::array<DirectionPeak, DirectionFrame::kMaxBackground> peaks{};
        const std::size_t found = peakSearch_->search(1.0, std::span(peaks).first(2));
        const double mean = std::min(peakSearch_->mean(), 0.99);
        for (std::size_t i = 0; i < found; ++i) {
            if ((peaks[i].value - mean) / (1.0 - mean) < kBackgroundContrast) continue;
            background_[static_cast<std::size_t>(backgroundCount_++)] = peaks[i];
        }
    }

    /// Per band bin, how much of the noise's principal direction is projected out of the frame:
    /// projection x how far the noise's directivity exceeds directivity_threshold (0 below it).
    void projectionShares() {
        const auto band = static_cast<std::size_t>(lastBin_ - firstBin_ + 1);
        const float span = 1.0f - directivityThreshold_;
        for (std::size_t i = 0; i < band; ++i) {
            const float excess = noise_->learnt(i) ? (noise_->directivity(i) - directivityThreshold_) / span : 0.0f;
            projected_[i] = projection_ * std::clamp(excess, 0.0f, 1.0f);
        }
    }

    /// unit = x' / |x'| and |x'| of every mic over the band, x' = x - g v (v^H x) with v the noise's principal
    /// direction and g its projected share (0 where the noise is not directional), as separate real arrays so
    /// that the pair loops vectorize.
    void normalizeSpectra(const ArraySpectra& spectra) {
        const auto band = static_cast<std::size_t>(lastBin_ - firstBin_ + 1);
        const auto mics = static_cast<std::size_t>(spectra.micCount());
        for (std::size_t m = 0; m < mics; ++m) {
            const std::complex<float>* x = spectra.mic(static_cast<int>(m)).data() + firstBin_;
            std::complex<float>* out = projectedSpectra_.data() + m * band;
            std::copy(x, x + band, out);
        }
        for (std::size_t i = 0; i < band; ++i) {
            const float g = projected_[i];
            if (g <= 0.0f || binWeight_[i] <= 0.0f) continue;
            const std::complex<float>* v = noise_->principal(i);
            std::complex<float> along;
            for (std::size_t m = 0; m < mics; ++m) along += std::conj(v[m]) * projectedSpectra_[m * band + i];
            along *= g;
            for (std::size_t m = 0; m < mics; ++m) projectedSpectra_[m * band + i] -= along * v[m];
        }
        for (std::size_t m = 0; m < mics; ++m) {
            const float* x = reinterpret_cast<const float*>(projectedSpectra_.data() + m * band);
            const std::size_t row = m * band;
            float* re = unitRe_.data() + row;
            float* im = unitIm_.data() + row;
            float* size = magnitude_.data() + row;
            for (std::size_t i = 0; i < band; ++i) {
                const float a = x[2 * i];
                const float b = x[2 * i + 1];
                const float power = a * a + b * b;
                const float inverse = power > 0.0f ? 1.0f / std::sqrt(power) : 0.0f;
                re[i] = a * inverse;
                im[i] = b * inverse;
                size[i] = power * inverse;
            }
        }
    }

    void fillPairTables(double weightSum) {
        const auto band = static_cast<std::size_t>(lastBin_ - firstBin_ + 1);
        const auto pairs = tables_->pairs();
        // The real inverse FFT doubles each bin's term; this scale makes P(u) a mean over pairs and weight.
        const auto scale = static_cast<float>(1.0 / (2.0 * static_cast<double>(pairs.size()) * weightSum));
        for (std::size_t i = 0; i < band; ++i) {
            scaledWeight_[i] = scale * binWeight_[i];
            // Where the noise's direction is projected out, its cross-spectrum is not subtracted as well.
            subtracted_[i] = noise_->learnt(i) ? subtraction_ * (1.0f - projected_[i]) : 0.0f;
        }
        for (std::size_t p = 0; p < pairs.size(); ++p) {
            const auto m = static_cast<std::size_t>(pairs[p].first) * band;
            const auto n = static_cast<std::size_t>(pairs[p].second) * band;
            const float* reM = unitRe_.data() + m;
            const float* imM = unitIm_.data() + m;
            const float* reN = unitRe_.data() + n;
            const float* imN = unitIm_.data() + n;
            const float* sizeM = magnitude_.data() + m;
            const float* sizeN = magnitude_.data() + n;
            const float* noiseRe = noise_->pairReal(p);
            const float* noiseIm = noise_->pairImaginary(p);
            const float* w = scaledWeight_.data();
            const float* s = subtracted_.data();
            float* out = reinterpret_cast<float*>(tables_->pairSpectrum().data() + firstBin_);
            for (std::size_t i = 0; i < band; ++i) {
                // unit_m unit_n^*, then (X_m X_n^* - s N) / (|X_m X_n^*| + s |N|): the noise's share removed,
                // the magnitude still at most 1.
                const float re = reM[i] * reN[i] + imM[i] * imN[i];
                const float im = imM[i] * reN[i] - reM[i] * imN[i];
                const float product = sizeM[i] * sizeN[i];
                const float nRe = s[i] * noiseRe[i];
                const float nIm = s[i] * noiseIm[i];
                const float denominator = product + std::sqrt(nRe * nRe + nIm * nIm);
                const float factor = denominator > 0.0f ? w[i] / denominator : 0.0f;
                out[2 * i] = factor * (product * re - nRe);
                out[2 * i + 1] = factor * (product * im - nIm);
            }
            tables_->tabulate(p);
        }
    }

    ArrayGeometry geometry_;
    double bandLowHz_ = 300.0;
    double bandHighHz_ = 12000.0;
    SrpPeakSearch::Settings search_;
    int maxPeaks_ = 3;
    double minimumSignalBins_ = 1.0;
    float subtraction_ = 1.0f;
    float onsetEmphasis_ = 4.0f;
    float projection_ = 1.0f;
    float directivityThreshold_ = 0.7f;

    double noiseSeconds_ = 2.0;
    std::int64_t frameSize_ = 0;
    std::int64_t hop_ = 0;
    double rateHz_ = 0.0;
    std::int64_t firstBin_ = 1;
    std::int64_t lastBin_ = 1;
    std::unique_ptr<PairLagTables> tables_;
    std::unique_ptr<SrpPeakSearch> peakSearch_;
    // Over the band's bins (index 0 = firstBin_):
    std::vector<float> unitRe_, unitIm_;    // [mic][bin]: X / |X|
    std::vector<float> magnitude_;          // [mic][bin]: |X|
    std::vector<float> binWeight_;          // [bin]: signal weight x (1 + onset emphasis x onset)
    std::vector<float> scaledWeight_;       // [bin]: binWeight_ scaled for the map's range
    std::vector<float> projected_;          // [bin]: share of the noise's principal direction projected out
    std::vector<float> subtracted_;         // [bin]: share of the noise cross-spectrum subtracted
    std::vector<std::complex<float>> projectedSpectra_;  // [mic][bin]: x - g v (v^H x)
    std::unique_ptr<NoiseCovariance> noise_;
    std::string method_ = "srp_phat";
    bool whitenSubspace_ = false;
    int sources_ = 1;
    int subspaceBins_ = 32;
    std::unique_ptr<SubspaceProjector> subspace_;  // MUSIC and GEVD-MUSIC only
    std::vector<int> order_;                       // [bin]: band bins, heaviest first
    std::vector<int> selected_;                    // the bins whose projectors are tabulated
    std::vector<std::complex<float>> projectors_;  // [selected][m * M + n]
    std::int64_t backgroundFrames_ = 47;     // frames between looks for the noise's directions
    std::int64_t framesSinceBackground_ = 0;
    std::array<DirectionPeak, DirectionFrame::kMaxBackground> background_{};  // the latest look's directions
    int backgroundCount_ = 0;
};

}  // namespace

OperatorDescriptor frameDirectionsDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spatial.frame_directions";
    d.category = "spatial";
    d.summary = "Directions of sound in every frame: SRP-PHAT (or MUSIC, GEVD-MUSIC) over the bins that hold sound, noise whitened, several peaks";
    d.documentation =
        "Per frame (detect.spectral_activity's output, which carries the spectra of spatial.array_stft) each bin of the "
        "band weighs its share of sound x (1 + onset_emphasis x onset). The noise's spatial covariance is learnt per bin "
        "where no sound is present (time constant noise_time_constant); where it is directional (a fan: directivity "
        "above directivity_threshold) its principal direction is projected out of the frame (noise_projection), elsewhere "
        "its cross-spectra are subtracted (noise_subtraction), so a steady noise does not pull the directions towards "
        "itself. method srp_phat: every mic pair's cross-spectrum, PHAT-weighted, is tabulated over lag by an inverse FFT "
        "and the steered response P(u) (mean over pairs and weight, in [-1, 1]; 1 = one plane wave explains every bin) is "
        "searched on a coarse grid (azimuth_step_deg, elevations elevation_min_deg .. elevation_max_deg every "
        "elevation_step_deg), then refined. method music / gevd_music: the signal-subspace projectors of the recent "
        "covariance of the subspace_bins heaviest bins (GEVD-MUSIC: against the noise covariance, whatever its spatial "
        "colour) are steered instead: the share of a steering vector in the signal subspace, [0, 1]. Up to 'peaks' "
        "directions go out, largest first; after each, directions within suppression_deg are not searched again. Every "
        "0.5 s the noise covariance's own steered response gives the steady background's directions. Frames with less than "
        "min_signal_bins of sound are not searched. Planar arrays cannot tell up from down: search 0 .. 90.";
    d.inputs = {PortSpec{"activity", PortType::custom(ActivityFrame::kTypeName), "frames from detect.spectral_activity"}};
    d.outputs = {PortSpec{"directions", PortType::custom(DirectionFrame::kTypeName),
                          "per frame: up to 'peaks' directions with their response, the frame's sound statistics; value = "
                          "the largest response"}};
    d.params = {
        ParamSpec{"geometry", ParamKind::Path, std::string(), {}, {}, "",
                  "array geometry: a JSON file {\"mics\": [[x, y, z], ...]} in metres, or a preset such as circular8:0.046 "
                  "(mic count = the spectra's channels)"},
        ParamSpec{"speed_of_sound", ParamKind::Real, kSpeedOfSoundMetresPerSecond, 100.0, 2000.0, "m/s",
                  "propagation speed used for steering delays (343 m/s: air at about 20 °C)"},
        ParamSpec{"method", ParamKind::Choice, std::string("srp_phat"), {}, {}, "",
                  "srp_phat: steered response of the PHAT cross-spectra (cheapest); music: MUSIC over the subspace_bins "
                  "heaviest bins; gevd_music: MUSIC on the covariance whitened by the noise's (a fan's direction is no "
                  "source), costlier",
                  {"srp_phat", "music", "gevd_music"}},
        ParamSpec{"sources", ParamKind::Int, std::int64_t{1}, 1.0, 15.0, "",
                  "MUSIC: signal-subspace dimension per bin (fewer than the mics; sources seldom share a bin)"},
        ParamSpec{"subspace_bins", ParamKind::Int, std::int64_t{32}, 1.0, 4096.0, "bins",
                  "MUSIC: the bins of largest weight decomposed per frame (each costs an eigendecomposition)"},
        ParamSpec{"band_low_hz", ParamKind::Real, 300.0, 0.0, {}, "Hz", "lowest frequency used for directions"},
        ParamSpec{"band_high_hz", ParamKind::Real, 12000.0, -1.0, {}, "Hz", "highest frequency used; -1 = up to Nyquist"},
        ParamSpec{"peaks", ParamKind::Int, std::int64_t{3}, 1.0, static_cast<double>(DirectionFrame::kMaxPeaks), "",
                  "most directions per frame"},
        ParamSpec{"azimuth_step_deg", ParamKind::Real, 4.0, 0.5, 45.0, "deg", "coarse azimuth grid step (refined to about 1/20 of it)"},
        ParamSpec{"elevation_min_deg", ParamKind::Real, 0.0, -90.0, 90.0, "deg", "lowest elevation searched"},
        ParamSpec{"elevation_max_deg", ParamKind::Real, 30.0, -90.0, 90.0, "deg", "highest elevation searched"},
        ParamSpec{"elevation_step_deg", ParamKind::Real, 15.0, 0.5, 90.0, "deg", "coarse elevation grid step"},
        ParamSpec{"suppression_deg", ParamKind::Real, 25.0, 1.0, 180.0, "deg",
                  "after a peak, directions this close to it are not searched for the next"},
        ParamSpec{"min_signal_bins", ParamKind::Real, 1.0, 0.0, 1e6, "bins", "frames with less sound than this are not searched"},
        ParamSpec{"noise_subtraction", ParamKind::Real, 1.0, 0.0, 1.0, "",
                  "share of the noise cross-spectrum subtracted before PHAT (0 = plain SRP-PHAT)"},
        ParamSpec{"onset_emphasis", ParamKind::Real, 4.0, 0.0, 100.0, "",
                  "a bin weighs its share of sound x (1 + onset_emphasis x onset): new sound (the direct path) counts more"},
        ParamSpec{"noise_projection", ParamKind::Real, 1.0, 0.0, 1.0, "",
                  "share of the noise's principal direction projected out of each frame where the noise is directional"},
        ParamSpec{"directivity_threshold", ParamKind::Real, 0.7, 0.0, 0.99, "",
                  "noise is directional (a fan) where its principal eigenvalue's excess share exceeds this (0 = white, 1 = one plane wave)"},
        ParamSpec{"noise_time_constant", ParamKind::Real, 2.0, 0.05, 600.0, "s",
                  "averaging time of the noise cross-spectra over frames without sound"},
    };
    d.create = [] { return std::make_unique<FrameDirections>(); };
    d.checkUpstream = [](const ParamSet& params, const std::vector<UpstreamNode>& upstream) {
        const std::string& spec = params.getString("geometry");
        if (spec.empty()) return;  // the node refuses to start without one, saying so
        ArrayGeometry geometry;
        try {
            geometry = loadGeometry(spec);
        } catch (const std::invalid_argument& e) {
            throw ParameterError("geometry", e.what());
        }
        // The mic count is the channels of the STFT that makes the frames (its bus from the audio's source).
        const auto stft = std::find_if(upstream.begin(), upstream.end(), [](const UpstreamNode& node) { return node.descriptor->typeName == kStftType; });
        if (stft == upstream.end()) return;
        const std::int64_t channels = stft->params->getInt("channels");
        if (channels == 0 || channels == geometry.micCount()) return;
        const auto source = std::find_if(stft + 1, upstream.end(), [](const UpstreamNode& node) { return node.descriptor->isSource(); });
        // Name the source only when its channels are the ones that reach the STFT (no select in between).
        const bool sourceChannels = source != upstream.end() &&
                                    !(source->descriptor->findParam("channels") && source->params->getInt("channels") != channels);
        const std::string audio = sourceChannels ? "the audio of node '" + *source->id + "' has " + std::to_string(channels) + " channels (into node '" + *stft->id + "')"
                                                 : std::to_string(channels) + " channels reach node '" + *stft->id + "'";
        throw ParameterError("geometry", geometry.origin + " places " + std::to_string(geometry.micCount()) + " mics but " + audio +
                                             ": give one position per channel, in channel order");
    };
    return d;
}

}  // namespace isochron
