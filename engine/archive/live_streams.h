// LiveStreams: where readers find the live window of a stream being recorded in this process
// (issue 13: `get` over live and stored data). A recorder publishes its writer's LiveWindow under the
// archive file and stream name for as long as it records; StreamReader looks it up.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/archive/live_window.h"

namespace isochron {

/// The live windows of the streams recorded in this process, by archive file and stream. [any thread]
class LiveStreams {
public:
    /// The one registry recorders publish to.
    static LiveStreams& instance();

    /// Make `window` the live window of stream `stream` in the archive `path` (the same file however
    /// the path is spelt) until the returned handle is destroyed. [any thread]
    [[nodiscard]] std::shared_ptr<void> publish(const std::string& path, std::string stream, std::shared_ptr<const LiveWindow> window);
    /// The live window of `stream` in `path` published last and still held, or null. [any thread]
    std::shared_ptr<const LiveWindow> find(const std::string& path, const std::string& stream);

private:
    struct Entry {
        std::string file;  // canonical path
        std::string stream;
        std::shared_ptr<const LiveWindow> window;
    };
    std::mutex mutex_;
    std::vector<std::weak_ptr<Entry>> entries_;
};

}  // namespace isochron
