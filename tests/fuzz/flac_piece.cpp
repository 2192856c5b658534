// Fuzz target: the FLAC pieces an archive file holds, read by FlacPieceDecoder
// (engine/archive/flac_piece.h); an archive may come from anywhere, so its blobs are input.
//
// Input: a first byte choosing what the rest is, then two bytes of a length L (1..65536).
// - Even first byte: the rest is a piece's bytes said to hold L samples. Properties: decoding never
//   crashes or reads outside the bytes; a piece that decodes gives finite samples in [-1, 1); a
//   range decoded alone (from the fourth byte's skip) equals that range of the whole piece.
// - Odd first byte: the rest are 16-bit codes (or, bit 1 set, 24-bit codes) of up to L samples,
//   encoded by encodeFlacPiece (libsndfile, the independent writer). Property: the piece decodes
//   to exactly those samples, bit for bit, whole and in the range.
#include <cmath>
#include <cstring>
#include <span>
#include <vector>

#include "engine/archive/flac_piece.h"
#include "tests/fuzz/fuzz_support.h"

using namespace isochron;

namespace {

bool sameBits(std::span<const float> a, std::span<const float> b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 4) return 0;
    static FlacPieceDecoder decoder;  // kept across inputs, as across a get's pieces
    const std::uint8_t mode = data[0];
    const std::size_t length = 1 + (static_cast<std::size_t>(data[1]) | static_cast<std::size_t>(data[2]) << 8);
    const std::span<const std::uint8_t> rest(data + 4, size - 4);
    if (mode % 2 == 0) {
        const auto bytes = std::as_bytes(rest);
        std::vector<float> whole(length);
        if (!decoder.decode(bytes, static_cast<std::int64_t>(length), 0, whole)) return 0;
        for (float sample : whole) fuzz::require(std::isfinite(sample) && sample >= -1.0f && sample < 1.0f, "a decoded sample outside [-1, 1)");
        const std::size_t skip = data[3] % length;
        const std::size_t count = (length - skip + 1) / 2;
        std::vector<float> part(count);
        fuzz::require(decoder.decode(bytes, static_cast<std::int64_t>(length), static_cast<std::int64_t>(skip), part), "a range of a piece that decodes does not");
        fuzz::require(sameBits(part, std::span<const float>(whole).subspan(skip, count)), "a range decoded alone differs from the whole piece's");
        return 0;
    }
    const bool wide = (mode & 2) != 0;
    const std::size_t width = wide ? 3 : 2;
    std::vector<float> samples;
    for (std::size_t i = 0; i + width <= rest.size() && samples.size() < length; i += width) {
        std::int32_t code = static_cast<std::int32_t>(rest[i]) | static_cast<std::int32_t>(rest[i + 1]) << 8;
        if (wide) code |= static_cast<std::int32_t>(rest[i + 2]) << 16;
        const int bits = wide ? 24 : 16;
        code = (code << (32 - bits)) >> (32 - bits);  // sign-extended
        samples.push_back(static_cast<float>(code) / static_cast<float>(1 << (bits - 1)));
    }
    if (samples.empty()) return 0;
    const auto encoded = encodeFlacPiece(samples);
    fuzz::require(encoded.has_value(), "16- or 24-bit codes were not encoded as FLAC");
    std::vector<float> whole(samples.size());
    fuzz::require(decoder.decode(encoded->second, static_cast<std::int64_t>(samples.size()), 0, whole), "an encoded piece does not decode");
    fuzz::require(sameBits(whole, samples), "an encoded piece decodes to other samples");
    const std::size_t skip = data[3] % samples.size();
    std::vector<float> part(samples.size() - skip);
    fuzz::require(decoder.decode(encoded->second, static_cast<std::int64_t>(samples.size()), static_cast<std::int64_t>(skip), part),
                  "a range of an encoded piece does not decode");
    fuzz::require(sameBits(part, std::span<const float>(samples).subspan(skip)), "a range of an encoded piece decodes to other samples");
    return 0;
}
