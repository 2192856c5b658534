#include "biquad_coefficients.h"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace biquad {

Response responseNamed(std::string_view name) {
    if (name == "lowpass") return Response::Lowpass;
    if (name == "highpass") return Response::Highpass;
    if (name == "bandpass") return Response::Bandpass;
    if (name == "notch") return Response::Notch;
    throw std::invalid_argument("unknown response '" + std::string(name) + "'");
}

Coefficients designBiquad(Response response, double frequencyHz, double q, double rateHz) {
    const double w0 = 2 * std::numbers::pi * frequencyHz / rateHz;
    const double cosW0 = std::cos(w0);
    const double alpha = std::sin(w0) / (2 * q);
    double b0 = 0, b1 = 0, b2 = 0;
    switch (response) {
        case Response::Lowpass:
            b0 = (1 - cosW0) / 2;
            b1 = 1 - cosW0;
            b2 = (1 - cosW0) / 2;
            break;
        case Response::Highpass:
            b0 = (1 + cosW0) / 2;
            b1 = -(1 + cosW0);
            b2 = (1 + cosW0) / 2;
            break;
        case Response::Bandpass:
            b0 = alpha;
            b1 = 0;
            b2 = -alpha;
            break;
        case Response::Notch:
            b0 = 1;
            b1 = -2 * cosW0;
            b2 = 1;
            break;
    }
    const double a0 = 1 + alpha;
    return {b0 / a0, b1 / a0, b2 / a0, -2 * cosW0 / a0, (1 - alpha) / a0};
}

}  // namespace biquad
