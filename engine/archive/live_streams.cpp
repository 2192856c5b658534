#include "engine/archive/live_streams.h"

#include <filesystem>
#include <system_error>

namespace isochron {
namespace {

/// `path` as one spelling per file (absolute, no . or ..), or as given when that cannot be worked out.
std::string canonicalFile(const std::string& path) {
    std::error_code error;
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(path, error);
    return error ? path : canonical.string();
}

}  // namespace

LiveStreams& LiveStreams::instance() {
    static LiveStreams streams;
    return streams;
}

std::shared_ptr<void> LiveStreams::publish(const std::string& path, std::string stream, std::shared_ptr<const LiveWindow> window) {
    auto entry = std::make_shared<Entry>(Entry{canonicalFile(path), std::move(stream), std::move(window)});
    std::lock_guard lock(mutex_);
    std::erase_if(entries_, [](const std::weak_ptr<Entry>& held) { return held.expired(); });
    entries_.push_back(entry);
    return entry;
}

std::shared_ptr<const LiveWindow> LiveStreams::find(const std::string& path, const std::string& stream) {
    const std::string file = canonicalFile(path);
    std::lock_guard lock(mutex_);
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
        const std::shared_ptr<Entry> entry = it->lock();
        if (entry && entry->file == file && entry->stream == stream) return entry->window;
    }
    return nullptr;
}

}  // namespace isochron
