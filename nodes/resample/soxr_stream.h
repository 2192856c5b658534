// SoxrStream: one mono float stream through libsoxr (the SoX resampler), owned and freed here.
// libsoxr removes its own filter delay: output sample 0 lines up with input sample 0, and after
// finish() the output holds round(input count x ratio) samples.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

struct soxr;

namespace isochron::resample {

/// libsoxr's quality recipes, fastest first.
enum class ResampleQuality { Quick, Low, Medium, High, VeryHigh };

/// "quick", "low", "medium", "high", "very_high".
const std::vector<std::string>& resampleQualityNames();
ResampleQuality resampleQualityFromName(std::string_view name);

/// A libsoxr resampler from one rate to another with its buffered input. [one thread]
class SoxrStream {
public:
    /// Throws std::invalid_argument with libsoxr's message when it refuses the rates. [allocates]
    SoxrStream(double inputRateHz, double outputRateHz, ResampleQuality quality);
    ~SoxrStream();
    SoxrStream(const SoxrStream&) = delete;
    SoxrStream& operator=(const SoxrStream&) = delete;

    /// Resample `count` more samples, appending what is ready to `output` (cleared first).
    /// [no allocation once `output` has grown to its steady size]
    void process(const float* input, std::size_t count, std::vector<float>& output);
    /// End of input: append the remaining output (the filter's tail) to `output` (cleared first). [may allocate]
    void finish(std::vector<float>& output);

private:
    void drain(const float* input, std::size_t count, std::vector<float>& output);

    soxr* resampler_ = nullptr;
    double ratio_ = 1.0;
};

}  // namespace isochron::resample
