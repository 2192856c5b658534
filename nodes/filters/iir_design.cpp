#include "nodes/filters/iir_design.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "nodes/filters/frequency_text.h"

namespace isochron::filters {
namespace {

using Complex = std::complex<double>;
using Roots = std::vector<Complex>;

Complex productOf(const Roots& roots, Complex offset, double sign) {
    Complex product = 1.0;
    for (const Complex& r : roots) product *= offset + sign * r;
    return product;
}

/// The analog lowpass prototype with its cutoff at 1 rad/s (scipy's buttap / cheb1ap).
ZerosPolesGain prototype(const IirSpecification& spec) {
    ZerosPolesGain p;
    const int n = spec.order;
    if (spec.family == IirFamily::Butterworth) {
        for (int m = -n + 1; m < n; m += 2) p.poles.push_back(-std::exp(Complex(0.0, std::numbers::pi * m / (2.0 * n))));
        p.gain = 1.0;
        return p;
    }
    const double epsilon = std::sqrt(std::pow(10.0, 0.1 * spec.rippleDb) - 1.0);
    const double mu = std::asinh(1.0 / epsilon) / n;
    for (int m = -n + 1; m < n; m += 2) p.poles.push_back(-std::sinh(Complex(mu, std::numbers::pi * m / (2.0 * n))));
    p.gain = productOf(p.poles, 0.0, -1.0).real();
    if (n % 2 == 0) p.gain /= std::sqrt(1.0 + epsilon * epsilon);  // an even order starts the ripple at its bottom
    return p;
}

/// Both roots s of s^2 - 2 c s + w0^2 for each c (the band transformations' quadratic).
Roots splitRoots(const Roots& centres, double w0) {
    Roots out;
    for (const Complex& c : centres) out.push_back(c + std::sqrt(c * c - w0 * w0));
    for (const Complex& c : centres) out.push_back(c - std::sqrt(c * c - w0 * w0));
    return out;
}

/// Lowpass prototype -> the requested analog response at prewarped edges (scipy's lp2*_zpk).
ZerosPolesGain transform(const ZerosPolesGain& lp, IirResponse response, double w1, double w2) {
    ZerosPolesGain a;
    const auto degree = static_cast<int>(lp.poles.size() - lp.zeros.size());
    switch (response) {
        case IirResponse::Lowpass:
            for (const Complex& z : lp.zeros) a.zeros.push_back(z * w1);
            for (const Complex& p : lp.poles) a.poles.push_back(p * w1);
            a.gain = lp.gain * std::pow(w1, degree);
            break;
        case IirResponse::Highpass:
            for (const Complex& z : lp.zeros) a.zeros.push_back(w1 / z);
            for (const Complex& p : lp.poles) a.poles.push_back(w1 / p);
            a.zeros.insert(a.zeros.end(), static_cast<std::size_t>(degree), 0.0);
            a.gain = lp.gain * (productOf(lp.zeros, 0.0, -1.0) / productOf(lp.poles, 0.0, -1.0)).real();
            break;
        case IirResponse::Bandpass: {
            const double bandwidth = w2 - w1, w0 = std::sqrt(w1 * w2);
            Roots zeros, poles;
            for (const Complex& z : lp.zeros) zeros.push_back(z * bandwidth / 2.0);
            for (const Complex& p : lp.poles) poles.push_back(p * bandwidth / 2.0);
            a.zeros = splitRoots(zeros, w0);
            a.poles = splitRoots(poles, w0);
            a.zeros.insert(a.zeros.end(), static_cast<std::size_t>(degree), 0.0);
            a.gain = lp.gain * std::pow(bandwidth, degree);
            break;
        }
        case IirResponse::Bandstop: {
            const double bandwidth = w2 - w1, w0 = std::sqrt(w1 * w2);
            Roots zeros, poles;
            for (const Complex& z : lp.zeros) zeros.push_back(bandwidth / 2.0 / z);
            for (const Complex& p : lp.poles) poles.push_back(bandwidth / 2.0 / p);
            a.zeros = splitRoots(zeros, w0);
            a.poles = splitRoots(poles, w0);
            a.zeros.insert(a.zeros.end(), static_cast<std::size_t>(degree), Complex(0.0, w0));
            a.zeros.insert(a.zeros.end(), static_cast<std::size_t>(degree), Complex(0.0, -w0));
            a.gain = lp.gain * (productOf(lp.zeros, 0.0, -1.0) / productOf(lp.poles, 0.0, -1.0)).real();
            break;
        }
    }
    return a;
}

/// s -> z = (2 fs + s) / (2 fs - s); zeros at infinity land on z = -1 (scipy's bilinear_zpk).
ZerosPolesGain bilinear(const ZerosPolesGain& analog, double rateHz) {
    const double twiceRate = 2.0 * rateHz;
    ZerosPolesGain d;
    for (const Complex& z : analog.zeros) d.zeros.push_back((twiceRate + z) / (twiceRate - z));
    for (const Complex& p : analog.poles) d.poles.push_back((twiceRate + p) / (twiceRate - p));
    d.zeros.insert(d.zeros.end(), analog.poles.size() - analog.zeros.size(), -1.0);
    d.gain = analog.gain * (productOf(analog.zeros, twiceRate, -1.0) / productOf(analog.poles, twiceRate, -1.0)).real();
    return d;
}

/// Roots grouped in twos: each conjugate pair, then the real roots two by two (sorted), a last odd
/// real root with 0 (a first-order factor).
std::vector<std::pair<Complex, Complex>> pairRoots(const Roots& roots) {
    std::vector<std::pair<Complex, Complex>> pairs;
    std::vector<double> reals;
    for (const Complex& r : roots) {
        if (std::abs(r.imag()) <= 1e-10 * std::max(1.0, std::abs(r))) reals.push_back(r.real());
        else if (r.imag() > 0.0) pairs.emplace_back(r, std::conj(r));
    }
    std::sort(reals.begin(), reals.end());
    for (std::size_t i = 0; i < reals.size(); i += 2) pairs.emplace_back(reals[i], i + 1 < reals.size() ? reals[i + 1] : 0.0);
    return pairs;
}

/// The factor (1 - r1 z^-1)(1 - r2 z^-1) as {1, c1, c2}.
std::pair<double, double> factor(const std::pair<Complex, Complex>& roots) {
    return {-(roots.first + roots.second).real(), (roots.first * roots.second).real()};
}

void checkSpecification(const IirSpecification& spec) {
    const double nyquist = spec.rateHz / 2.0;
    if (spec.order < 1 || spec.order > 32) throw std::invalid_argument("the order must lie between 1 and 32");
    if (!(spec.lowHz > 0.0 && spec.lowHz < nyquist)) {
        throw std::invalid_argument("cutoff_hz (" + hertzText(spec.lowHz) + ") must lie between 0 Hz and half the rate (" + hertzText(nyquist) + ")");
    }
    const bool band = spec.response == IirResponse::Bandpass || spec.response == IirResponse::Bandstop;
    if (band && !(spec.highHz > spec.lowHz && spec.highHz < nyquist)) {
        throw std::invalid_argument(spec.highHz <= spec.lowHz
                                        ? "high_cutoff_hz (" + hertzText(spec.highHz) + ") must lie above cutoff_hz (" + hertzText(spec.lowHz) + ")"
                                        : "high_cutoff_hz (" + hertzText(spec.highHz) + ") must lie below half the rate (" + hertzText(nyquist) + ")");
    }
    if (spec.family == IirFamily::Chebyshev1 && !(spec.rippleDb > 0.0)) throw std::invalid_argument("the ripple must be above 0 dB");
}

}  // namespace

const std::vector<std::string>& iirResponseNames() {
    static const std::vector<std::string> names{"lowpass", "highpass", "bandpass", "bandstop"};
    return names;
}

std::optional<IirResponse> iirResponseFromName(std::string_view name) {
    const auto& names = iirResponseNames();
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == name) return static_cast<IirResponse>(i);
    }
    return std::nullopt;
}

