#include "nodes/resample/soxr_stream.h"

#include <soxr.h>

#include <cmath>
#include <stdexcept>

namespace isochron::resample {
namespace {

unsigned long recipeOf(ResampleQuality quality) {
    switch (quality) {
        case ResampleQuality::Quick: return SOXR_QQ;
        case ResampleQuality::Low: return SOXR_LQ;
        case ResampleQuality::Medium: return SOXR_MQ;
        case ResampleQuality::High: return SOXR_HQ;
        case ResampleQuality::VeryHigh: return SOXR_VHQ;
    }
    return SOXR_HQ;
}

}  // namespace

const std::vector<std::string>& resampleQualityNames() {
    static const std::vector<std::string> names{"quick", "low", "medium", "high", "very_high"};
    return names;
}

ResampleQuality resampleQualityFromName(std::string_view name) {
    const auto& names = resampleQualityNames();
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == name) return static_cast<ResampleQuality>(i);
    }
    throw std::invalid_argument("unknown resampling quality '" + std::string(name) + "'");
}

SoxrStream::SoxrStream(double inputRateHz, double outputRateHz, ResampleQuality quality) : ratio_(outputRateHz / inputRateHz) {
    const soxr_io_spec_t io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I);
    const soxr_quality_spec_t recipe = soxr_quality_spec(recipeOf(quality), 0);
    const soxr_runtime_spec_t runtime = soxr_runtime_spec(1);  // one thread: the engine's
    soxr_error_t error = nullptr;
    resampler_ = soxr_create(inputRateHz, outputRateHz, 1, &error, &io, &recipe, &runtime);
    if (error || !resampler_) throw std::invalid_argument(std::string("libsoxr refused the rates: ") + (error ? error : "unknown error"));
}

SoxrStream::~SoxrStream() { soxr_delete(resampler_); }

void SoxrStream::process(const float* input, std::size_t count, std::vector<float>& output) {
    output.clear();
    drain(input, count, output);
}

void SoxrStream::finish(std::vector<float>& output) {
    output.clear();
    drain(nullptr, 0, output);
}

void SoxrStream::drain(const float* input, std::size_t count, std::vector<float>& output) {
    // Output room for this input plus the filter's pending samples; soxr says when it needs more.
    const std::size_t room = static_cast<std::size_t>(std::ceil(static_cast<double>(count) * ratio_)) + 256;
    std::size_t consumed = 0;
    for (;;) {
        const std::size_t at = output.size();
        if (output.capacity() < at + room) output.reserve(2 * (at + room));
        output.resize(at + room);
        std::size_t used = 0, produced = 0;
        const soxr_error_t error = soxr_process(resampler_, input ? input + consumed : nullptr, count - consumed, &used,
                                                output.data() + at, room, &produced);
        if (error) throw std::runtime_error(std::string("libsoxr: ") + error);
        consumed += used;
        output.resize(at + produced);
        // Done when the input is used up and soxr left room unused (nothing more is ready).
        if (consumed == count && produced < room) return;
    }
}

}  // namespace isochron::resample
