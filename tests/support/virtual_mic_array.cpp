#include "tests/support/virtual_mic_array.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace isochron::test {
namespace {

/// The folder holding the configuration, capture data and playback recordings; removed at exit.
struct ScratchFolder {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("isochron-virtual-mics-" + std::to_string(static_cast<long>(getpid())));
    ScratchFolder() { std::filesystem::create_directories(path); }
    ~ScratchFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};

/// Makes `path` a FIFO holding `frames`, open for writing for the rest of the process (the write end
/// is never closed, so a reader waits once the data is consumed).
void makeStallingFifo(const std::filesystem::path& path, const std::vector<float>& frames) {
    const std::size_t bytes = frames.size() * sizeof(float);
    if (bytes > 60000) throw std::runtime_error("a stalling device holds at most 60 KB of frames (one pipe buffer)");
    if (mkfifo(path.c_str(), 0600) != 0) throw std::runtime_error("cannot make the FIFO " + path.string());
    const int writer = open(path.c_str(), O_RDWR);  // O_RDWR: does not wait for a reader
    if (writer < 0 || write(writer, frames.data(), bytes) != static_cast<ssize_t>(bytes)) {
        throw std::runtime_error("cannot fill the FIFO " + path.string());
    }
}

void writeFrames(const std::filesystem::path& path, const std::vector<float>& frames) {
    std::ofstream out(path, std::ios::binary);
    // Native floats: little-endian IEEE 754 on every platform this project builds for (x86-64).
    out.write(reinterpret_cast<const char*>(frames.data()), static_cast<std::streamsize>(frames.size() * sizeof(float)));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string deviceConfiguration(const VirtualCaptureDevice& device, const std::filesystem::path& capturePath) {
    const std::string output = device.failsAfterStart ? "/dev/full" : "/dev/null";
    return "pcm." + device.name + " {\n  type file\n  slave.pcm \"null\"\n  file \"" + output + "\"\n  infile \"" +
           capturePath.string() + "\"\n  format \"raw\"\n  hint { show on description \"Isochron test: virtual " +
           std::to_string(device.channels) + "-channel microphone array\" }\n}\n";
}

std::string playbackConfiguration(const VirtualPlaybackDevice& device) {
    return "pcm." + device.name + " {\n  type file\n  slave.pcm \"null\"\n  file \"" + playbackRecording(device.name) +
           "\"\n  format \"raw\"\n  hint { show on description \"Isochron test: virtual speakers\" }\n}\n";
}

ScratchFolder& scratchFolder() {
    static ScratchFolder folder;
    return folder;
}

}  // namespace

std::string playbackRecording(const std::string& name) { return (scratchFolder().path / (name + ".played.raw")).string(); }

std::string installVirtualCaptureDevices(const std::vector<VirtualCaptureDevice>& devices, const std::vector<VirtualPlaybackDevice>& playback) {
    ScratchFolder& folder = scratchFolder();
    static const std::string configPath = [&] {
        // `default` too: PortAudio 19.6 asserts that at least one PCM (`default` or `dmix`) waits for
        // its second listing pass.
        std::string configuration = "pcm.null { type null }\npcm.default { type null }\n";
        for (const VirtualCaptureDevice& device : devices) {
            const auto capturePath = folder.path / (device.name + ".raw");
            if (device.stallsAfterData) makeStallingFifo(capturePath, device.frames);
            else writeFrames(capturePath, device.frames);
            configuration += deviceConfiguration(device, capturePath);
        }
        for (const VirtualPlaybackDevice& device : playback) configuration += playbackConfiguration(device);
        const auto path = folder.path / "virtual-capture-devices.conf";
        std::ofstream(path) << configuration;
        // Only these devices: ALSA's system configuration would add its plugin PCMs (a52, lavrate,
        // pulse, ...), which PortAudio opens while listing devices, so tests would depend on which
        // plugins the machine has (and LeakSanitizer reports what those plugins leak).
        const std::string value = path.string();
        setenv("ALSA_CONFIG_PATH", value.c_str(), 1);
        return value;
    }();
    return configPath;
}

std::string installNoAudioDevices() {
    static ScratchFolder folder;
    static const std::string configPath = [&] {
        const auto path = folder.path / "no-audio-devices.conf";
        std::ofstream(path) << "pcm.default { type hw card 31 }\n";  // PortAudio needs a `default` to list; this one never opens
        const std::string value = path.string();
        setenv("ALSA_CONFIG_PATH", value.c_str(), 1);
        return value;
    }();
    return configPath;
}

}  // namespace isochron::test
