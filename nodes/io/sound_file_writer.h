// SoundFileSink: the operator body of the sound file sinks (io.wav_file_sink, io.sound_file_sink):
// f32 inputs interleaved into the channels of one file written through libsndfile.
//
// Input k becomes channel k. A frame is written once every input has delivered it (so the result
// does not depend on arrival order); samples missing from an input (a gap, a late start, an early
// end) are written as zeros, with a warning. The file is opened at the first segment (its rate is not
// known before) and takes its name as growing_file.h says: it grows under a partial file of its own
// and is renamed to `path` when complete; a recording cut short never replaces an existing file.
// "-" writes to standard output when that is a file (a WAV header is completed by seeking back, which
// a pipe or terminal cannot).
//
// Samples a file cannot hold as they are do not pass silently: into integer samples (PCM) a NaN is
// written as 0 and a sample beyond full scale (|x| > 1, infinities included) is clipped to it; a float
// file stores NaN and infinities as they are. Either way the sink counts them and warns once, when the
// file is closed, with the counts.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/io/channel_interleaver.h"
#include "nodes/io/growing_file.h"
#include "nodes/io/sound_file.h"

namespace isochron {

/// How samples are stored in the file. [value type]
struct SoundFileFormat {
    /// How the samples are handed to libsndfile (integer PCM is rounded here, see sound_file_writer.cpp).
    enum class Samples { Pcm16, Pcm24, Float };
    int libsndfileFormat = 0;         ///< SF_FORMAT_* major | subtype
    Samples samples = Samples::Float;
    double vbrQuality = -1.0;         ///< lossy formats: SFC_SET_VBR_ENCODING_QUALITY in [0, 1]; < 0 = libsndfile's default
};

/// Picks the format from a node's parameters; throws std::invalid_argument with a message naming the parameter.
using SoundFileFormatChoice = std::function<SoundFileFormat(const ParamSet& params)>;

/// Writes its inputs as the channels of one sound file. [engine thread]
class SoundFileSink final : public Operator {
public:
    explicit SoundFileSink(SoundFileFormatChoice chooseFormat) : chooseFormat_(std::move(chooseFormat)) {}

protected:
    void onActivate() override;
    void process(int port, Item&& item) override;
    void onFinish() override;
    void onDeactivate() override;

private:
    void openFile(int port, const Timebase& timebase);
    void setOrigin();
    void writeUpTo(std::int64_t end);
    void writeChunk(std::int64_t frames);
    void warnZeros(int port, std::int64_t from, std::int64_t to);
    void countUnrepresentable(std::ptrdiff_t count);
    void warnUnrepresentable();
    /// How a recording ended: every input ended (onFinish), or not (a stop, a failure).
    enum class Recording { Complete, CutShort };
    std::string closeFile(Recording recording);
    /// The file as messages name it: its own name (not the partial one it grows under), or "standard output".
    const std::string& shownPath() const { return destination_ == Destination::File ? path_ : writingPath_; }

    SoundFileFormatChoice chooseFormat_;
    SoundFileFormat format_;
    std::string path_;  // symlinks followed
    GrowingFile growing_;  // the file, unless the sink writes standard output
    /// Where the samples go while the file grows: growing_'s writing path, or "standard output".
    std::string writingPath_;
    enum class Destination { File, StandardOutput };
    Destination destination_ = Destination::File;
    SoundFile file_;
    double rateHz_ = 0;
    ChannelInterleaver inputs_;
    bool originKnown_ = false;
    std::int64_t written_ = 0;  // sample index of the next frame to write
    std::vector<float> interleaved_;
    std::vector<std::int16_t> pcm16_;
    std::vector<std::int32_t> pcm24_;
    // Samples written so far that the file could not hold as they are (reported once, then reset).
    std::int64_t notANumber_ = 0;
    std::int64_t infinite_ = 0;
    std::int64_t beyondFullScale_ = 0;  // finite, |x| > 1
};

/// A sound file sink's checkUpstream (so `isochron-run --check` refuses what the run would): when every
/// node upstream is a source, each feeds the sink directly, and one that states its rate ("rate", in
/// Hz) must give a rate a sound file can state (a whole number of Hz from 1 to 2147483647). Throws
/// std::runtime_error naming that source. Further upstream, rates are known only once the run has
/// started, and the sink refuses such a rate at its first samples. [setup thread]
void refuseUnstatableRates(const ParamSet& params, const std::vector<UpstreamNode>& upstream);

/// The sound file sinks' start check (OperatorDescriptor::checkStart): throws what their start would
/// refuse about the output itself here, so --check says it too: '-' or standard output's own file
/// when standard output is a pipe, a terminal, appended to or already written to; a pipe or terminal
/// named directly (/dev/stdout into a pipe). [setup thread]
std::vector<std::string> refuseUnfitSoundOutput(const ParamSet& params);

/// The parameters every sound file sink has: path, channels. [setup]
std::vector<ParamSpec> soundFileSinkParameters(const std::string& pathDoc);

}  // namespace isochron
