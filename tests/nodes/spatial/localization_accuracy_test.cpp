// The localization accuracy table (for BENCHMARKS.md): azimuth error of each estimator by SNR and
// reverberation. Hidden by default (tag [.accuracy]); run it with
//   nodes_tests "[accuracy]"        (the table goes to standard output, ready for Markdown)
// It asserts nothing: the asserted accuracy lives in direction_estimator_test.cpp.
#include <catch2/catch.hpp>

#include <cstdio>
#include <sstream>

#include "tests/nodes/spatial/spatial_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

struct Condition {
    std::string name;
    double snrDb;
    std::optional<ShoeboxRoom> room;
    SourceSignal signal{SourceKind::NoiseBurst, 0.04, 300.0, 8000.0, 1};
};

ShoeboxRoom room(double absorption, int order) {
    ShoeboxRoom shoebox;
    shoebox.absorption = absorption;
    shoebox.maxOrder = order;
    return shoebox;
}

}  // namespace

TEST_CASE("localization accuracy by SNR and reverberation (table)", "[.accuracy]") {
    const std::string preset = "square4:0.2";
    const std::size_t directionCount = 100;
    const auto directions = randomDirections(directionCount, 0.0, 0.0, 2024);
    const std::vector<Condition> conditions = {
        {"free field, 30 dB", 30.0, std::nullopt},
        {"free field, 20 dB", 20.0, std::nullopt},
        {"free field, 10 dB", 10.0, std::nullopt},
        {"free field, 0 dB", 0.0, std::nullopt},
        {"free field, -5 dB", -5.0, std::nullopt},
        {"free field, -10 dB", -10.0, std::nullopt},
        {"free field, -15 dB", -15.0, std::nullopt},
        {"room 6x5x3 m, absorption 0.8, order 3, 20 dB", 20.0, room(0.8, 3)},
        {"room 6x5x3 m, absorption 0.5, order 3, 20 dB", 20.0, room(0.5, 3)},
        {"room 6x5x3 m, absorption 0.2, order 3, 20 dB", 20.0, room(0.2, 3)},
        {"room 6x5x3 m, absorption 0.2, order 3, 10 dB", 10.0, room(0.2, 3)},
        {"room 6x5x3 m, absorption 0.1, order 3, 20 dB", 20.0, room(0.1, 3)},
        {"free field, 20 dB, 40 ms chirp 1-8 kHz", 20.0, std::nullopt, {SourceKind::Chirp, 0.04, 1000.0, 8000.0, 1}},
        {"free field, 20 dB, 5 ms click 300-8000 Hz", 20.0, std::nullopt, {SourceKind::Click, 0.005, 300.0, 8000.0, 1}},
    };
    const std::vector<std::pair<std::string, nlohmann::json>> estimators = {
        {"srp_phat", {{"type", "spatial.srp_phat"}, {"params", {{"geometry", preset}}}}},
        {"srp_phat_band", {{"type", "spatial.srp_phat"}, {"params", {{"geometry", preset}, {"band_low_hz", 300.0}, {"band_high_hz", 8000.0}}}}},
        {"aml_power", {{"type", "spatial.aml_doa"}, {"params", {{"geometry", preset}}}}},
        {"aml_normalized", {{"type", "spatial.aml_doa"}, {"params", {{"geometry", preset}, {"bin_weighting", "normalized"}}}}},
        {"music_band", {{"type", "spatial.music"}, {"params", {{"geometry", preset}, {"band_low_hz", 300.0}, {"band_high_hz", 8000.0}}}}},
    };

    std::ostringstream table;
    table << "Azimuth error (deg), " << preset << " at 48 kHz, " << directionCount
          << " random directions (elevation 0), 40 ms noise bursts 300-8000 Hz unless said, at 3 m (1.5 m in the room), "
             "4096-sample events, block 1024, 1 deg grid, default band (100 Hz to Nyquist). SNR = unit source RMS "
             "over white noise RMS per sample (full band).\n\n"
          << "| condition | SRP-PHAT median | SRP-PHAT p90 | SRP-PHAT 300-8000 Hz median | SRP-PHAT 300-8000 Hz p90 "
             "| AML median | AML p90 | AML (normalized bins) median | AML (normalized bins) p90 "
             "| MUSIC 300-8000 Hz median | MUSIC 300-8000 Hz p90 |\n"
          << "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for (const Condition& condition : conditions) {
        const auto events = simulateDirections(presetGeometry(preset), directions, condition.snrDb, condition.room, condition.signal);
        feedScripts()["array"] = arrayEventScript(events, Timebase::get(48000.0));
        REQUIRE(runGraph(arrayGraph(4, estimators, "bearings")).failures.empty());
        table << "| " << condition.name;
        for (const auto& [id, node] : estimators) {
            std::vector<double> errors;
            const auto& bearings = collections()[id].items[0];
            REQUIRE(bearings.size() == directionCount);
            for (std::size_t i = 0; i < directionCount; ++i) {
                errors.push_back(azimuthError(attribute(bearings[i], "azimuth_deg"), directions[i].azimuthDegrees));
            }
            char cells[64];
            std::snprintf(cells, sizeof cells, " | %.1f | %.1f", quantile(errors, 0.5), quantile(errors, 0.9));
            table << cells;
        }
        table << " |\n";
        feedScripts().clear();
        collections().clear();
    }
    std::printf("%s\n", table.str().c_str());
    SUCCEED();
}
