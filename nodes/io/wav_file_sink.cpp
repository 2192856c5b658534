#include "nodes/io/wav_file_sink.h"

#include "nodes/io/sound_file_writer.h"

namespace isochron {

OperatorDescriptor wavFileSinkDescriptor() {
    OperatorDescriptor d;
    d.typeName = "io.wav_file_sink";
    d.category = "io";
    d.summary = "Writes f32 signals as the channels of one WAV file";
    d.documentation =
        "Input k becomes channel k, aligned by sample index, at the rate of the first segment. Samples "
        "an input misses are written as zeros (with a warning). The file grows under a name of its own beside it, 'path.<pid>.partial' (shortened with a hash when a long name would not fit), "
        "and replaces 'path' when the recording is complete. A recording cut short (the run stopped, the sink failed, or a node upstream of it failed) never "
        "replaces an existing file: it stays under its partial name, with a warning naming both; where no file was, it becomes "
        "'path', with a warning that it was cut short. A replacement keeps the old file's permissions; a write-protected file is "
        "refused. A symlink is written through and a device (/dev/null) in place, never "
        "replaced. Path - is standard output when it is redirected to a file. A file past 4 GiB is written as RF64 (a plain "
        "WAV below it, with room kept for the larger header); float32 files carry no PEAK chunk, so equal runs give equal "
        "bytes. In pcm16 a NaN is written as 0 and a sample "
        "beyond full scale (|x| > 1, infinities included) is clipped; float32 stores them as they are; either way the sink "
        "warns once with their counts. A source feeding it directly at a rate a file cannot state (above 2147483647 Hz) "
        "is refused at validation.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "channel k of the file", false, "channels"}};
    d.params = soundFileSinkParameters("WAV file to write (a file there is replaced by a complete recording; - = standard output, redirected to a file, with isochron-run --quiet)");
    d.params.push_back(ParamSpec{"format", ParamKind::Choice, std::string("pcm16"), {}, {}, "",
                                 "sample format: 16-bit integer or 32-bit float", {"pcm16", "float32"}});
    d.checkUpstream = refuseUnstatableRates;
    d.checkStart = refuseUnfitSoundOutput;
    d.create = [] {
        return std::make_unique<SoundFileSink>([](const ParamSet& params) {
            const bool pcm16 = params.getString("format") == "pcm16";
            return SoundFileFormat{SF_FORMAT_WAV | (pcm16 ? SF_FORMAT_PCM_16 : SF_FORMAT_FLOAT),
                                   pcm16 ? SoundFileFormat::Samples::Pcm16 : SoundFileFormat::Samples::Float};
        });
    };
    return d;
}

}  // namespace isochron
