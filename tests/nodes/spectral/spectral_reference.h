// The committed reference values of the short-time spectral tests (data/spectral_reference.json,
// written by data/make_spectral_reference.py from scipy.signal and numpy), and helpers to feed them.
#pragma once

#include <complex>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/graph_run.h"

namespace isochron::test {

/// The parsed reference file (read once).
inline const nlohmann::json& spectralReference() {
    static const nlohmann::json reference = [] {
        std::ifstream in(std::string(ISOCHRON_SOURCE_DIR) + "/tests/nodes/spectral/data/spectral_reference.json");
        return nlohmann::json::parse(in);
    }();
    return reference;
}

/// The reference input signal (float32 values).
inline std::vector<float> referenceSignal() { return spectralReference()["signal"].get<std::vector<float>>(); }

/// The reference STFT frames (hop N/2, hann), [frame][bin], unnormalized.
inline std::vector<std::vector<std::complex<double>>> referenceStftFrames() {
    const nlohmann::json& stft = spectralReference()["stft"];
    const auto real = stft["real"].get<std::vector<double>>();
    const auto imag = stft["imag"].get<std::vector<double>>();
    const std::size_t bins = stft["size"].get<std::size_t>() / 2 + 1;
    std::vector<std::vector<std::complex<double>>> frames(stft["frames"].get<std::size_t>());
    for (std::size_t f = 0; f < frames.size(); ++f) {
        for (std::size_t k = 0; k < bins; ++k) frames[f].emplace_back(real[f * bins + k], imag[f * bins + k]);
    }
    return frames;
}

/// A frame<f32> item of `values` over samples [start, start + length) at the reference rate.
inline Item referenceFrame(const std::vector<float>& values, std::int64_t start, std::int64_t length) {
    const Timebase& timebase = Timebase::get(spectralReference()["rate"].get<double>());
    return Item::frame(SigSeg<float>::copyOf(values, 0, nullptr), SampleRange{&timebase, start, length});
}

}  // namespace isochron::test
