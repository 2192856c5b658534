// Helpers for the io and generators tests: temporary folders, WAV files written and read with
// libsndfile, and a graph run that keeps what each node reported.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/items/item.h"
#include "engine/runtime/engine.h"

namespace isochron::test {

/// A fresh, empty folder under the system temp directory, removed with everything in it on destruction.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    /// `name` inside the folder, as a string for graph parameters.
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

/// The contents of a sound file: `channels` interleaved samples per frame, as libsndfile's floats.
struct SoundData {
    int rateHz = 0;
    int channels = 0;
    std::vector<float> interleaved;

    std::int64_t frames() const { return channels ? static_cast<std::int64_t>(interleaved.size()) / channels : 0; }
    float at(std::int64_t frame, int channel) const { return interleaved[static_cast<std::size_t>(frame * channels + channel)]; }
};

/// Write a 16-bit PCM WAV file from interleaved int16 codes; throws std::runtime_error on failure.
void writePcm16Wav(const std::string& path, int rateHz, int channels, const std::vector<std::int16_t>& interleaved);
/// Write a 16-bit FLAC file; false (and no file) if this libsndfile was built without FLAC.
bool writePcm16Flac(const std::string& path, int rateHz, int channels, const std::vector<std::int16_t>& interleaved);
/// Write a 32-bit float WAV file; throws std::runtime_error on failure.
void writeFloatWav(const std::string& path, int rateHz, int channels, const std::vector<float>& interleaved);
/// Read any sound file libsndfile opens; throws std::runtime_error on failure.
SoundData readSound(const std::string& path);

/// The names of the files in `dir` that end in ".partial" (a sound file sink's files while they grow), sorted.
std::vector<std::string> partialFilesIn(const TempDir& dir);

/// Graph JSON: a node "src" of type `sourceType` with `params`, whose outputs out0..out<n-1> (or
/// "out" when `outputs` is 0) feed a test.collect named `collectName`.
std::string sourceToCollect(const std::string& sourceType, const nlohmann::json& params, int outputs,
                            const std::string& collectName);

/// Graph JSON: the events of feed script "events" (test.feed "feed") recorded by io.archive_sink
/// "rec" into stream `stream` of the archive `path`.
std::string recordEventsGraph(const std::string& path, const std::string& stream);

/// The samples of consecutive signal items, concatenated.
std::vector<float> concatenated(const std::vector<Item>& items);
/// Whether each item starts where the previous one ended, the first at `firstIndex`.
bool contiguousFrom(const std::vector<Item>& items, std::int64_t firstIndex);

/// What one node reported during a run.
struct NodeReport {
    std::vector<std::string> warnings;
    std::uint64_t calls = 0;  ///< process/produce invocations
};

/// A run's outcome and, by node id, what each node reported.
struct RunReport {
    RunOutcome outcome;
    std::map<std::string, NodeReport> nodes;
};

/// Like runGraph() (validated against testRegistry()), but keeps each node's warnings (those it gives as it is
/// deactivated included) and call count.
RunReport runGraphReporting(const std::string& graphJson, const std::string& scheduler = "df");

}  // namespace isochron::test
