// Virtual multichannel capture devices for tests on machines without a sound card (CI).
//
// Each device is an ALSA PCM that PortAudio opens like a microphone: a `file` plugin reading raw
// interleaved 32-bit float frames from a file the test writes (its capture data; silence after the
// end) over the `null` plugin, which takes any format, channel count and rate. capture.audio_input
// asks for float samples, so PortAudio opens the device in that format and the data arrives bit for
// bit. (A `plug` in front to fix the format would not do: its conversion reads ahead of what it
// delivers, and the `file` plugin then skips data.) The devices are declared in an ALSA
// configuration file of the test's own, which replaces the system's through ALSA_CONFIG_PATH before
// PortAudio first starts in the process: PortAudio then lists these devices and nothing else. The `null` plugin does not pace: a device delivers frames as fast as they
// are read, so a test controls how much it captures (capture.audio_input's `duration`) and sees
// overflow at once when the engine is slower than the device.
// A device can also fail after its first few blocks: its `file` output goes to /dev/full, so the
// plugin's first flush fails and PortAudio ends the stream, as when a USB array is unplugged. Or it
// can stall: its capture data comes through a FIFO that this process holds open for writing (so
// opening the device never blocks) and never refills, so after the data the audio thread waits in
// read() forever, as when a device hangs without reporting an error.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace isochron::test {

/// One virtual capture device. [value type]
struct VirtualCaptureDevice {
    std::string name;                    ///< the ALSA PCM name PortAudio lists
    int channels = 4;                    ///< channels in `frames` (the device takes any count: open it with this one)
    std::vector<float> frames;           ///< interleaved capture data, frames x channels
    bool failsAfterStart = false;        ///< the stream breaks after a few blocks
    bool stallsAfterData = false;        ///< after `frames` (at most 60 KB of them), nothing ever comes
};

/// One virtual playback device: an ALSA `file` PCM over `null` that writes what is played, raw
/// interleaved 32-bit float frames, to playbackRecording(name). It takes any channel count and rate
/// and, like the capture devices, keeps no clock: it plays as fast as it is fed. [value type]
struct VirtualPlaybackDevice {
    std::string name;  ///< the ALSA PCM name PortAudio lists
};

/// Declares `devices` to ALSA for this process. Call once, before anything starts PortAudio;
/// later calls must pass the same names (they are ignored). Files live in a temporary folder
/// removed at exit. Returns the ALSA_CONFIG_PATH value set (for child processes).
std::string installVirtualCaptureDevices(const std::vector<VirtualCaptureDevice>& devices,
                                         const std::vector<VirtualPlaybackDevice>& playback = {});

/// The file playback device `name` writes its frames to (created when the device is first opened).
std::string playbackRecording(const std::string& name);

/// Declares no usable audio device, input or output, as on a machine without a sound card (CI
/// without its virtual devices): ALSA's `default` names a card that does not exist. Call instead of
/// installVirtualCaptureDevices, before anything starts PortAudio. Returns the ALSA_CONFIG_PATH value set.
std::string installNoAudioDevices();

}  // namespace isochron::test
