// Fuzz target: sound files through io.audio_file_source (WAV, FLAC, AIFF, 24-bit, float, ... as
// libsndfile reads them), run in a graph to its end.
//
// Input: one byte of source settings, then the file's bytes. Settings: bit 0 preload, bits 1-2 the
// block (1, 3, 64 or 4096 samples), bit 3 channels = 0 (as many as the file has) instead of 1,
// bit 4 two loops instead of one. Properties: the run ends (no crash, no hang); a file libsndfile
// cannot open or read to the end its header promises is an error with a message, and so is one whose
// header contradicts itself on the bytes per frame (samples not a whole number of bytes wide, and a
// block align that disagrees, so the frame count is a guess); any other file runs without error and
// delivers exactly its frames per loop on channel 0.
#include <sndfile.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "engine/graph/graph_file.h"
#include "tests/fuzz/fuzz_support.h"

using namespace isochron;

namespace {

/// Frames libsndfile reads from `path` to its end, or -1 if it cannot open it or a read fails
/// before the frame count its header gives.
sf_count_t readableFrames(const std::filesystem::path& path) {
    SF_INFO info{};
    SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
    if (!file) return -1;
    std::vector<float> chunk(static_cast<std::size_t>(info.channels) * 1024);
    sf_count_t total = 0;
    for (sf_count_t got; total < info.frames && (got = sf_readf_float(file, chunk.data(), 1024)) > 0;) total += got;
    sf_close(file);
    return total >= info.frames ? info.frames : -1;
}

/// The number after "<name> :" in libsndfile's notes, or -1.
long noteValue(const std::string& notes, const std::string& name) {
    const std::size_t at = notes.find(name);
    if (at == std::string::npos) return -1;
    const std::size_t colon = notes.find(':', at);
    return colon == std::string::npos ? -1 : std::strtol(notes.c_str() + colon + 1, nullptr, 10);
}

/// Whether `path`'s header, as libsndfile notes it, gives PCM samples (not a compressed encoding such
/// as G.721 ADPCM, whose block align holds many samples) that are not a whole number of bytes wide and
/// a block align (bytes per frame) other than channels x the bytes that width takes.
bool framesAreAGuess(const std::filesystem::path& path) {
    SF_INFO info{};
    SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
    if (!file) return false;
    char log[8192] = {};
    sf_command(file, SFC_GET_LOG_INFO, log, sizeof log);
    sf_close(file);
    const std::string notes(log);
    const long bits = noteValue(notes, "Bit Width");
    const long channels = noteValue(notes, "Channels");
    const long blockAlign = noteValue(notes, "Block Align");
    const std::size_t format = notes.find("Format");
    const std::string formatLine = format == std::string::npos ? std::string() : notes.substr(format, notes.find('\n', format) - format);
    if (!formatLine.empty() && formatLine.find("WAVE_FORMAT_PCM") == std::string::npos && formatLine.find("WAVE_FORMAT_EXTENSIBLE") == std::string::npos) return false;
    return bits > 0 && bits % 8 != 0 && channels >= 0 && blockAlign >= 0 && blockAlign != channels * ((bits + 7) / 8);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::uint8_t settings = data[0];
    const std::filesystem::path path = fuzz::scratchDirectory() / "input.audio";
    fuzz::writeFile(path, std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));

    const bool preload = settings & 1;
    const int block = std::vector<int>{1, 3, 64, 4096}[(settings >> 1) & 3];
    const int channels = (settings & 8) ? 0 : 1;
    const int loops = (settings & 16) ? 2 : 1;
    nlohmann::json source = {{"path", path.string()}, {"preload", preload}, {"block", block}, {"channels", channels}, {"loops", loops}};
    GraphSpec graph = parseGraph(nlohmann::json{
        {"format", kGraphFormat},
        {"nodes", {{{"id", "source"}, {"type", "io.audio_file_source"}, {"params", source}},
                   {{"id", "out"}, {"type", "io.null_sink"}}}},
        {"edges", {{{"from", "source.out0"}, {"to", "out.in"}}}}}.dump());

    const fuzz::GraphRun run = fuzz::runGraph(graph);
    const sf_count_t frames = readableFrames(path);
    if (frames < 0) {
        fuzz::require(!run.error.empty(), "a file libsndfile cannot read to its end ran without an error");
    } else if (framesAreAGuess(path)) {
        fuzz::require(run.error.find("contradicts itself") != std::string::npos, "a header that contradicts itself was not refused: " + run.error);
    } else {
        fuzz::require(run.error.empty(), "a file libsndfile reads failed: " + run.error);
        fuzz::require(run.samplesIn.at("out") == static_cast<std::uint64_t>(frames * loops),
                      "channel 0 delivered other than the file's frames per loop");
    }
    return 0;
}
