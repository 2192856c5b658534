// A waterfall's picture: the newest dB spectra as rows of colour, the newest at the top, each bin a
// column. It keeps the spectra themselves, so a new dB range recolours the whole history instead of
// leaving rows drawn on another scale.
#pragma once

#include <QImage>
#include <QRgb>

#include <cstdint>
#include <span>
#include <vector>

namespace isochron::ui {

/// The colour of a level `fraction` of the way up a waterfall's dB range (clamped to 0 … 1): black
/// through purple, red and orange to pale yellow, brighter at every step. [any thread]
QRgb waterfallColour(double fraction);

/// The newest spectra of one wire as an image. [ui thread]
class WaterfallRows {
public:
    /// `capacity` (≥ 1): how many spectra (rows) it keeps.
    explicit WaterfallRows(int capacity = 160);

    /// Add the newest spectrum (dB, one value per bin), taken when `streamPosition` samples had
    /// flowed. A spectrum of another length than the last starts a new history.
    void push(std::span<const float> decibels, std::uint64_t streamPosition);
    /// Colour the rows over [low, high] dB (low < high) from now on; recolours the history.
    void setRange(double low, double high);
    void clear();

    /// `capacity` rows of `bins` pixels, row 0 the newest spectrum; rows not filled yet are transparent.
    const QImage& image() const { return image_; }
    int filled() const { return filled_; }
    int bins() const { return bins_; }
    /// Samples that flowed between the oldest row kept and the newest (0 with fewer than two rows).
    std::uint64_t samplesSpanned() const;
    /// The dB value of bin `bin` in the row `age` spectra old (0: the newest); needs age < filled().
    float decibelsAt(int age, int bin) const;

private:
    void paint();
    int capacity_;
    int bins_ = 0;
    int filled_ = 0;
    int newest_ = -1;                     // slot of the newest row in decibels_
    std::vector<float> decibels_;         // capacity_ rows of bins_ values, a ring of slots
    std::vector<std::uint64_t> positions_;  // stream position of each slot
    double low_ = -100, high_ = 0;
    QImage image_;
};

}  // namespace isochron::ui
