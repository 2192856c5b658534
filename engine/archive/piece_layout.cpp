#include "engine/archive/piece_layout.h"

#include <algorithm>

namespace isochron {

namespace {

/// A table leaf page's header (SQLite file format, "B-tree pages").
constexpr std::int64_t kLeafPageHeader = 8;
/// The most a `segments` row takes beside its samples, over the worst case of every variable-length
/// field: cell pointer (2), payload size varint (3), rowid varint (9), record header (9: its size, six
/// serial types, the BLOB's taking 3), stream, channel, start and length as 8-byte integers (32) and
/// the encoding "f32" (3). A real row takes about 30: the margin costs under 0.2 % of a page.
constexpr std::int64_t kRowOverhead = 58;
/// The largest payload a table leaf keeps on its page (SQLite's maxLocal: usable size minus 35); a
/// larger row spills into overflow pages.
constexpr std::int64_t kLocalPayloadMargin = 35;
/// A page holds one piece per this many bytes: 4 per 64 KiB page, pieces of about 16 KiB (85 ms of
/// 48 kHz), short enough that a recorder holding back a partial piece for the next commit delays
/// little (archive_writer.h), long enough that the row and index overhead stays near 0.5 %.
constexpr std::int64_t kBytesPerPiece = 16384;

}  // namespace

std::int64_t f32PieceSamples(std::int64_t pageSize) {
    const std::int64_t piecesPerPage = std::max<std::int64_t>(1, pageSize / kBytesPerPiece);
    std::int64_t bytes = (pageSize - kLeafPageHeader) / piecesPerPage - kRowOverhead;
    if (piecesPerPage == 1) bytes = std::min(bytes, pageSize - kLocalPayloadMargin - kRowOverhead);
    return std::max<std::int64_t>(1, bytes / static_cast<std::int64_t>(sizeof(float)));
}

}  // namespace isochron
