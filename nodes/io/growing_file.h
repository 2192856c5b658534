// GrowingFile: how a file sink's output takes its name. The output grows under a partial file of its
// own beside `path` (partial_file.h) and is renamed to `path` when complete; an output cut short (the
// run stopped, the sink or another node failed) never replaces an existing file: it takes `path` only
// where no file is, and otherwise stays under its partial name, with a warning naming both. A text
// output for which no file exists yet may grow under `path` itself, where a reader can follow it
// (NewFile). A replacement gets the permissions of the file it replaces (not its owner or ACL: it is
// a new file of this user); a file this user may not write is refused, not replaced. What is
// not a regular file is never replaced: a symlink is written through (the file it names is renamed
// over, and created when the link dangles), a device (/dev/null) is written in place, and a named
// pipe, a socket, a folder or a missing folder are refused (output_path.h). Shared by the sound file
// sinks and the text sinks (io.csv_sink, io.jsonl_event_sink), so every file sink keeps one rule.
// A process that ends at once (an in-process plugin called exit()) leaves every output under its
// partial name: one growing under its own name is moved there by the exit handler.
#pragma once

#include <string>

namespace isochron {

/// One output file on its way to its name. [one thread]
class GrowingFile {
public:
    /// Where an output for which no file exists yet grows: under a partial name like any other (a
    /// sound file, complete only once its header is), or under its own name (a text file, which a
    /// reader may follow as it grows).
    enum class NewFile { GrownAside, WrittenUnderItsName };
    GrowingFile() = default;
    GrowingFile(const GrowingFile&) = delete;
    GrowingFile& operator=(const GrowingFile&) = delete;
    /// An output dropped without finish() or discard() is no longer moved aside at an abrupt end.
    ~GrowingFile();
    /// Decide where the output to `path` grows: a new partial file beside the file `path` names
    /// (symlinks followed), that file itself when it does not exist yet and `newFile` says so, or
    /// that file itself when it is a device. Throws std::runtime_error saying why `path` cannot be
    /// written (naming parameter 'path'). [setup thread]
    void begin(const std::string& path, NewFile newFile = NewFile::GrownAside);
    /// The file the output is for: `path` with its symlinks followed (`path` itself for a device, a
    /// terminal or the pipe /dev/stdout reaches).
    const std::string& target() const { return target_; }
    /// Where the bytes go while the output grows: the partial file, or the device.
    const std::string& writingPath() const { return inPlace_ || direct_ ? target_ : partialPath_; }

    /// What ending the output gave: a problem (the output did not get its name: a failure) and/or a
    /// warning for the user; both "" when it simply took its name.
    struct Ending {
        std::string problem;
        std::string warning;
    };
    /// Give the closed output its name. `complete`: it replaces what is at target(); otherwise (cut
    /// short) it takes target() only where no file is. `what` names the output in messages ("the
    /// recording"). Does nothing a second time. [any thread that wrote it]
    Ending finish(bool complete, const std::string& what);
    /// Remove the partial file (or the file begin() created under its name), which holds nothing
    /// worth keeping (no samples arrived). Does nothing a second time, or for a device.
    void discard();

private:
    std::string target_;
    std::string partialPath_;  // "" for a device, and once renamed or removed
    bool inPlace_ = false;
    bool direct_ = false;  // a new file grown under its own name, until finish() or discard()
    int movedAsideTicket_ = -1;  // while direct_: where an abrupt end moves it (outputs_under_final_name.h)
};

}  // namespace isochron
