// Classic IIR designs as cascades of biquads: Butterworth and Chebyshev type I, lowpass, highpass,
// bandpass and bandstop (the method of scipy.signal.iirfilter): the analog prototype's poles, a
// frequency transformation with prewarped edges, the bilinear transform, then poles and zeros
// grouped in conjugate pairs, one pair per section, with the gain in the first section. Sections are
// ordered with the poles farthest from the unit circle first (as scipy's zpk2sos does), which keeps
// intermediate signals small.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nodes/filters/biquad_section.h"

namespace isochron::filters {

/// The analog prototype.
enum class IirFamily { Butterworth, Chebyshev1 };
/// Which bands pass.
enum class IirResponse { Lowpass, Highpass, Bandpass, Bandstop };

/// "lowpass", "highpass", "bandpass", "bandstop".
const std::vector<std::string>& iirResponseNames();
std::optional<IirResponse> iirResponseFromName(std::string_view name);

/// What to design. Frequencies in Hz, 0 < low < (high, for bands) < rate / 2. [value type]
struct IirSpecification {
    IirFamily family = IirFamily::Butterworth;
    IirResponse response = IirResponse::Lowpass;
    int order = 4;              ///< prototype order 1..32 (bandpass and bandstop double it)
    double lowHz = 1000.0;      ///< cutoff, or the band's lower edge
    double highHz = 2000.0;     ///< the band's upper edge (bandpass, bandstop only)
    double rateHz = 48000.0;
    double rippleDb = 1.0;      ///< Chebyshev I: pass-band ripple, > 0
};

/// The digital filter's zeros, poles and gain (scipy's zpk form). [value type]
struct ZerosPolesGain {
    std::vector<std::complex<double>> zeros;
    std::vector<std::complex<double>> poles;
    double gain = 1.0;
};

/// Zeros, poles and gain of the design. Throws std::invalid_argument for frequencies outside
/// (0, rate / 2), band edges not increasing, an order outside 1..32 or a ripple <= 0. [any thread] [allocates]
ZerosPolesGain designIirZpk(const IirSpecification& spec);
/// The design as second-order sections (a first-order remainder as a section with b2 = a2 = 0). [any thread] [allocates]
std::vector<BiquadSection> designIir(const IirSpecification& spec);

}  // namespace isochron::filters
