#include "nodes/capture/capture_devices.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include <portaudio.h>

#include "nodes/capture/portaudio_library.h"

namespace isochron {
namespace {

std::string lowercase(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower;
}

bool containsIgnoringCase(std::string_view text, std::string_view part) {
    return lowercase(text).find(lowercase(part)) != std::string::npos;
}

/// "; input devices: 'a' (ALSA, 2 channels, 48000 Hz), ..." or a sentence saying there are none.
std::string listForMessage(const std::vector<CaptureDevice>& devices, const std::string& direction) {
    if (devices.empty()) return "; there is no audio " + direction + " device at all (no sound card, or the audio system is not running)";
    std::string text = "; " + direction + " devices: ";
    for (std::size_t i = 0; i < devices.size(); ++i) {
        if (i) text += ", ";
        text += describeDevice(devices[i]);
    }
    return text;
}

/// Devices with inputs (`outputs` false) or outputs (true).
std::vector<CaptureDevice> listDevices(bool outputs) {
    const auto library = PortAudioLibrary::acquire();
    std::vector<CaptureDevice> devices;
    const PaDeviceIndex defaultDevice = outputs ? Pa_GetDefaultOutputDevice() : Pa_GetDefaultInputDevice();
    const PaDeviceIndex count = Pa_GetDeviceCount();
    for (PaDeviceIndex i = 0; i < count; ++i) {
        const PaDeviceInfo* info = Pa_GetDeviceInfo(i);
        if (!info || (outputs ? info->maxOutputChannels : info->maxInputChannels) <= 0) continue;
        const PaHostApiInfo* api = Pa_GetHostApiInfo(info->hostApi);
        CaptureDevice device;
        device.index = i;
        device.name = info->name;
        device.hostApi = api ? api->name : "unknown";
        (outputs ? device.outputChannels : device.inputChannels) = outputs ? info->maxOutputChannels : info->maxInputChannels;
        device.defaultRateHz = info->defaultSampleRate;
        device.lowLatencySeconds = outputs ? info->defaultLowOutputLatency : info->defaultLowInputLatency;
        device.isDefault = i == defaultDevice;
        devices.push_back(std::move(device));
    }
    return devices;
}

/// findCaptureDevice's matching; `direction` ("input" or "output") words the messages.
CaptureDevice findDevice(const std::vector<CaptureDevice>& devices, std::string_view name, std::string_view hostApi,
                         const std::string& direction) {
    std::vector<const CaptureDevice*> onApi;
    for (const CaptureDevice& device : devices) {
        if (hostApi.empty() || containsIgnoringCase(device.hostApi, hostApi)) onApi.push_back(&device);
    }
    const std::string where = hostApi.empty() ? "" : " on host API '" + std::string(hostApi) + "'";
    for (const CaptureDevice* device : onApi) {
        if (device->name == name) return *device;
    }
    if (name == "default") {
        for (const CaptureDevice* device : onApi) {
            if (device->isDefault) return *device;
        }
        throw std::invalid_argument("no default " + direction + " device" + where + listForMessage(devices, direction));
    }
    std::vector<const CaptureDevice*> partial;
    for (const CaptureDevice* device : onApi) {
        if (containsIgnoringCase(device->name, name)) partial.push_back(device);
    }
    if (partial.size() == 1) return *partial.front();
    if (partial.empty()) {
        throw std::invalid_argument("no " + direction + " device named '" + std::string(name) + "'" + where + listForMessage(devices, direction));
    }
    std::string candidates;
    for (const CaptureDevice* device : partial) candidates += (candidates.empty() ? "" : ", ") + describeDevice(*device);
    // Appended piece by piece: GCC 12 warns (-Wrestrict, falsely) on "literal" + std::string&&.
    std::string message("'");
    message += name;
    message += "' matches several " + direction + " devices" + where + ": " + candidates + "; give more of the name or the host API";
    throw std::invalid_argument(message);
}

}  // namespace

std::vector<CaptureDevice> listCaptureDevices() { return listDevices(false); }

std::vector<CaptureDevice> listPlaybackDevices() { return listDevices(true); }

CaptureDevice findCaptureDevice(const std::vector<CaptureDevice>& devices, std::string_view name, std::string_view hostApi) {
    return findDevice(devices, name, hostApi, "input");
}

CaptureDevice findPlaybackDevice(const std::vector<CaptureDevice>& devices, std::string_view name, std::string_view hostApi) {
    return findDevice(devices, name, hostApi, "output");
}

std::string describeRate(double rateHz) { return std::to_string(static_cast<long>(std::lround(rateHz))) + " Hz"; }

std::string describeDevice(const CaptureDevice& device) {
    const int channels = device.inputChannels > 0 ? device.inputChannels : device.outputChannels;
    return "'" + device.name + "' (" + device.hostApi + ", " + std::to_string(channels) + " channels, " +
           std::to_string(static_cast<long>(std::lround(device.defaultRateHz))) + " Hz)";
}

}  // namespace isochron
