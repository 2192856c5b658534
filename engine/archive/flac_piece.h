// FLAC pieces: one channel's samples encoded in memory through libsndfile's virtual I/O, for the
// archive's "flac" representation (docs/archive.md).
//
// FLAC holds integers. A piece is encoded only when it is exact at 16 or 24 bits: every sample a
// multiple of 2^-15 (or 2^-23) in [-1, 1), as samples from a 16- or 24-bit converter are; the codes
// are handed to libsndfile as integers (its float path scales by 2^15 - 1 on writing but 2^15 on
// reading, which would not round-trip). A piece that is not exact (f32 detail finer than 24 bits,
// values beyond ±1, NaN) is not encoded: the archive keeps it as f32, so what is stored always
// reads back sample-exact.
#pragma once

#include <cstdint>
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

/// The samples of a FLAC piece; false (and `samples` unspecified) when the bytes do not decode to
/// exactly `samples.size()` samples of one channel. [any thread] [allocates]
bool decodeFlacPiece(std::span<const std::byte> bytes, PieceEncoding encoding, std::span<float> samples);

}  // namespace isochron
