// Loading the benchmark input for benchmarks that do not go through a graph.
#pragma once

#include <filesystem>
#include <vector>

namespace isochron::bench {

/// The first channel of an audio file as floats (libsndfile's scaling). Throws on failure.
std::vector<float> loadFirstChannel(const std::filesystem::path& path);

}  // namespace isochron::bench
