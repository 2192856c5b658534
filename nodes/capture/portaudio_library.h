// PortAudioLibrary: one process-wide, reference-counted initialisation of PortAudio.
//
// PortAudio must be initialised before any device query or stream and terminated after the last
// one closes; Pa_Initialize/Pa_Terminate are not thread-safe. Every user holds a shared reference
// (device listing, each capture stream), so the library stays up exactly while someone needs it.
// The first initialisation also silences the diagnostics ALSA and JACK print on standard error
// while PortAudio probes devices that do not exist (a machine without a sound card or JACK server
// would otherwise print dozens of lines); errors still reach the caller through PortAudio's codes.
#pragma once

#include <memory>

namespace isochron {

/// Proof that PortAudio is initialised, for as long as it is held. [any thread]
class PortAudioLibrary {
public:
    /// A reference to the initialised library (initialising it if nobody holds one). Throws
    /// std::runtime_error with PortAudio's reason when it cannot start. [any thread, may block briefly]
    static std::shared_ptr<PortAudioLibrary> acquire();

    ~PortAudioLibrary();
    PortAudioLibrary(const PortAudioLibrary&) = delete;
    PortAudioLibrary& operator=(const PortAudioLibrary&) = delete;

private:
    PortAudioLibrary() = default;
};

}  // namespace isochron
