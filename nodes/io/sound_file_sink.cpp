#include "nodes/io/sound_file_sink.h"

#include <stdexcept>
#include <string>

#include "nodes/io/sound_file_writer.h"

namespace isochron {
namespace {

/// The container from the parameter, or from the path's extension for "auto".
std::string containerOf(const ParamSet& params) {
    const std::string& chosen = params.getString("container");
    if (chosen != "auto") return chosen;
    const std::string& path = params.getString("path");
    for (const char* extension : {"flac", "ogg", "opus", "wav"}) {
        if (path.ends_with(std::string(".") + extension)) return extension;
    }
    throw std::invalid_argument("parameter 'container' is auto but '" + path + "' ends in none of .flac, .ogg, .opus, .wav");
}

SoundFileFormat chooseFormat(const ParamSet& params) {
    const std::string container = containerOf(params);
    const std::string& samples = params.getString("samples");
    const double quality = params.getReal("quality");
    if (container == "ogg") return {SF_FORMAT_OGG | SF_FORMAT_VORBIS, SoundFileFormat::Samples::Float, quality};
    if (container == "opus") return {SF_FORMAT_OGG | SF_FORMAT_OPUS, SoundFileFormat::Samples::Float, quality};
    const int major = container == "flac" ? SF_FORMAT_FLAC : SF_FORMAT_WAV;
    if (samples == "pcm24") return {major | SF_FORMAT_PCM_24, SoundFileFormat::Samples::Pcm24};
    if (samples == "float32") {
        if (container == "flac") throw std::invalid_argument("FLAC stores integers: parameter 'samples' must be pcm16 or pcm24");
        return {major | SF_FORMAT_FLOAT, SoundFileFormat::Samples::Float};
    }
    return {major | SF_FORMAT_PCM_16, SoundFileFormat::Samples::Pcm16};
}

}  // namespace

OperatorDescriptor soundFileSinkDescriptor() {
    OperatorDescriptor d;
    d.typeName = "io.sound_file_sink";
    d.category = "io";
    d.summary = "Writes f32 signals as the channels of a FLAC, Ogg Vorbis, Ogg Opus or WAV file (libsndfile)";
    d.documentation =
        "Input k becomes channel k, aligned by sample index, at the rate of the first segment; samples an input misses "
        "are written as zeros (with a warning). FLAC and WAV are lossless at their sample format: integers are rounded "
        "to the nearest code (x 2^15 or x 2^23) and clipped, so a file read back gives every sample to half a code. Ogg "
        "Vorbis and Opus are lossy, their size set by 'quality' (0 smallest, 1 best). Opus accepts 8, 12, 16, 24 and "
        "48 kHz only. The file grows under a name of its own beside it, 'path.<pid>.partial' (shortened with a hash when a long name would not fit), "
        "and replaces 'path' when the recording is complete. A recording cut short (the run stopped, the sink failed, or a node upstream of it failed) never "
        "replaces an existing file: it stays under its partial name, with a warning naming both; where no file was, it becomes "
        "'path', with a warning that it was cut short. A replacement keeps the old file's permissions; a write-protected file is "
        "refused. A symlink is written through and a device (/dev/null) in place, never "
        "replaced. Path - is standard output when it is redirected to a file. A WAV past 4 GiB is written as RF64 (a plain WAV below). "
        "A NaN sample is written as 0 in integer formats, and stored as it is in float32 (as are infinities); the "
        "sink warns once with the counts of NaN, infinite and clipped samples. A source feeding it directly at a "
        "rate a file cannot state (above 2147483647 Hz) is refused at validation.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "channel k of the file", false, "channels"}};
    d.params = soundFileSinkParameters("sound file to write (a file there is replaced by a complete recording; - = standard output, redirected to a file, with isochron-run --quiet)");
    d.params.push_back(ParamSpec{"container", ParamKind::Choice, std::string("auto"), {}, {}, "",
                                 "file type: flac, ogg (Vorbis), opus (Ogg Opus), wav; auto = from the path's extension",
                                 {"auto", "flac", "ogg", "opus", "wav"}});
    d.params.push_back(ParamSpec{"samples", ParamKind::Choice, std::string("pcm16"), {}, {}, "",
                                 "lossless formats: 16- or 24-bit integers, or (WAV only) 32-bit float", {"pcm16", "pcm24", "float32"}});
    d.params.push_back(ParamSpec{"quality", ParamKind::Real, 0.6, 0.0, 1.0, "", "lossy formats (ogg, opus): encoder quality, 0 smallest .. 1 best"});
    d.checkUpstream = refuseUnstatableRates;
    d.checkStart = refuseUnfitSoundOutput;
    d.create = [] { return std::make_unique<SoundFileSink>(chooseFormat); };
    return d;
}

}  // namespace isochron
