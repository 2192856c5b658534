#include "app/archive/jsonl_export.h"

#include <algorithm>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

namespace isochron {
namespace {

/// One piece's line: its channel, interval, whether it is a gap, and its samples.
void writePiece(std::ostream& out, int channel, std::int64_t start, std::int64_t length, const ArchivedPiece* stored) {
    nlohmann::json line = {{"channel", channel}, {"start", start}, {"length", length}, {"gap", stored == nullptr}};
    if (stored) {
        const std::span<const float> samples = stored->samples.materialize();
        line["samples"] = std::vector<float>(samples.begin(), samples.end());
    }
    out << line.dump() << '\n';
}

}  // namespace

void writeSignalJsonLines(ArchiveStore& store, const ArchivedStreamInfo& info, std::int64_t l, std::int64_t h, std::ostream& out,
                          std::int64_t chunkFrames) {
    for (int channel = 0; channel < info.channels; ++channel) {
        std::int64_t from = l;  // always where a piece or a gap of a get of [l, h) starts
        std::int64_t span = chunkFrames;
        while (from < h) {
            const std::int64_t to = std::min(h, from + span);
            const std::vector<ArchivedPiece> pieces = store.get(info.name, channel, from, to);
            // The last piece reaching the chunk's end may go on past it: the next chunk reads it
            // again from its start, so every line is the whole piece.
            std::size_t whole = pieces.size();
            if (to < h && !pieces.empty() && pieces.back().end() == to) --whole;
            if (whole == 0) {
                // One piece longer than the chunk. A gap costs no memory: it ends where the next
                // stored piece starts. A stored piece is read whole, with a chunk twice as long.
                if (pieces.front().isGap()) {
                    const std::int64_t gapEnd = std::min(h, store.nextStoredStart(info.name, channel, from).value_or(h));
                    writePiece(out, channel, from, gapEnd - from, nullptr);
                    from = gapEnd;
                } else {
                    span *= 2;
                }
                continue;
            }
            for (std::size_t p = 0; p < whole; ++p) writePiece(out, channel, pieces[p].start, pieces[p].length, pieces[p].isGap() ? nullptr : &pieces[p]);
            from = whole == pieces.size() ? to : pieces[whole].start;
            span = chunkFrames;
        }
    }
}

}  // namespace isochron
