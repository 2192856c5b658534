#include "engine/archive/flac_piece.h"

#include <FLAC/stream_decoder.h>
#include <sndfile.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>
#include <new>
#include <vector>

namespace isochron {
namespace {

/// A growing file in memory that libsndfile writes a FLAC stream into (and may read back and seek in).
struct MemoryFile {
    std::vector<std::byte> bytes;
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
        MemoryFile& file = of(self);
        const std::size_t end = static_cast<std::size_t>(file.position + count);
        if (end > file.bytes.size()) file.bytes.resize(end);
        std::memcpy(file.bytes.data() + file.position, from, static_cast<std::size_t>(count));
        file.position += count;
        return count;
    }
    static sf_count_t tell(void* self) { return of(self).position; }

    static SF_VIRTUAL_IO io() { return {&length, &seek, &read, &write, &tell}; }
};

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
    MemoryFile file;
    SF_VIRTUAL_IO io = MemoryFile::io();
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

/// One piece's decoding: the bytes libFLAC reads, the samples it must deliver and where they go.
struct FlacPieceDecoder::Session {
    FLAC__StreamDecoder* decoder = FLAC__stream_decoder_new();
    bool initialised = false;
    std::span<const std::byte> bytes;
    std::size_t position = 0;
    std::int64_t length = 0;  // samples the piece must hold (its STREAMINFO says)
    std::int64_t skip = 0;    // samples before the first one wanted
    std::span<float> out;
    std::int64_t decoded = 0;  // samples of the piece delivered by frames so far
    unsigned bits = 0;         // STREAMINFO's bits per sample; 0 until it is read
    bool broken = false;

    static Session& of(void* self) { return *static_cast<Session*>(self); }

    static FLAC__StreamDecoderReadStatus read(const FLAC__StreamDecoder*, FLAC__byte buffer[], std::size_t* count, void* self) {
        Session& session = of(self);
        const std::size_t n = std::min(*count, session.bytes.size() - session.position);
        *count = n;
        if (n == 0) return FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM;
        std::memcpy(buffer, session.bytes.data() + session.position, n);
        session.position += n;
        return FLAC__STREAM_DECODER_READ_STATUS_CONTINUE;
    }

    static void metadata(const FLAC__StreamDecoder*, const FLAC__StreamMetadata* block, void* self) {
        Session& session = of(self);
        if (block->type != FLAC__METADATA_TYPE_STREAMINFO) return;
        const FLAC__StreamMetadata_StreamInfo& info = block->data.stream_info;
        // Up to 24 bits a code times 2^-(bits - 1) is exact in a float.
        if (info.channels != 1 || info.bits_per_sample > 24 || info.total_samples != static_cast<FLAC__uint64>(session.length)) session.broken = true;
        else session.bits = info.bits_per_sample;
    }

    static FLAC__StreamDecoderWriteStatus write(const FLAC__StreamDecoder*, const FLAC__Frame* frame, const FLAC__int32* const channels[], void* self) {
        Session& session = of(self);
        const std::int64_t count = frame->header.blocksize;
        if (session.bits == 0 || frame->header.channels != 1 || frame->header.bits_per_sample != session.bits || session.decoded + count > session.length) {
            session.broken = true;
            return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT;
        }
        // The frame's samples that fall in [skip, skip + out.size()), converted in one pass.
        const std::int64_t wantedEnd = session.skip + static_cast<std::int64_t>(session.out.size());
        const std::int64_t from = std::max(session.decoded, session.skip);
        const std::int64_t to = std::min(session.decoded + count, wantedEnd);
        const float scale = 1.0f / static_cast<float>(1 << (session.bits - 1));
        const FLAC__int32* codes = channels[0] + (from - session.decoded);
        float* into = session.out.data() + (from - session.skip);
        for (std::int64_t i = 0; i < to - from; ++i) into[i] = static_cast<float>(codes[i]) * scale;
        session.decoded += count;
        return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE;
    }

    static void error(const FLAC__StreamDecoder*, FLAC__StreamDecoderErrorStatus, void* self) { of(self).broken = true; }
};

FlacPieceDecoder::FlacPieceDecoder() : session_(std::make_unique<Session>()) {
    if (!session_->decoder) throw std::bad_alloc();
}

FlacPieceDecoder::~FlacPieceDecoder() { FLAC__stream_decoder_delete(session_->decoder); }

bool FlacPieceDecoder::decode(std::span<const std::byte> bytes, std::int64_t length, std::int64_t skip, std::span<float> samples) {
    Session& session = *session_;
    const std::int64_t wantedEnd = skip + static_cast<std::int64_t>(samples.size());
    if (skip < 0 || wantedEnd > length) return false;
    session.bytes = bytes;
    session.position = 0;
    session.length = length;
    session.skip = skip;
    session.out = samples;
    session.decoded = 0;
    session.bits = 0;
    session.broken = false;
    // The decoder is initialised once; each later piece resets it (its buffers stay), and the read
    // callback starts at the new piece's first byte.
    if (!session.initialised) {
        if (FLAC__stream_decoder_init_stream(session.decoder, &Session::read, nullptr, nullptr, nullptr, nullptr, &Session::write, &Session::metadata,
                                             &Session::error, &session) != FLAC__STREAM_DECODER_INIT_STATUS_OK) {
            return false;
        }
        session.initialised = true;
    } else if (!FLAC__stream_decoder_reset(session.decoder)) {
        return false;
    }
    while (!session.broken && session.decoded < wantedEnd) {
        if (!FLAC__stream_decoder_process_single(session.decoder)) return false;
        if (FLAC__stream_decoder_get_state(session.decoder) == FLAC__STREAM_DECODER_END_OF_STREAM) break;
    }
    return !session.broken && session.bits != 0 && session.decoded >= wantedEnd;
}

}  // namespace isochron
