#include "tests/support/acoustic_simulator.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <numbers>
#include <stdexcept>
#include <string>

#include <fftw3.h>

namespace isochron::test {
namespace {

constexpr double kFadeSeconds = 0.005;

/// A double-precision real FFT pair of one size (made per call: the simulator is not on a hot path).
class RealTransform {
public:
    explicit RealTransform(std::size_t size)
        : size_(size),
          time_(fftw_alloc_real(size)),
          bins_(reinterpret_cast<std::complex<double>*>(fftw_alloc_complex(size / 2 + 1))),
          forward_(fftw_plan_dft_r2c_1d(static_cast<int>(size), time_, reinterpret_cast<fftw_complex*>(bins_), FFTW_ESTIMATE)),
          inverse_(fftw_plan_dft_c2r_1d(static_cast<int>(size), reinterpret_cast<fftw_complex*>(bins_), time_, FFTW_ESTIMATE)) {}
    ~RealTransform() {
        fftw_destroy_plan(forward_);
        fftw_destroy_plan(inverse_);
        fftw_free(time_);
        fftw_free(bins_);
    }
    RealTransform(const RealTransform&) = delete;
    RealTransform& operator=(const RealTransform&) = delete;

    std::size_t size() const { return size_; }
    double* time() { return time_; }
    std::complex<double>* bins() { return bins_; }
    /// time -> bins (unnormalized).
    void forward() { fftw_execute(forward_); }
    /// bins -> time, divided by N so that forward() then inverse() is the identity (bins are overwritten).
    void inverse() {
        fftw_execute(inverse_);
        for (std::size_t i = 0; i < size_; ++i) time_[i] /= static_cast<double>(size_);
    }

private:
    std::size_t size_;
    double* time_;
    std::complex<double>* bins_;
    fftw_plan forward_;
    fftw_plan inverse_;
};

std::size_t transformSizeFor(std::size_t samples) { return std::bit_ceil(std::max<std::size_t>(samples, 16)); }

/// Keeps only the bins of [lowHz, highHz] of `samples` (ideal band-pass, circular over a padded length).
void bandLimit(std::vector<double>& samples, double lowHz, double highHz, double rateHz) {
    RealTransform transform(transformSizeFor(2 * samples.size()));
    std::fill(transform.time(), transform.time() + transform.size(), 0.0);
    std::copy(samples.begin(), samples.end(), transform.time());
    transform.forward();
    const double hzPerBin = rateHz / static_cast<double>(transform.size());
    for (std::size_t k = 0; k <= transform.size() / 2; ++k) {
        const double frequency = static_cast<double>(k) * hzPerBin;
        if (frequency < lowHz || frequency > highHz) transform.bins()[k] = 0.0;
    }
    transform.inverse();
    std::copy(transform.time(), transform.time() + samples.size(), samples.begin());
}

/// Raised-cosine fades of `fadeSamples` at both ends.
void fadeEnds(std::vector<double>& samples, std::size_t fadeSamples) {
    fadeSamples = std::min(fadeSamples, samples.size() / 2);
    for (std::size_t i = 0; i < fadeSamples; ++i) {
        const double gain = 0.5 - 0.5 * std::cos(std::numbers::pi * (static_cast<double>(i) + 0.5) / static_cast<double>(fadeSamples));
        samples[i] *= gain;
        samples[samples.size() - 1 - i] *= gain;
    }
}

void normalizeRms(std::vector<double>& samples) {
    double energy = 0.0;
    for (double s : samples) energy += s * s;
    if (energy <= 0.0) return;
    const double scale = 1.0 / std::sqrt(energy / static_cast<double>(samples.size()));
    for (double& s : samples) s *= scale;
}

/// One propagation path to one mic: its delay after the direct sound reaches the origin, and gain.
struct Path {
    double delaySeconds;
    double gain;
};

/// The direct path and, in a room, every image path of at most maxOrder reflections, from the source
/// (array frame) to `mic` (array frame).
void collectPaths(const Scene& scene, const SimulatedEvent& event, const Eigen::Vector3d& mic, std::vector<Path>& paths) {
    paths.clear();
    const Eigen::Vector3d source = event.distanceMetres * directionVector(event.azimuthDegrees, event.elevationDegrees);
    auto addPath = [&](const Eigen::Vector3d& from, const Eigen::Vector3d& to, double reflectionGain) {
        const double length = (to - from).norm();
        paths.push_back({(length - event.distanceMetres) / scene.speedOfSound, reflectionGain * event.distanceMetres / length});
    };
    if (!scene.room) {
        addPath(source, mic, 1.0);
        return;
    }
    const ShoeboxRoom& room = *scene.room;
    const Eigen::Vector3d roomSource = room.arrayPosition + source;
    const Eigen::Vector3d roomMic = room.arrayPosition + mic;
    for (int axis = 0; axis < 3; ++axis) {
        if (!(roomSource[axis] > 0.0 && roomSource[axis] < room.sizeMetres[axis] && roomMic[axis] > 0.0 &&
              roomMic[axis] < room.sizeMetres[axis])) {
            throw std::invalid_argument("simulated source or mic lies outside the room");
        }
    }
    const double reflection = std::sqrt(1.0 - room.absorption);
    const int order = room.maxOrder;
    for (int nx = -order; nx <= order; ++nx) {
        for (int ny = -order; ny <= order; ++ny) {
            for (int nz = -order; nz <= order; ++nz) {
                for (int mirror = 0; mirror < 8; ++mirror) {
                    const int n[3] = {nx, ny, nz};
                    Eigen::Vector3d image;
                    int reflections = 0;
                    for (int axis = 0; axis < 3; ++axis) {
                        const int q = (mirror >> axis) & 1;
                        image[axis] = (1 - 2 * q) * roomSource[axis] + 2.0 * n[axis] * room.sizeMetres[axis];
                        reflections += std::abs(n[axis] - q) + std::abs(n[axis]);
                    }
                    if (reflections <= order) addPath(image, roomMic, std::pow(reflection, reflections));
                }
            }
        }
    }
}

}  // namespace

double GaussianNoise::uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

double GaussianNoise::next() {
    if (spare_) {
        const double value = *spare_;
        spare_.reset();
        return value;
    }
    double u1 = uniform();
    while (u1 <= 0.0) u1 = uniform();
    const double u2 = uniform();
    const double radius = std::sqrt(-2.0 * std::log(u1));
    spare_ = radius * std::sin(2.0 * std::numbers::pi * u2);
    return radius * std::cos(2.0 * std::numbers::pi * u2);
}

std::vector<double> makeSourceSignal(const SourceSignal& signal, double rateHz) {
    const bool recorded = signal.kind == SourceKind::Recording;
    if ((recorded ? signal.recording.empty() : !(signal.durationSeconds > 0.0)) || !(signal.lowHz >= 0.0) ||
        !(signal.highHz > signal.lowHz) || signal.highHz > rateHz / 2.0) {
        throw std::invalid_argument("source signal needs a duration > 0 (or a recording) and 0 <= low < high <= rate / 2");
    }
    const auto length = recorded ? signal.recording.size() : static_cast<std::size_t>(std::llround(signal.durationSeconds * rateHz));
    const auto fade = static_cast<std::size_t>(std::llround(kFadeSeconds * rateHz));
    std::vector<double> samples(std::max<std::size_t>(length, 1), 0.0);
    switch (signal.kind) {
        case SourceKind::Click: {
            samples[samples.size() / 2] = 1.0;
            bandLimit(samples, signal.lowHz, signal.highHz, rateHz);
            for (std::size_t i = 0; i < samples.size(); ++i) {
                samples[i] *= 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * (static_cast<double>(i) + 0.5) / static_cast<double>(samples.size()));
            }
            break;
        }
        case SourceKind::Chirp: {
            const double sweepRate = (signal.highHz - signal.lowHz) / signal.durationSeconds;  // Hz per second
            for (std::size_t i = 0; i < samples.size(); ++i) {
                const double t = static_cast<double>(i) / rateHz;
                samples[i] = std::sin(2.0 * std::numbers::pi * (signal.lowHz * t + 0.5 * sweepRate * t * t));
            }
            fadeEnds(samples, fade);
            break;
        }
        case SourceKind::NoiseBurst: {
            GaussianNoise noise(signal.seed);
            for (double& s : samples) s = noise.next();
            bandLimit(samples, signal.lowHz, signal.highHz, rateHz);
            fadeEnds(samples, fade);
            break;
        }
        case SourceKind::Recording:
            samples = signal.recording;
            bandLimit(samples, signal.lowHz, signal.highHz, rateHz);
            break;
    }
    normalizeRms(samples);
    return samples;
}

