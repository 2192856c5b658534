// Opening a sound file for reading with libsndfile, and saying in words what is wrong when it cannot
// be read. libsndfile's own texts ("Unspecified internal error.", "Internal error : SF_INFO struct
// incomplete.", "Error : unknown error in flac decoder.") name neither the file nor the fault; the
// messages here name the file and what its header says, keeping libsndfile's text as a detail.
// io.audio_file_source uses them at validation (so `isochron-run --check` reports what the run
// would) and when it starts.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "nodes/io/sound_file.h"

namespace isochron {

/// A sound file open for reading, with what libsndfile read from its header. [one thread at a time]
struct SoundFileForReading {
    SoundFile file;
    SF_INFO info{};
    std::string headerLog;  ///< libsndfile's notes on the header (SFC_GET_LOG_INFO)
};

/// Thrown by openSoundFileForReading() when the run was asked to stop (engine/runtime/start_interruption.h)
/// while it waited for a program to open the other end of a named pipe. [value type]
class SoundFileOpenInterrupted : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Opens `path` (header only: no sample is decoded). A named pipe is waited on until a program
/// writes into it, and the wait gives up (SoundFileOpenInterrupted) when the run is asked to stop: a
/// plain open waited in the kernel, deaf to Ctrl-C and SIGTERM. Throws std::runtime_error "cannot open 'path':
/// <what is wrong> (libsndfile: <its text>)" when libsndfile refuses the file, and also when the
/// header contradicts itself so that libsndfile would have to guess the frame count (samples whose
/// bit width is not a whole number of bytes, with a block align that disagrees). [any thread]
SoundFileForReading openSoundFileForReading(const std::string& path);

/// What to say when reading `path` stopped at frame `atFrame` with libsndfile's error `detail`
/// (sf_strerror), e.g. a FLAC stream that no longer decodes. [any thread]
std::string soundFileReadFailure(const std::string& path, std::int64_t atFrame, const std::string& detail);

}  // namespace isochron
