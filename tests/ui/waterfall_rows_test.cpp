// The waterfall's picture: the newest spectrum on top, older ones below in order, colours brighter
// for louder bins over the whole scale, and the history's span in stream samples.
#include <catch2/catch.hpp>

#include <QColor>

#include <vector>

#include "ui/plots/waterfall_rows.h"

using namespace isochron::ui;

namespace {

double brightness(QRgb c) { return 0.299 * qRed(c) + 0.587 * qGreen(c) + 0.114 * qBlue(c); }

/// A spectrum at −100 dB with one bin at `loudBin` at 0 dB.
std::vector<float> spectrumWithTone(int bins, int loudBin) {
    std::vector<float> decibels(static_cast<std::size_t>(bins), -100.f);
    decibels[static_cast<std::size_t>(loudBin)] = 0.f;
    return decibels;
}

int brightestColumn(const QImage& image, int row) {
    int best = 0;
    for (int x = 1; x < image.width(); ++x) {
        if (brightness(image.pixel(x, row)) > brightness(image.pixel(best, row))) best = x;
    }
    return best;
}

}  // namespace

TEST_CASE("the waterfall's colours get brighter all the way up the scale", "[ui][probe][waterfall]") {
    for (int step = 1; step <= 100; ++step) {
        INFO("at " << step << "%");
        CHECK(brightness(waterfallColour(step / 100.0)) > brightness(waterfallColour((step - 1) / 100.0)));
    }
    CHECK(waterfallColour(-3) == waterfallColour(0));
    CHECK(waterfallColour(7) == waterfallColour(1));
}

TEST_CASE("the newest spectrum is the top row and older ones scroll down", "[ui][probe][waterfall]") {
    const int bins = 65, capacity = 8;
    WaterfallRows rows(capacity);
    rows.setRange(-100, 0);
    for (int i = 0; i < 12; ++i) rows.push(spectrumWithTone(bins, 3 * i), 1000u * static_cast<unsigned>(i));
    REQUIRE(rows.filled() == capacity);
    REQUIRE(rows.image().width() == bins);
    REQUIRE(rows.image().height() == capacity);
    for (int age = 0; age < capacity; ++age) {
        INFO("age " << age);
        CHECK(brightestColumn(rows.image(), age) == 3 * (11 - age));
        CHECK(rows.decibelsAt(age, 3 * (11 - age)) == 0.f);
    }
    CHECK(rows.samplesSpanned() == 7000u);  // pushes 4 … 11 kept
    CHECK(rows.image().pixel(0, 0) == waterfallColour(0));
    CHECK(rows.image().pixel(33, 0) == waterfallColour(1));
}

TEST_CASE("a new range recolours the history; a new length starts a new one", "[ui][probe][waterfall]") {
    WaterfallRows rows(4);
    rows.setRange(-100, 0);
    rows.push(std::vector<float>(16, -50.f), 0);
    CHECK(rows.image().pixel(5, 0) == waterfallColour(0.5));
    CHECK(qAlpha(rows.image().pixel(5, 1)) == 0);  // not filled yet
    rows.setRange(-50, 30);
    CHECK(rows.image().pixel(5, 0) == waterfallColour(0));
    rows.push(std::vector<float>(32, -10.f), 512);
    CHECK(rows.filled() == 1);
    CHECK(rows.image().width() == 32);
    CHECK(rows.samplesSpanned() == 0u);
}
