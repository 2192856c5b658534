// The one error type of plugin loading: it names the plugin file and the reason.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace isochron {

/// A plugin refused or failed: "plugin /path/x.so: <reason>". [value type]
class PluginError : public std::runtime_error {
public:
    PluginError(const std::filesystem::path& file, const std::string& reason)
        : std::runtime_error("plugin " + file.string() + ": " + reason), file_(file), reason_(reason) {}

    const std::filesystem::path& file() const { return file_; }
    const std::string& reason() const { return reason_; }

private:
    std::filesystem::path file_;
    std::string reason_;
};

}  // namespace isochron
