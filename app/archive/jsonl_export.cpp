#include "app/archive/jsonl_export.h"

#include <algorithm>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/archive/archive_time.h"

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

/// An item's line, its own keys in the order stored (an event's attributes as its producer set them);
/// on the wall clock with its start in UTC ("time_utc").
void writeItem(std::ostream& out, const ArchivedStreamInfo& info, const ArchivedItem& item) {
    nlohmann::ordered_json line = {{"start", item.start}, {"length", item.length}, {"time_s", static_cast<double>(item.start) / info.rateHz}};
    if (info.clock == Clock::wall().name()) line["time_utc"] = formatUtc(info.timebase().timeOf(item.start));
    line["item"] = nlohmann::ordered_json::parse(item.json);
    out << line.dump() << '\n';
}

}  // namespace

std::int64_t writeItemJsonLines(ArchiveStore& store, const ArchivedStreamInfo& info, std::int64_t l, std::int64_t h, std::ostream& out,
                                std::int64_t pageItems) {
    std::int64_t written = 0;
    std::int64_t afterStart = l, afterRow = 0;  // row ids start at 1: (l, 0) comes before every item starting at l
    for (;;) {
        const std::vector<ArchivedItem> page = store.getItemPage(info.name, afterStart, afterRow, h, pageItems);
        for (const ArchivedItem& item : page) writeItem(out, info, item);
        written += static_cast<std::int64_t>(page.size());
        if (static_cast<std::int64_t>(page.size()) < pageItems) return written;
        afterStart = page.back().start;
        afterRow = page.back().row;
    }
}

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
