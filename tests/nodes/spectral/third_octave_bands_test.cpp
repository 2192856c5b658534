// spectral.third_octave_bands: the IEC 61260-1 band table, and band powers against analytic values
// (sines of known amplitude, white noise through Parseval).
#include <catch2/catch.hpp>

#include <cmath>

#include "nodes/spectral/band_filterbank.h"
#include "tests/nodes/spectral/spectral_test_support.h"

using namespace isochron;
using namespace isochron::test;

TEST_CASE("One-third-octave bands have the IEC 61260-1 base-10 centres and edges", "[spectral][third_octave]") {
    // The nominal centre frequencies of IEC 61260-1, 25 Hz to 20 kHz.
    const std::vector<double> nominal = {25,   31.5, 40,   50,   63,   80,   100,  125,  160,   200,   250,   315,   400,   500,  630,
                                         800,  1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000, 10000, 12500, 16000, 20000};
    const auto bands = thirdOctaveFilterbank(25.0, 20000.0, 48000.0, 65536);
    REQUIRE(bands.size() == nominal.size());
    for (std::size_t i = 0; i < bands.size(); ++i) {
        INFO("band " << nominal[i] << " Hz");
        CHECK(bands[i].centreHz == Approx(nominal[i]).epsilon(0.03));  // nominal values are rounded exact ones
        CHECK(bands[i].highHz / bands[i].lowHz == Approx(std::pow(10.0, 0.1)));
        if (i > 0) CHECK(bands[i].lowHz == Approx(bands[i - 1].highHz));
    }
    CHECK(thirdOctaveFilterbank(25.0, 20000.0, 16000.0, 1024).back().centreHz == Approx(6309.6).epsilon(1e-4));  // 8 kHz passes Nyquist
}

TEST_CASE("spectral.third_octave_bands reads A^2/2 for a sine in its band and about nothing elsewhere", "[spectral][third_octave]") {
    const double rate = 48000.0;
    const std::int64_t size = 8192;
    const Timebase& timebase = Timebase::get(rate);
    struct Tone {
        double hz, amplitude;
    };
    const std::vector<Tone> tones = {{1000.0, 0.5}, {3150.0, 0.25}, {10000.0, 0.1}};
    std::vector<float> signal(static_cast<std::size_t>(size) * 4);
    for (std::size_t n = 0; n < signal.size(); ++n) {
        double value = 0.0;
        for (const Tone& tone : tones) value += tone.amplitude * std::sin(2.0 * std::numbers::pi * tone.hz * n / rate + 0.1);
        signal[n] = static_cast<float>(value);
    }
    // spectrogram (density) -> bands: the chain a user builds.
    const char* graph = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "feed", "type": "test.feed", "params": {"name": "octave"}},
        {"id": "psd", "type": "spectral.spectrogram", "params": {"size": 8192, "hop": 8192, "window": "hann"}},
        {"id": "bands", "type": "spectral.third_octave_bands", "params": {"low_hz": 100, "high_hz": 16000}},
        {"id": "sink", "type": "test.collect", "params": {"name": "octave"}}
      ],
      "edges": [{"from": "feed.out0", "to": "psd.in"}, {"from": "psd.power", "to": "bands.power"}, {"from": "bands.bands", "to": "sink.in0"}]
    })";
    feedScripts()["octave"].batches = {{{0, Item::signal(makeSignal(signal, 0, timebase))}}};
    const RunOutcome outcome = runGraph(graph);
    REQUIRE(outcome.failures.empty());
    const auto& frames = collections()["octave"].items[0];
    REQUIRE(frames.size() == 4);
    const auto bands = thirdOctaveFilterbank(100.0, 16000.0, rate, size);
    const std::vector<float> values = samplesOf(frames[2]);
    REQUIRE(values.size() == bands.size());
    for (std::size_t b = 0; b < bands.size(); ++b) {
        INFO("band centred at " << bands[b].centreHz << " Hz");
        double expected = 0.0;
        for (const Tone& tone : tones) {
            if (tone.hz >= bands[b].lowHz && tone.hz < bands[b].highHz) expected += tone.amplitude * tone.amplitude / 2.0;
        }
        if (expected > 0.0) CHECK(values[b] == Approx(expected).epsilon(0.01));
        else CHECK(values[b] < 1e-4 * 0.125);
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("Third-octave band powers of white noise add up to its power between the outer edges", "[spectral][third_octave]") {
    const double rate = 16000.0;
    const std::int64_t size = 4096;
    const Timebase& timebase = Timebase::get(rate);
    std::mt19937 random(12);
    const std::vector<float> noise = randomSamples(static_cast<std::size_t>(size), random);
    // Rectangular window: each bin's density times its width is its share of the frame's power (Parseval).
    NodeRun power = runNode("spectral.spectrogram", {{"size", size}, {"hop", size}, {"window", "none"}}, "signal<f32>", "in", {"power"},
                            {Item::signal(makeSignal(noise, 0, timebase))});
    REQUIRE(power.outputs[0].size() == 1);
    NodeRun run = runNode("spectral.third_octave_bands", {{"low_hz", 50}, {"high_hz", 6300}}, "frame<f32>", "power", {"bands"},
                          {power.outputs[0][0]});
    REQUIRE(run.outcome.failures.empty());
    const auto bands = thirdOctaveFilterbank(50.0, 6300.0, rate, size);
    const std::vector<float> values = samplesOf(run.outputs[0][0]);
    double sum = 0.0;
    for (float v : values) sum += v;
    // The same power from a direct DFT: bins weighted by the part of their width inside [first low, last high].
    std::vector<double> x(noise.begin(), noise.end());
    const auto dft = referenceDft(x, static_cast<std::size_t>(size));
    const double hzPerBin = rate / static_cast<double>(size);
    double expected = 0.0;
    for (std::size_t k = 1; k + 1 < dft.size(); ++k) {
        const double low = (static_cast<double>(k) - 0.5) * hzPerBin;
        const double high = low + hzPerBin;
        const double inside = std::max(0.0, std::min(high, bands.back().highHz) - std::max(low, bands.front().lowHz)) / hzPerBin;
        expected += inside * 2.0 * std::norm(dft[k]) / (static_cast<double>(size) * static_cast<double>(size));
    }
    CHECK(sum == Approx(expected).epsilon(1e-4));
}
