// "Record this wire" while the graph runs: the recorder node the editor adds (io.archive_sink) runs
// only from the next start, so until then a LiveRecording records the wire now. Its RecordTaps sit
// on the recorded output's ports (a signal's: one per channel, a bus's ports in order; a scalar or
// event wire's: one) and a thread of its own moves what they see into an ArchiveWriter writing the
// stream the recorder node names, into its file, with its metadata: the same rows the node would
// write (events marked not to persist pass by, as there). The recording starts when the wire is
// toggled (what came before is not there: a gap), and ends, flushed and its log folded into the file,
// at end() or when the LiveRecording goes.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/archive/archive_writer.h"
#include "ui/run/record_tap.h"

namespace isochron::ui {

/// One wire recorded on a running graph. [ui thread; its writer thread is its own]
class LiveRecording {
public:
    /// The stream to record: `info` as the recorder node would give it (name, kind, channels (1 for
    /// items), sample type, units, graph, node, producer, geometry, representation); rate, zero time
    /// and clock come with the first segment or item, and with them the retention (`keepHours`) and
    /// live window (`liveSeconds`) in samples.
    /// Opens `path` now (throws ArchiveError naming the file when it cannot be recorded into).
    LiveRecording(std::string path, ArchivedStreamInfo info, ArchiveWriter::Options options, double keepHours, double liveSeconds);
    /// Ends the recording as end() does, dropping what it says. [blocks on the disk]
    ~LiveRecording();
    LiveRecording(const LiveRecording&) = delete;
    LiveRecording& operator=(const LiveRecording&) = delete;

    /// The taps to attach, channel 0 first.
    const std::vector<std::shared_ptr<RecordTap>>& taps() const { return taps_; }
    /// Why recording stopped (names the file), or nothing while it goes on. [any thread]
    std::optional<std::string> problem() const;
    /// Ends the recording: writes what the taps still hold, commits it and folds the archive's
    /// write-ahead log into its file. Returns, when the disk refused that fold, why the recording is
    /// whole only together with the log (ArchiveWriter::close()), else nothing. Once; the taps see
    /// nothing more. [ui thread] [blocks on the disk]
    std::optional<std::string> end();
    /// The archive file recorded into, as the recorder node names it.
    const std::string& path() const { return path_; }

private:
    void run();
    /// Hands what the taps hold to the writer (opened at the first segment or item); false once recording stopped.
    bool drain();
    /// Opens the writer on the first item's `timebase`; false (with the problem said) when the
    /// archive refuses the stream.
    bool openWriter(const Timebase& timebase);
    void fail(std::string why);

    std::string path_;
    ArchivedStreamInfo info_;
    ArchiveWriter::Options options_;
    double keepHours_ = 0, liveSeconds_ = 0;
    std::unique_ptr<ArchiveStore> store_;  // until the writer takes it over
    std::unique_ptr<ArchiveWriter> writer_;
    std::vector<std::shared_ptr<RecordTap>> taps_;
    const Timebase* timebase_ = nullptr;   // of the first segment or item: every channel's
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool ending_ = false;
    bool ended_ = false;  // end() ran [ui thread]
    std::optional<std::string> problem_;
    std::thread thread_;
};

}  // namespace isochron::ui