ZerosPolesGain designIirZpk(const IirSpecification& spec) {
    checkSpecification(spec);
    const double warp = 2.0 * spec.rateHz;  // prewarping: the digital edges land where asked
    const double w1 = warp * std::tan(std::numbers::pi * spec.lowHz / spec.rateHz);
    const double w2 = warp * std::tan(std::numbers::pi * spec.highHz / spec.rateHz);
    return bilinear(transform(prototype(spec), spec.response, w1, w2), spec.rateHz);
}

std::vector<BiquadSection> designIir(const IirSpecification& spec) {
    const ZerosPolesGain zpk = designIirZpk(spec);
    auto polePairs = pairRoots(zpk.poles);
    auto zeroPairs = pairRoots(zpk.zeros);
    // Farthest from the unit circle first; each pole pair takes the zero pair nearest to it.
    const auto closeness = [](const std::pair<Complex, Complex>& pair) { return std::max(std::abs(pair.first), std::abs(pair.second)); };
    std::stable_sort(polePairs.begin(), polePairs.end(), [&](const auto& a, const auto& b) { return closeness(a) < closeness(b); });
    std::vector<BiquadSection> sections;
    for (const auto& poles : polePairs) {
        std::size_t nearest = 0;
        double nearestDistance = INFINITY;
        for (std::size_t z = 0; z < zeroPairs.size(); ++z) {
            const double distance = std::abs(zeroPairs[z].first - poles.first) + std::abs(zeroPairs[z].second - poles.first);
            if (distance < nearestDistance) {
                nearestDistance = distance;
                nearest = z;
            }
        }
        const auto [b1, b2] = factor(zeroPairs[nearest]);
        const auto [a1, a2] = factor(poles);
        zeroPairs.erase(zeroPairs.begin() + static_cast<std::ptrdiff_t>(nearest));
        sections.push_back({1.0, b1, b2, a1, a2});
    }
    sections.front().b0 *= zpk.gain;
    sections.front().b1 *= zpk.gain;
    sections.front().b2 *= zpk.gain;
    return sections;
}

}  // namespace isochron::filters
