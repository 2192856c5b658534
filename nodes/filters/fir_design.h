// Window-method FIR design (the method of scipy.signal.firwin and kaiserord): the ideal response's
// impulse response (a sum of sincs, one pair per pass band) centred on the middle tap, tapered by a
// symmetric window and scaled to unit gain at the centre of the first pass band. The taps are
// symmetric, so the filter is linear-phase with a delay of (taps - 1) / 2 samples.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace isochron::filters {

/// Which bands an FIR passes.
enum class FirResponse { Lowpass, Highpass, Bandpass, Bandstop };
/// The taper applied to the ideal impulse response (symmetric forms, as scipy's firwin uses).
enum class FirWindow { Rectangular, Hann, Hamming, Blackman, Kaiser };

/// "lowpass", "highpass", "bandpass", "bandstop".
const std::vector<std::string>& firResponseNames();
std::optional<FirResponse> firResponseFromName(std::string_view name);
/// "rectangular", "hann", "hamming", "blackman", "kaiser".
const std::vector<std::string>& firWindowNames();
std::optional<FirWindow> firWindowFromName(std::string_view name);

/// What to design. Frequencies in Hz, 0 < low < (high, for bands) < rate / 2. [value type]
struct FirSpecification {
    FirResponse response = FirResponse::Lowpass;
    double lowHz = 1000.0;   ///< the cutoff (lowpass, highpass) or the band's lower edge
    double highHz = 2000.0;  ///< the band's upper edge (bandpass, bandstop only)
    double rateHz = 48000.0;
    int taps = 63;           ///< >= 1; highpass and bandstop need an odd count (pass at Nyquist)
    FirWindow window = FirWindow::Hamming;
    double kaiserBeta = 8.6;  ///< shape of the Kaiser window (0 = rectangular)
};

/// Taps count and Kaiser beta meeting `attenuationDb` of stop-band attenuation (> 8 dB) with a
/// transition band `transitionHz` wide, by Kaiser's formulas (scipy.signal.kaiserord).
/// Throws std::invalid_argument outside the formulas' range. [any thread]
struct KaiserOrder {
    int taps = 0;
    double beta = 0.0;
};
KaiserOrder kaiserOrder(double attenuationDb, double transitionHz, double rateHz);

/// Kaiser's beta for a stop-band attenuation in dB (scipy.signal.kaiser_beta). [any thread]
double kaiserBeta(double attenuationDb);

/// The taps h[0 .. taps-1] (h[0] applies to the newest sample). Throws std::invalid_argument for
/// frequencies outside (0, rate / 2), a band whose edges are not increasing, or an even taps count
/// for a response that passes Nyquist. [any thread] [allocates]
std::vector<double> designFir(const FirSpecification& spec);

/// The symmetric window of `length` points (scipy.signal.get_window(..., fftbins=False)). [any thread] [allocates]
std::vector<double> symmetricWindow(FirWindow window, int length, double kaiserBeta);

}  // namespace isochron::filters
