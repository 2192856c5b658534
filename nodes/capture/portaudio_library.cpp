#include "nodes/capture/portaudio_library.h"

#include <mutex>
#include <stdexcept>
#include <string>

#include <alsa/asoundlib.h>
#include <jack/jack.h>
#include <portaudio.h>

namespace isochron {
namespace {

std::mutex& libraryMutex() {
    static std::mutex mutex;
    return mutex;
}

void ignoreAlsaDiagnostic(const char*, int, const char*, int, const char*, ...) {}
void ignoreJackDiagnostic(const char*) {}

void silenceBackendDiagnostics() {
    snd_lib_error_set_handler(ignoreAlsaDiagnostic);
    jack_set_error_function(ignoreJackDiagnostic);
    jack_set_info_function(ignoreJackDiagnostic);
}

}  // namespace

std::shared_ptr<PortAudioLibrary> PortAudioLibrary::acquire() {
    static std::weak_ptr<PortAudioLibrary> current;
    std::lock_guard lock(libraryMutex());
    if (auto held = current.lock()) return held;
    static std::once_flag silenced;
    std::call_once(silenced, silenceBackendDiagnostics);
    const PaError error = Pa_Initialize();
    if (error != paNoError) throw std::runtime_error(std::string("PortAudio cannot start: ") + Pa_GetErrorText(error));
    std::shared_ptr<PortAudioLibrary> library(new PortAudioLibrary());
    current = library;
    return library;
}

PortAudioLibrary::~PortAudioLibrary() {
    std::lock_guard lock(libraryMutex());
    Pa_Terminate();
}

}  // namespace isochron
