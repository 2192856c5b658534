#include "ui/archive/signal_envelope.h"

#include <algorithm>
#include <cmath>

namespace isochron::ui {
namespace {

void widen(EnvelopeColumn& column, float x) {
    if (!column.stored) column.min = column.max = x;
    column.min = std::min(column.min, x);
    column.max = std::max(column.max, x);
    column.stored = true;
}

// Widen `column` by the samples of `piece` that fall in [l, h).
void include(EnvelopeColumn& column, const ArchivedPiece& piece, std::int64_t l, std::int64_t h) {
    if (piece.isGap()) return;
    std::int64_t at = piece.start;
    piece.samples.forEachSpan([&](std::span<const float> run) {
        for (float x : run) {
            if (at >= l && at < h) widen(column, x);
            ++at;
        }
    });
}

}  // namespace

std::pair<std::int64_t, std::int64_t> envelopeColumnRange(std::int64_t l, std::int64_t h, int column, int columns) {
    const auto width = static_cast<double>(h - l);
    const auto edge = [&](int c) { return l + static_cast<std::int64_t>(std::floor(width * c / columns)); };
    return {edge(column), std::max(edge(column + 1), edge(column) + 1)};  // a column narrower than a sample holds that sample
}

std::vector<EnvelopeColumn> readSignalEnvelope(ArchiveStore& store, const ArchivedStreamInfo& info, double fromSeconds,
                                               double toSeconds, int columns, std::int64_t sampleBudget) {
    std::vector<EnvelopeColumn> envelope(static_cast<std::size_t>(std::max(columns, 0)));
    const std::int64_t l = static_cast<std::int64_t>(std::floor(fromSeconds * info.rateHz));
    const std::int64_t h = static_cast<std::int64_t>(std::ceil(toSeconds * info.rateHz));
    if (columns <= 0 || h <= l) return envelope;
    const bool whole = h - l <= sampleBudget;
    const std::int64_t perColumn = std::max<std::int64_t>(64, sampleBudget / columns);
    for (int channel = 0; channel < info.channels; ++channel) {
        if (whole) {  // one read of the view into a flat copy, then each column's stretch of it
            std::vector<float> samples(static_cast<std::size_t>(h - l));
            std::vector<char> stored(samples.size(), 0);
            for (const ArchivedPiece& piece : store.get(info.name, channel, l, h)) {
                if (piece.isGap()) continue;
                auto at = static_cast<std::size_t>(piece.start - l);
                piece.samples.forEachSpan([&](std::span<const float> run) {
                    std::copy(run.begin(), run.end(), samples.begin() + static_cast<std::ptrdiff_t>(at));
                    std::fill_n(stored.begin() + static_cast<std::ptrdiff_t>(at), run.size(), 1);
                    at += run.size();
                });
            }
            for (int c = 0; c < columns; ++c) {
                const auto [a, b] = envelopeColumnRange(l, h, c, columns);
                EnvelopeColumn& column = envelope[static_cast<std::size_t>(c)];
                for (std::int64_t s = a; s < std::min(b, h); ++s) {
                    const auto i = static_cast<std::size_t>(s - l);
                    if (stored[i]) widen(column, samples[i]);
                }
            }
            continue;
        }
        for (int c = 0; c < columns; ++c) {  // the first perColumn samples of each column
            const auto [a, b] = envelopeColumnRange(l, h, c, columns);
            const std::int64_t end = std::min({b, h, a + perColumn});
            for (const ArchivedPiece& piece : store.get(info.name, channel, a, end)) include(envelope[static_cast<std::size_t>(c)], piece, a, end);
        }
    }
    return envelope;
}

std::vector<EnvelopeColumn> rescaleEnvelope(const std::vector<EnvelopeColumn>& shown, double shownFrom, double shownTo, double fromSeconds,
                                            double toSeconds, int columns) {
    std::vector<EnvelopeColumn> envelope(static_cast<std::size_t>(std::max(columns, 0)));
    const auto shownColumns = static_cast<double>(shown.size());
    if (shown.empty() || shownTo <= shownFrom || toSeconds <= fromSeconds) return envelope;
    const double shownWidth = (shownTo - shownFrom) / shownColumns;
    const double width = (toSeconds - fromSeconds) / columns;
    for (int c = 0; c < columns; ++c) {
        const double a = fromSeconds + width * c, b = fromSeconds + width * (c + 1);
        if (b <= shownFrom || a >= shownTo) continue;
        // The shown columns [first, last] overlapping [a, b); a rounding error does not make a
        // column that ends where [a, b) starts (same widths: the same column) overlap it.
        constexpr double kRounding = 1e-9;
        const auto first = static_cast<std::size_t>(std::clamp(std::floor((a - shownFrom) / shownWidth + kRounding), 0.0, shownColumns - 1));
        const auto last = static_cast<std::size_t>(std::clamp(std::ceil((b - shownFrom) / shownWidth - kRounding) - 1, 0.0, shownColumns - 1));
        EnvelopeColumn& column = envelope[static_cast<std::size_t>(c)];
        for (std::size_t s = first; s <= last; ++s) {
            if (!shown[s].stored) continue;
            widen(column, shown[s].min);
            widen(column, shown[s].max);
        }
    }
    return envelope;
}

}  // namespace isochron::ui