std::vector<std::vector<float>> simulateScene(const Scene& scene) {
    if (scene.geometry.micCount() < 1 || !(scene.rateHz > 0.0) || scene.lengthSamples < 1) {
        throw std::invalid_argument("a scene needs mics, a rate and a length");
    }
    const std::size_t length = static_cast<std::size_t>(scene.lengthSamples);
    std::vector<std::vector<double>> mixed(scene.geometry.mics.size(), std::vector<double>(length, 0.0));
    std::vector<Path> paths;
    for (const SimulatedEvent& event : scene.events) {
        const std::vector<double> source = makeSourceSignal(event.signal, scene.rateHz);
        // Each mic's response to this event is placed from `lead` samples before the onset (mics nearer
        // the source than the origin hear it early) to after the longest path.
        double earliest = 0.0;
        double latest = 0.0;
        for (const auto& mic : scene.geometry.mics) {
            collectPaths(scene, event, mic, paths);
            for (const Path& path : paths) {
                earliest = std::min(earliest, path.delaySeconds);
                latest = std::max(latest, path.delaySeconds);
            }
        }
        const auto lead = static_cast<std::int64_t>(std::ceil(-earliest * scene.rateHz)) + 64;
        const auto tail = static_cast<std::int64_t>(std::ceil(latest * scene.rateHz)) + 64;
        RealTransform transform(transformSizeFor(source.size() + static_cast<std::size_t>(lead + tail)));
        std::vector<std::complex<double>> sourceBins(transform.size() / 2 + 1);
        std::fill(transform.time(), transform.time() + transform.size(), 0.0);
        std::copy(source.begin(), source.end(), transform.time());
        transform.forward();
        std::copy(transform.bins(), transform.bins() + sourceBins.size(), sourceBins.begin());

        const double radiansPerBinSecond = 2.0 * std::numbers::pi * scene.rateHz / static_cast<double>(transform.size());
        for (std::size_t m = 0; m < scene.geometry.mics.size(); ++m) {
            collectPaths(scene, event, scene.geometry.mics[m], paths);
            std::complex<double>* bins = transform.bins();
            std::fill(bins, bins + sourceBins.size(), std::complex<double>());
            for (const Path& path : paths) {
                // e^{-i w_k (lead / rate + delay)} by recurrence over k.
                const double delay = static_cast<double>(lead) / scene.rateHz + path.delaySeconds;
                const std::complex<double> step = std::polar(1.0, -radiansPerBinSecond * delay);
                std::complex<double> phasor = path.gain;
                for (std::size_t k = 0; k < sourceBins.size(); ++k) {
                    bins[k] += sourceBins[k] * phasor;
                    phasor *= step;
                }
            }
            transform.inverse();
            const std::int64_t first = event.onsetSample - lead;
            for (std::size_t i = 0; i < transform.size(); ++i) {
                const std::int64_t index = first + static_cast<std::int64_t>(i);
                if (index >= 0 && index < scene.lengthSamples) {
                    mixed[m][static_cast<std::size_t>(index)] += event.amplitude * transform.time()[i];
                }
            }
        }
    }
    std::vector<std::vector<float>> channels(mixed.size(), std::vector<float>(length));
    GaussianNoise noise(scene.noiseSeed);
    const double noiseDeviation = scene.snrDb ? std::pow(10.0, -*scene.snrDb / 20.0) : 0.0;
    for (std::size_t m = 0; m < mixed.size(); ++m) {
        for (std::size_t i = 0; i < length; ++i) {
            const double added = scene.snrDb ? noiseDeviation * noise.next() : 0.0;
            channels[m][i] = static_cast<float>(mixed[m][i] + added);
        }
    }
    return channels;
}

std::vector<LookDirection> randomDirections(std::size_t count, double minElevationDegrees, double maxElevationDegrees,
                                            std::uint64_t seed) {
    GaussianNoise random(seed);
    std::vector<LookDirection> directions;
    for (std::size_t i = 0; i < count; ++i) {
        const double azimuth = 360.0 * random.uniform();
        const double elevation = minElevationDegrees + (maxElevationDegrees - minElevationDegrees) * random.uniform();
        directions.push_back({azimuth, elevation});
    }
    return directions;
}

double azimuthError(double estimatedDegrees, double trueDegrees) {
    const double difference = std::fmod(std::abs(estimatedDegrees - trueDegrees), 360.0);
    return std::min(difference, 360.0 - difference);
}

}  // namespace isochron::test
