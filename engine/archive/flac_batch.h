// FlacBatch: the FLAC pieces one ArchiveStore::get needs, decoded together once their rows are read,
// on the calling thread and, when there is enough to decode, on one helper thread beside it (a
// 10 s get of 48 kHz audio decodes 100 pieces a channel; decoding is most of its cost).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/archive/flac_piece.h"

namespace isochron {

/// Pieces collected, then decoded together; each decoding thread keeps its own FlacPieceDecoder
/// from batch to batch. [one thread at a time per object; decode() starts and joins its helper]
class FlacBatch {
public:
    /// Decoded on two threads from this many samples in a batch (starting a thread costs tens of
    /// microseconds, decoding this many about a millisecond); fewer decode on the calling thread.
    static constexpr std::int64_t kTwoThreadSamples = 1 << 16;

    /// Add a piece: `bytes` (copied: a SQLite blob lives only until the next row), which hold
    /// `length` samples, of which [skip, skip + out.size()) go to `out`; `tag` names it in decode()'s
    /// answer. `out` must stay valid until decode() returns.
    void add(std::span<const std::byte> bytes, std::int64_t length, std::int64_t skip, std::span<float> out, std::int64_t tag);
    /// Forget the pieces added since the last decode() (their `out` may be gone). [no allocation]
    void discard();
    /// A piece that did not decode: its tag and the samples it should hold.
    struct Broken {
        std::int64_t tag, length;
    };
    /// Decode every piece added since the last call: the first piece (in the order added) that does
    /// not decode, or nothing when all did. [may start and join a thread]
    std::optional<Broken> decode();

private:
    struct Piece {
        std::size_t offset, size;  // its bytes in bytes_
        std::int64_t length, skip;
        std::span<float> out;
        std::int64_t tag;
        bool decoded = false;
    };
    /// Decodes pieces taken from the shared counter until none is left.
    void decodeTaken(FlacPieceDecoder& decoder);

    std::vector<std::byte> bytes_;
    std::vector<Piece> pieces_;
    std::int64_t samples_ = 0;
    FlacPieceDecoder decoders_[2];
    std::atomic<std::size_t> next_{0};  // the next piece a thread takes: a preempted thread leaves the rest to the other
};

}  // namespace isochron
