// spectral.spectrogram: power spectra of overlapping windowed frames (scipy.signal.spectrogram's
// frames), as power spectral density or power spectrum, linear or in dB.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor spectrogramDescriptor();

}  // namespace isochron
