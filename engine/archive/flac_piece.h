// FLAC pieces: one channel's samples encoded in memory through libsndfile's virtual I/O, for the
// archive's "flac" representation (docs/archive.md), and decoded with libFLAC directly (a decoder
// kept open across pieces, the codes converted to floats in one pass into the caller's buffer).
//
// FLAC holds integers. A piece is encoded only when it is exact at 16 or 24 bits: every sample a
// multiple of 2^-15 (or 2^-23) in [-1, 1), as samples from a 16- or 24-bit converter are; the codes
// are handed to libsndfile as integers (its float path scales by 2^15 - 1 on writing but 2^15 on
// reading, which would not round-trip). A piece that is not exact (f32 detail finer than 24 bits,
// values beyond ±1, NaN) is not encoded: the archive keeps it as f32, so what is stored always
// reads back sample-exact.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace isochron {

/// How a stored piece's samples are encoded (the `encoding` column of table `segments`).
enum class PieceEncoding { Float32, Flac16, Flac24 };

/// The column text of an encoding ("f32", "flac16", "flac24") and back (nothing for unknown text).
const char* pieceEncodingName(PieceEncoding encoding);
std::optional<PieceEncoding> pieceEncodingNamed(std::string_view name);

/// A FLAC stream of `samples` (one channel) at the narrowest exact width, with its encoding; nothing
/// when no width holds them exactly. [any thread] [allocates]
std::optional<std::pair<PieceEncoding, std::vector<std::byte>>> encodeFlacPiece(std::span<const float> samples);

/// Decodes FLAC pieces of one channel with one libFLAC decoder, kept open from piece to piece (a
/// get decodes hundreds). Any FLAC stream of one channel at 8 to 24 bits decodes, whoever wrote it.
/// [one thread at a time per object] [allocates at the first decode and when frames grow]
class FlacPieceDecoder {
public:
    FlacPieceDecoder();
    ~FlacPieceDecoder();
    FlacPieceDecoder(const FlacPieceDecoder&) = delete;
    FlacPieceDecoder& operator=(const FlacPieceDecoder&) = delete;

    /// Samples [skip, skip + samples.size()) of the FLAC piece `bytes`, which holds `length` samples,
    /// into `samples`; frames past those are not decoded. False (and `samples` unspecified) when the
    /// bytes are not a FLAC stream of `length` samples of one channel, or a frame needed is damaged.
    bool decode(std::span<const std::byte> bytes, std::int64_t length, std::int64_t skip, std::span<float> samples);

private:
    struct Session;
    std::unique_ptr<Session> session_;
};

}  // namespace isochron
