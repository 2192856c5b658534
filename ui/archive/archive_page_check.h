// The Archive tab's check of every page of an archive file for damage (ArchiveStore::damage) on a
// thread of its own. Reading every page takes about as long as reading the file (minutes for a day of 8
// channels), so the check stops where it is when the tab closes (the editor quits) or opens another
// file, instead of holding them until it reaches the end.
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace isochron {
class ArchiveStore;
}

namespace isochron::ui {

/// One running check of one file's pages. [ui thread]
class ArchivePageCheck {
public:
    /// How a check ended. [value type]
    struct Result {
        enum class Outcome {
            Sound,        ///< every page read sound
            Damaged,      ///< `damage` says why (the archive's own message)
            Interrupted,  ///< stop() came before the check reached the end of the file
            Failed,       ///< the file went or could not be read: not a damaged page
        };
        Outcome outcome = Outcome::Sound;
        std::string damage;
    };

    /// Starts checking the archive `path`; `onEnd` runs once, on the check's thread, as its last work. [ui thread]
    ArchivePageCheck(std::string path, std::function<void(const Result&)> onEnd);
    /// stop(), then waits for the check's thread: no longer than it takes SQLite to notice. [ui thread]
    ~ArchivePageCheck();
    ArchivePageCheck(const ArchivePageCheck&) = delete;
    ArchivePageCheck& operator=(const ArchivePageCheck&) = delete;

    /// The archive being checked. [any thread]
    const std::string& path() const { return path_; }
    /// Ends the check as soon as it can (Interrupted), without waiting for it. [any thread]
    void stop();

private:
    /// The check's thread: opens the file, runs the check and reports it.
    void run(const std::function<void(const Result&)>& onEnd);
    /// Lets stop() reach `store` (nullptr: the store is going away). [check thread]
    void share(ArchiveStore* store);

    std::string path_;
    std::mutex lock_;               // guards store_ and stopped_ between stop() and the check's thread
    ArchiveStore* store_ = nullptr;  // the check's open store, while it is open
    bool stopped_ = false;
    std::thread thread_;
};

}  // namespace isochron::ui
