// Second-order section coefficients from Robert Bristow-Johnson's "Audio EQ Cookbook".
#pragma once

#include <string_view>

namespace biquad {

/// The responses this plugin offers (the "response" parameter's choices).
enum class Response { Lowpass, Highpass, Bandpass, Notch };

/// "lowpass", "highpass", "bandpass" (0 dB peak) or "notch"; throws std::invalid_argument otherwise.
Response responseNamed(std::string_view name);

/// y[n] = b0 x[n] + b1 x[n-1] + b2 x[n-2] - a1 y[n-1] - a2 y[n-2], normalized so that a0 = 1.
struct Coefficients {
    double b0 = 1, b1 = 0, b2 = 0, a1 = 0, a2 = 0;
};

/// Coefficients for a centre/corner `frequencyHz` (0 < f < rateHz / 2) and quality `q` (> 0). [no allocation]
Coefficients designBiquad(Response response, double frequencyHz, double q, double rateHz);

}  // namespace biquad
