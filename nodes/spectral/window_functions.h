// Window functions: the tapers applied to a frame before a spectral transform.
//
// Every window is the periodic ("DFT-even") form of Harris (1978): coefficient n of a window of L
// samples uses the period L, not L - 1,
//   hann      0.5  - 0.5  cos(2 pi n / L)
//   hamming   0.54 - 0.46 cos(2 pi n / L)
//   blackman  0.42 - 0.5  cos(2 pi n / L) + 0.08 cos(4 pi n / L)
// so that the window's DFT vanishes at the bin spacing and overlapped windows tile; this is the form
// spectral estimation wants (scipy.signal.get_window's default). A one-sample window is 1.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace isochron {

/// The window shapes the spectral operators offer.
enum class WindowShape { None, Hann, Hamming, Blackman };

/// The parameter spellings "none", "hann", "hamming", "blackman", in enum order (a Choice's list).
const std::vector<std::string>& windowShapeNames();

/// The shape spelled `name`; nullopt for an unknown name. [no allocation]
std::optional<WindowShape> windowShapeFromName(std::string_view name);

/// Fill `coefficients` with the periodic window of coefficients.size() samples (all 1 for None).
/// Coefficients are computed in double and rounded once. [any thread] [no allocation]
void fillWindow(WindowShape shape, std::span<float> coefficients);

}  // namespace isochron
