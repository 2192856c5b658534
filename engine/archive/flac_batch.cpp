#include "engine/archive/flac_batch.h"

#include <algorithm>
#include <system_error>
#include <thread>

namespace isochron {

void FlacBatch::add(std::span<const std::byte> bytes, std::int64_t length, std::int64_t skip, std::span<float> out, std::int64_t tag) {
    pieces_.push_back({bytes_.size(), bytes.size(), length, skip, out, tag});
    bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
    samples_ += static_cast<std::int64_t>(out.size());
}

void FlacBatch::decodeTaken(FlacPieceDecoder& decoder) {
    for (std::size_t i = next_.fetch_add(1, std::memory_order_relaxed); i < pieces_.size(); i = next_.fetch_add(1, std::memory_order_relaxed)) {
        Piece& piece = pieces_[i];
        piece.decoded = decoder.decode(std::span<const std::byte>(bytes_).subspan(piece.offset, piece.size), piece.length, piece.skip, piece.out);
    }
}

std::optional<FlacBatch::Broken> FlacBatch::decode() {
    next_.store(0, std::memory_order_relaxed);
    std::optional<std::thread> helper;
    if (samples_ >= kTwoThreadSamples && pieces_.size() > 1) {
        try {
            helper.emplace([this] { decodeTaken(decoders_[1]); });
        } catch (const std::system_error&) {  // no thread to be had: this one decodes everything
        }
    }
    decodeTaken(decoders_[0]);
    if (helper) helper->join();
    std::optional<Broken> failed;
    const auto broken = std::find_if(pieces_.begin(), pieces_.end(), [](const Piece& piece) { return !piece.decoded; });
    if (broken != pieces_.end()) failed = Broken{broken->tag, broken->length};
    discard();
    return failed;
}

void FlacBatch::discard() {
    bytes_.clear();
    pieces_.clear();
    samples_ = 0;
}

}  // namespace isochron
