#include "nodes/filters/fir_design.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "nodes/filters/frequency_text.h"

namespace isochron::filters {
namespace {

double sinc(double x) {
    if (x == 0.0) return 1.0;
    const double px = std::numbers::pi * x;
    return std::sin(px) / px;
}

template <class Enum>
std::optional<Enum> fromName(const std::vector<std::string>& names, std::string_view name) {
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == name) return static_cast<Enum>(i);
    }
    return std::nullopt;
}

}  // namespace

const std::vector<std::string>& firResponseNames() {
    static const std::vector<std::string> names{"lowpass", "highpass", "bandpass", "bandstop"};
    return names;
}
std::optional<FirResponse> firResponseFromName(std::string_view name) { return fromName<FirResponse>(firResponseNames(), name); }

const std::vector<std::string>& firWindowNames() {
    static const std::vector<std::string> names{"rectangular", "hann", "hamming", "blackman", "kaiser"};
    return names;
}
std::optional<FirWindow> firWindowFromName(std::string_view name) { return fromName<FirWindow>(firWindowNames(), name); }

double kaiserBeta(double attenuationDb) {
    if (attenuationDb > 50.0) return 0.1102 * (attenuationDb - 8.7);
    if (attenuationDb > 21.0) return 0.5842 * std::pow(attenuationDb - 21.0, 0.4) + 0.07886 * (attenuationDb - 21.0);
    return 0.0;
}

KaiserOrder kaiserOrder(double attenuationDb, double transitionHz, double rateHz) {
    if (!(attenuationDb >= 8.0)) throw std::invalid_argument("a Kaiser design needs at least 8 dB of attenuation");
    const double width = transitionHz / (rateHz / 2.0);  // fraction of Nyquist
    if (!(width > 0.0 && width < 1.0)) throw std::invalid_argument("the transition width must lie between 0 Hz and half the rate");
    const double taps = (attenuationDb - 7.95) / 2.285 / (std::numbers::pi * width) + 1.0;
    return {static_cast<int>(std::ceil(taps)), kaiserBeta(attenuationDb)};
}

std::vector<double> symmetricWindow(FirWindow window, int length, double beta) {
    std::vector<double> w(static_cast<std::size_t>(length), 1.0);
    if (length == 1) return w;
    const double span = length - 1;
    for (int n = 0; n < length; ++n) {
        const double phase = 2.0 * std::numbers::pi * n / span;
        double& v = w[static_cast<std::size_t>(n)];
        switch (window) {
            case FirWindow::Rectangular: break;
            case FirWindow::Hann: v = 0.5 - 0.5 * std::cos(phase); break;
            case FirWindow::Hamming: v = 0.54 - 0.46 * std::cos(phase); break;
            case FirWindow::Blackman: v = 0.42 - 0.5 * std::cos(phase) + 0.08 * std::cos(2.0 * phase); break;
            case FirWindow::Kaiser: {
                const double r = 2.0 * n / span - 1.0;
                v = std::cyl_bessel_i(0.0, beta * std::sqrt(std::max(0.0, 1.0 - r * r))) / std::cyl_bessel_i(0.0, beta);
                break;
            }
        }
    }
    return w;
}

std::vector<double> designFir(const FirSpecification& spec) {
    const double nyquist = spec.rateHz / 2.0;
    const bool band = spec.response == FirResponse::Bandpass || spec.response == FirResponse::Bandstop;
    if (!(spec.lowHz > 0.0 && spec.lowHz < nyquist)) {
        throw std::invalid_argument("cutoff_hz (" + hertzText(spec.lowHz) + ") must lie between 0 Hz and half the rate (" + hertzText(nyquist) + ")");
    }
    if (band && !(spec.highHz > spec.lowHz && spec.highHz < nyquist)) {
        throw std::invalid_argument(spec.highHz <= spec.lowHz
                                        ? "high_cutoff_hz (" + hertzText(spec.highHz) + ") must lie above cutoff_hz (" + hertzText(spec.lowHz) + ")"
                                        : "high_cutoff_hz (" + hertzText(spec.highHz) + ") must lie below half the rate (" + hertzText(nyquist) + ")");
    }
    if (spec.taps < 1) throw std::invalid_argument("an FIR needs at least one tap");
    // Band edges as fractions of Nyquist, with 0 and 1 added where the response passes DC or Nyquist.
    std::vector<double> edges;
    const bool passesDc = spec.response == FirResponse::Lowpass || spec.response == FirResponse::Bandstop;
    const bool passesNyquist = spec.response == FirResponse::Highpass || spec.response == FirResponse::Bandstop;
    if (passesNyquist && spec.taps % 2 == 0) {
        throw std::invalid_argument("a highpass or bandstop FIR needs an odd number of taps (an even one has a zero at half the rate)");
    }
    if (passesDc) edges.push_back(0.0);
    edges.push_back(spec.lowHz / nyquist);
    if (band) edges.push_back(spec.highHz / nyquist);
    if (passesNyquist) edges.push_back(1.0);

    const auto taps = static_cast<std::size_t>(spec.taps);
    const double centre = 0.5 * (spec.taps - 1);
    std::vector<double> h(taps, 0.0);
    for (std::size_t n = 0; n < taps; ++n) {
        const double m = static_cast<double>(n) - centre;
        for (std::size_t b = 0; b + 1 < edges.size(); b += 2) h[n] += edges[b + 1] * sinc(edges[b + 1] * m) - edges[b] * sinc(edges[b] * m);
    }
    const std::vector<double> window = symmetricWindow(spec.window, spec.taps, spec.kaiserBeta);
    for (std::size_t n = 0; n < taps; ++n) h[n] *= window[n];
    // Unit gain at DC, at Nyquist, or at the centre of the first pass band.
    const double scaleAt = edges[0] == 0.0 ? 0.0 : edges[1] == 1.0 ? 1.0 : 0.5 * (edges[0] + edges[1]);
    double gain = 0.0;
    for (std::size_t n = 0; n < taps; ++n) gain += h[n] * std::cos(std::numbers::pi * (static_cast<double>(n) - centre) * scaleAt);
    for (double& v : h) v /= gain;
    return h;
}

}  // namespace isochron::filters
