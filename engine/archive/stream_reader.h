// StreamReader: one API over live and stored data of a recorded stream (issue 13, after the
// persistent-temporal-streams paper's get(l, h) with ANY / LIVE / STORED).
//
// get(stream, channel, l, h, part) returns the samples of [l, h) as pieces in order, each stored
// samples on the stream's own timebase or a gap (never stitched): from the archive file (Stored:
// what is committed), from the live window of a recorder in this process (Live: the newest samples
// it holds in memory and whatever it has queued but not committed, LiveWindow), or both (Any: the
// archive's pieces, and the live window's where the archive has none yet), seamlessly across the
// boundary. Each piece says where it was read (ArchivedPiece::origin), which is the paper's ANYSPLIT.
// A stretch neither holds (a dropout, recording off, not yet arrived, evicted and pruned) is a gap.
//
// Consistency while recording goes on: Any reads the live window first, then the archive. Samples
// the window drops are committed first, so nothing falls between the two reads; items are matched
// by the window's archive row bound (LiveWindow), so none is counted twice or missed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/archive/archive_store.h"

namespace isochron {

/// Which data a StreamReader reads.
enum class StreamPart {
    Live,    ///< the recorder's in-memory live window only
    Stored,  ///< the archive file only (committed data)
    Any,     ///< both, the archive's pieces first and the live window's where the archive has none
};

/// Reads intervals of the streams of one archive file, live and stored. [one thread at a time per
/// object; any thread, while recorders write]
class StreamReader {
public:
    /// A reader of the archive `path` (opened at the first read that needs the file).
    explicit StreamReader(std::string path);
    ~StreamReader();

    /// Channel `channel` of `stream` over samples [l, h): pieces in order covering [l, h) exactly,
    /// gaps included. Throws ArchiveError naming the file for an unknown stream or channel (Live: no
    /// recorder of it is live in this process is not an error, the interval is a gap). [may block on disk]
    std::vector<ArchivedPiece> get(const std::string& stream, int channel, std::int64_t l, std::int64_t h, StreamPart part = StreamPart::Any);
    /// The scalar and event items of `stream` starting in [l, h), in start order, each once. [may block on disk]
    std::vector<ArchivedItem> getItems(const std::string& stream, std::int64_t l, std::int64_t h, StreamPart part = StreamPart::Any);

private:
    ArchiveStore& store();

    std::string path_;
    std::unique_ptr<ArchiveStore> store_;
};

}  // namespace isochron
