#include "engine/archive/flac_piece.h"

#include <sndfile.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

namespace isochron {
namespace {

/// Bytes in memory that libsndfile reads (and, for a growable vector, writes) as a file: a
/// std::vector<std::byte> for encoding, or a span read in place (a decoded piece's blob, not copied).
template <class Bytes>
struct MemoryFile {
    static constexpr bool kWritable = std::is_same_v<Bytes, std::vector<std::byte>>;
    Bytes bytes;
    sf_count_t position = 0;

    static MemoryFile& of(void* self) { return *static_cast<MemoryFile*>(self); }
    static sf_count_t length(void* self) { return static_cast<sf_count_t>(of(self).bytes.size()); }
    static sf_count_t seek(sf_count_t offset, int whence, void* self) {
        MemoryFile& file = of(self);
        const sf_count_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? file.position : static_cast<sf_count_t>(file.bytes.size());
        if (base + offset < 0) return -1;
        file.position = base + offset;
        return file.position;
    }
    static sf_count_t read(void* into, sf_count_t count, void* self) {
        MemoryFile& file = of(self);
        const sf_count_t available = std::max<sf_count_t>(0, static_cast<sf_count_t>(file.bytes.size()) - file.position);
        const sf_count_t n = std::min(count, available);
        if (n > 0) std::memcpy(into, file.bytes.data() + file.position, static_cast<std::size_t>(n));
        file.position += n;
        return n;
    }
    static sf_count_t write(const void* from, sf_count_t count, void* self) {
        if constexpr (!kWritable) {
            return 0;
        } else {
            MemoryFile& file = of(self);
            const std::size_t end = static_cast<std::size_t>(file.position + count);
            if (end > file.bytes.size()) file.bytes.resize(end);
            std::memcpy(file.bytes.data() + file.position, from, static_cast<std::size_t>(count));
            file.position += count;
            return count;
        }
    }
    static sf_count_t tell(void* self) { return of(self).position; }

    static SF_VIRTUAL_IO io() { return {&length, &seek, &read, &write, &tell}; }
};
using GrowingMemoryFile = MemoryFile<std::vector<std::byte>>;
using ReadOnlyMemory = MemoryFile<std::span<const std::byte>>;

/// Bits of the narrowest width (16 or 24) at which every sample is an exact code in [-1, 1), or 0.
int exactBits(std::span<const float> samples) {
    int bits = 16;
    for (float sample : samples) {
        if (!(sample >= -1.0f && sample < 1.0f)) return 0;
        while (bits <= 24) {
            const double code = static_cast<double>(sample) * static_cast<double>(1 << (bits - 1));
            if (code == std::floor(code)) break;
            bits += 8;
        }
        if (bits > 24) return 0;
    }
    return bits;
}

}  // namespace

const char* pieceEncodingName(PieceEncoding encoding) {
    switch (encoding) {
        case PieceEncoding::Flac16: return "flac16";
        case PieceEncoding::Flac24: return "flac24";
        case PieceEncoding::Float32: break;
    }
    return "f32";
}

std::optional<PieceEncoding> pieceEncodingNamed(std::string_view name) {
    if (name == "f32") return PieceEncoding::Float32;
    if (name == "flac16") return PieceEncoding::Flac16;
    if (name == "flac24") return PieceEncoding::Flac24;
    return std::nullopt;
}

std::optional<std::pair<PieceEncoding, std::vector<std::byte>>> encodeFlacPiece(std::span<const float> samples) {
    const int bits = exactBits(samples);
    if (bits == 0 || samples.empty()) return std::nullopt;
    GrowingMemoryFile file;
    SF_VIRTUAL_IO io = GrowingMemoryFile::io();
    SF_INFO info{};
    info.samplerate = 48000;  // FLAC wants a rate; the archive's timebase is the one that counts
    info.channels = 1;
    info.format = SF_FORMAT_FLAC | (bits == 16 ? SF_FORMAT_PCM_16 : SF_FORMAT_PCM_24);
    SNDFILE* sound = sf_open_virtual(&io, SFM_WRITE, &info, &file);
    if (!sound) return std::nullopt;
    // Integer codes, left-justified in 32 bits as sf_write_int takes them: exact by construction.
    std::vector<int> codes(samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i) codes[i] = static_cast<int>(std::lrint(static_cast<double>(samples[i]) * 2147483648.0));
    const bool written = sf_write_int(sound, codes.data(), static_cast<sf_count_t>(codes.size())) == static_cast<sf_count_t>(codes.size());
    if (sf_close(sound) != 0 || !written) return std::nullopt;
    return std::pair{bits == 16 ? PieceEncoding::Flac16 : PieceEncoding::Flac24, std::move(file.bytes)};
}

bool decodeFlacPiece(std::span<const std::byte> bytes, PieceEncoding encoding, std::span<float> samples) {
    if (encoding == PieceEncoding::Float32) return false;
    ReadOnlyMemory file{bytes};
    SF_VIRTUAL_IO io = ReadOnlyMemory::io();
    SF_INFO info{};
    SNDFILE* sound = sf_open_virtual(&io, SFM_READ, &info, &file);
    if (!sound) return false;
    const bool shaped = info.channels == 1 && info.frames == static_cast<sf_count_t>(samples.size());
    // The codes, reused by each call on this thread (a get decodes hundreds of pieces).
    thread_local std::vector<int> codes;
    codes.resize(samples.size());
    const bool read = shaped && sf_read_int(sound, codes.data(), static_cast<sf_count_t>(codes.size())) == static_cast<sf_count_t>(codes.size());
    sf_close(sound);
    if (!read) return false;
    for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<float>(static_cast<double>(codes[i]) / 2147483648.0);
    return true;
}

}  // namespace isochron
