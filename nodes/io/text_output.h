// TextOutput: the file (or standard output) a text sink writes lines to, with a large stdio buffer,
// closed exactly once with a message on failure. Shared by io.jsonl_event_sink and io.csv_sink. The
// file takes its name as growing_file.h says: a new file grows under its own name (a reader can tail
// it), while the replacement of an existing file grows under a partial file of its own and is renamed
// to its path when complete; a file cut short (Ctrl-C, a failure) never replaces an existing one.
// Standard output whose reader went away (a pipe into `head`) is not a failure of the sink: the
// write raised SIGPIPE, which is how the program learns of it (isochron-run stops the run, exit 141),
// and what is written after it is dropped.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "nodes/io/growing_file.h"

namespace isochron {

/// A text destination. [one thread]
class TextOutput {
public:
    /// Open `path` (a new file), its partial file (to replace an existing one), a device in place, or
    /// standard output for "-". Throws
    /// std::runtime_error naming the file and the system's reason, or refusing a named pipe or socket
    /// (output_path.h). [allocates]
    void open(const std::string& path);
    /// The stream to write to (valid after open()). [no allocation]
    std::FILE* stream() const { return out_; }
    /// What went wrong writing so far ("writing 'x' failed: reason"), or "" (also when standard
    /// output's reader is gone, see above). [no allocation unless failed]
    std::string writeError();
    /// Flush and close (standard output is only flushed), then give the file its name: `complete`
    /// replaces what is at the path, a file cut short takes it only where none is (growing_file.h).
    /// `what` names the output in messages ("the CSV file"). Returns what went wrong and what to warn
    /// of. Idempotent.
    GrowingFile::Ending close(bool complete, const std::string& what);
    /// Close and remove what was created (the new file, or the partial file of a replacement): for
    /// a run that never started, which must leave no empty file behind. Idempotent.
    void discard();

private:
    struct FileCloser {
        void operator()(std::FILE* file) const noexcept { std::fclose(file); }
    };

    std::string writingPath_;  // where the lines go: the partial file, a device, or "-"
    GrowingFile growing_;  // unless writing standard output
    std::vector<char> buffer_;  // declared before file_: must outlive it
    std::unique_ptr<std::FILE, FileCloser> file_;
    std::FILE* out_ = nullptr;  // file_, or stdout for "-"
};

}  // namespace isochron
