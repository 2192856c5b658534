#include "engine/archive/stream_reader.h"

#include <algorithm>
#include <utility>

#include "engine/archive/live_streams.h"

namespace isochron {
namespace {

/// `pieces` (in order, inside [l, h), no gaps) with a gap piece in every hole of [l, h), appended to `out`.
void appendWithGaps(std::vector<ArchivedPiece>&& pieces, std::int64_t l, std::int64_t h, std::vector<ArchivedPiece>& out) {
    std::int64_t covered = l;
    for (ArchivedPiece& piece : pieces) {
        if (piece.start > covered) out.push_back({covered, piece.start - covered, {}});
        covered = piece.end();
        out.push_back(std::move(piece));
    }
    if (covered < h) out.push_back({covered, h - covered, {}});
}

}  // namespace

StreamReader::StreamReader(std::string path) : path_(std::move(path)) {}

StreamReader::~StreamReader() = default;

ArchiveStore& StreamReader::store() {
    if (!store_) store_ = std::make_unique<ArchiveStore>(path_, ArchiveAccess::Read);
    return *store_;
}

std::vector<ArchivedPiece> StreamReader::get(const std::string& stream, int channel, std::int64_t l, std::int64_t h, StreamPart part) {
    std::vector<ArchivedPiece> pieces;
    if (l >= h) return pieces;
    if (part == StreamPart::Stored) return store().get(stream, channel, l, h);
    const std::shared_ptr<const LiveWindow> live = LiveStreams::instance().find(path_, stream);
    if (live && (channel < 0 || channel >= live->channels())) {
        throw ArchiveError("archive '" + path_ + "': stream '" + stream + "' has " + std::to_string(live->channels()) + " channel(s), no channel " +
                           std::to_string(channel));
    }
    // The live window first: what it drops afterwards is already in the archive.
    std::vector<ArchivedPiece> held = live ? live->samples(channel, l, h) : std::vector<ArchivedPiece>{};
    if (part == StreamPart::Live) {
        appendWithGaps(std::move(held), l, h, pieces);
        return pieces;
    }
    std::vector<ArchivedPiece> stored;
    if (!live || store().stream(stream)) stored = store().get(stream, channel, l, h);
    else stored.push_back({l, h - l, {}});  // recording has begun, nothing of the stream is committed yet
    auto next = held.begin();
    for (ArchivedPiece& piece : stored) {
        if (!piece.isGap()) {
            pieces.push_back(std::move(piece));
            continue;
        }
        // A hole in the archive: the live window's pieces inside it, clipped, and gaps around them.
        std::vector<ArchivedPiece> inside;
        while (next != held.end() && next->end() <= piece.start) ++next;
        for (auto it = next; it != held.end() && it->start < piece.end(); ++it) {
            const std::int64_t from = std::max(it->start, piece.start);
            const std::int64_t to = std::min(it->end(), piece.end());
            inside.push_back({from, to - from, it->samples.subseg(from, to - from), PieceOrigin::Live});
        }
        appendWithGaps(std::move(inside), piece.start, piece.end(), pieces);
    }
    return pieces;
}

std::vector<ArchivedItem> StreamReader::getItems(const std::string& stream, std::int64_t l, std::int64_t h, StreamPart part) {
    if (l >= h) return {};
    if (part == StreamPart::Stored) return store().getItems(stream, l, h);
    const std::shared_ptr<const LiveWindow> live = LiveStreams::instance().find(path_, stream);
    if (part == StreamPart::Live) return live ? live->items(l, h) : std::vector<ArchivedItem>{};
    if (!live) return store().getItems(stream, l, h);
    // The uncommitted items and the row bound together, then the archive up to that bound: each item once.
    LiveItems held = live->uncommittedItems(l, h);
    std::vector<ArchivedItem> items;
    if (store().stream(stream)) items = store().getItems(stream, l, h, held.storedRowBound);
    const auto stored = static_cast<std::ptrdiff_t>(items.size());
    items.insert(items.end(), std::make_move_iterator(held.uncommitted.begin()), std::make_move_iterator(held.uncommitted.end()));
    // Both halves are in start order; the archive's come first among equal starts (they arrived first).
    std::inplace_merge(items.begin(), items.begin() + stored, items.end(), [](const ArchivedItem& a, const ArchivedItem& b) { return a.start < b.start; });
    return items;
}

}  // namespace isochron
