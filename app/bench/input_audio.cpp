#include "app/bench/input_audio.h"

#include <sndfile.h>

#include <stdexcept>

namespace isochron::bench {

std::vector<float> loadFirstChannel(const std::filesystem::path& path) {
    SF_INFO info{};
    SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
    if (!file) throw std::runtime_error("cannot open " + path.string() + ": " + sf_strerror(nullptr));
    std::vector<float> interleaved(static_cast<std::size_t>(info.frames) * static_cast<std::size_t>(info.channels));
    sf_count_t read = sf_readf_float(file, interleaved.data(), info.frames);
    sf_close(file);
    std::vector<float> mono(static_cast<std::size_t>(read));
    for (std::size_t i = 0; i < mono.size(); ++i) mono[i] = interleaved[i * static_cast<std::size_t>(info.channels)];
    return mono;
}

}  // namespace isochron::bench
