// The audio input devices PortAudio sees, and finding one by name, for the capture operator, the
// editor's device picker and `isochron-run --list-devices`.
//
// A device is chosen by name and, optionally, host API (PortAudio's name for the audio system:
// "ALSA", "JACK Audio Connection Kit", "OSS"; PulseAudio appears through ALSA's "pulse" device).
// A name matches a device whose name is exactly it, else the one device whose name contains it
// ignoring case ("UMA-8" finds "UMA-8 USB: Audio (hw:2,0)"); "default" is the system's default
// input when no device is called that. The host API matches by a part of its name, ignoring case.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace isochron {

/// One audio device, listed for capture (inputs) or for playback (outputs). [value type]
struct CaptureDevice {
    int index = -1;              ///< PortAudio's device index (valid while the library is held)
    std::string name;            ///< e.g. "hw:CARD=Array,DEV=0" or "UMA-8 USB: Audio (hw:2,0)"
    std::string hostApi;         ///< e.g. "ALSA"
    int inputChannels = 0;       ///< most channels it captures at once (0 in a playback listing)
    int outputChannels = 0;      ///< most channels it plays at once (0 in a capture listing)
    double defaultRateHz = 0;    ///< the device's preferred sampling rate
    double lowLatencySeconds = 0;  ///< its suggested latency for interactive use, in the listing's direction
    bool isDefault = false;      ///< the system's default device in the listing's direction
};

/// Every device with at least one input channel, in PortAudio's order. Throws std::runtime_error
/// if PortAudio cannot start. [any thread; initialises PortAudio for the call]
std::vector<CaptureDevice> listCaptureDevices();

/// The device `name` names on host API `hostApi` ("" = any), from `devices` (see the header for
/// how names match). Throws std::invalid_argument saying what is missing or ambiguous and listing
/// the devices there are. [pure]
CaptureDevice findCaptureDevice(const std::vector<CaptureDevice>& devices, std::string_view name, std::string_view hostApi);

/// Every device with at least one output channel, in PortAudio's order (for io.audio_output).
/// Throws std::runtime_error if PortAudio cannot start. [any thread; initialises PortAudio for the call]
std::vector<CaptureDevice> listPlaybackDevices();

/// The output device `name` names on host API `hostApi`, matched as findCaptureDevice matches input
/// devices ("default" = the system's default output). Throws std::invalid_argument likewise. [pure]
CaptureDevice findPlaybackDevice(const std::vector<CaptureDevice>& devices, std::string_view name, std::string_view hostApi);

/// "48000 Hz": a rate as messages write it (whole Hz).
std::string describeRate(double rateHz);

/// "'name' (host API, N channels, R Hz)" for messages and listings (the listing's direction's channels).
std::string describeDevice(const CaptureDevice& device);

}  // namespace isochron
