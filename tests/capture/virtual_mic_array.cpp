#include "tests/capture/virtual_mic_array.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

namespace isochron::test {
namespace {

/// The folder holding the configuration and capture data; removed when the process exits.
struct ScratchFolder {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("isochron-virtual-mics-" + std::to_string(static_cast<long>(getpid())));
    ScratchFolder() { std::filesystem::create_directories(path); }
    ~ScratchFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};

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

}  // namespace

std::string installVirtualCaptureDevices(const std::vector<VirtualCaptureDevice>& devices) {
    static ScratchFolder folder;
    static const std::string configPath = [&] {
        std::string configuration;
        for (const VirtualCaptureDevice& device : devices) {
            const auto capturePath = folder.path / (device.name + ".raw");
            writeFrames(capturePath, device.frames);
            configuration += deviceConfiguration(device, capturePath);
        }
        const auto path = folder.path / "virtual-capture-devices.conf";
        std::ofstream(path) << configuration;
        const std::string value = "/usr/share/alsa/alsa.conf:" + path.string();
        setenv("ALSA_CONFIG_PATH", value.c_str(), 1);
        return value;
    }();
    return configPath;
}

}  // namespace isochron::test
