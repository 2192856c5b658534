#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "tests/nodes/spatial/spatial_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kRate = 48000.0;
const SourceSignal kBurst{SourceKind::NoiseBurst, 0.04, 300.0, 8000.0, 1};

/// Bearings of `events` from each estimator node (id -> type and params), by node id.
std::map<std::string, std::vector<Item>> runEstimators(const std::vector<std::pair<std::string, nlohmann::json>>& nodes,
                                                       const std::vector<ArrayEvent>& events,
                                                       const std::string& scheduler = "df", std::mt19937* split = nullptr) {
    const int channels = static_cast<int>(events.front().channels.size());
    feedScripts()["array"] = arrayEventScript(events, Timebase::get(kRate), split);
    const RunOutcome outcome = runGraph(arrayGraph(channels, nodes, "bearings"), scheduler);
    CHECK(outcome.completed);
    CHECK(outcome.failures.empty());
    std::map<std::string, std::vector<Item>> out;
    for (const auto& [id, node] : nodes) out[id] = collections()[id].items[0];
    feedScripts().clear();
    collections().clear();
    return out;
}

nlohmann::json estimator(const std::string& type, const std::string& geometry, nlohmann::json params = nlohmann::json::object()) {
    params["geometry"] = geometry;
    return {{"type", type}, {"params", params}};
}

}  // namespace

TEST_CASE("SRP-PHAT and AML find azimuths of a 4-mic square within 5 deg (median) at 20 dB SNR", "[spatial][srp][aml]") {
    const ArrayGeometry square = presetGeometry("square4:0.2");
    const auto directions = randomDirections(60, 0.0, 0.0, 42);
    const auto events = simulateDirections(square, directions, 20.0, std::nullopt, kBurst);
    const auto out = runEstimators({{"srp", estimator("spatial.srp_phat", "square4:0.2")},
                                    {"aml", estimator("spatial.aml_doa", "square4:0.2")}},
                                   events);
    for (const char* id : {"srp", "aml"}) {
        INFO(id);
        REQUIRE(out.at(id).size() == directions.size());
        std::vector<double> errors;
        for (std::size_t i = 0; i < directions.size(); ++i) {
            const Item& bearing = out.at(id)[i];
            CHECK(bearing.range().start == events[i].startIndex);
            CHECK(bearing.range().length == 4096);
            errors.push_back(azimuthError(attribute(bearing, "azimuth_deg"), directions[i].azimuthDegrees));
            CHECK(attribute(bearing, "confidence") > 0.1);
            CHECK(attribute(bearing, "confidence") <= 1.0);
        }
        INFO("median " << quantile(errors, 0.5) << " deg, 90th percentile " << quantile(errors, 0.9) << " deg");
        CHECK(quantile(errors, 0.5) <= 5.0);
        CHECK(quantile(errors, 0.9) <= 10.0);
    }
}

TEST_CASE("with a 3-D array, SRP-PHAT and AML find elevation too", "[spatial][srp][aml]") {
    // A square with a fifth mic above its centre; geometry given as a JSON file.
    const auto path = std::filesystem::temp_directory_path() / ("isochron-pyramid-array-" + std::to_string(getpid()) + ".json");
    std::ofstream(path) << R"({"mics": [[0.1, 0.1, 0], [-0.1, 0.1, 0], [-0.1, -0.1, 0], [0.1, -0.1, 0], [0, 0, 0.15]]})";
    const ArrayGeometry pyramid = loadGeometry(path.string());
    const auto directions = randomDirections(50, 0.0, 60.0, 7);
    const auto events = simulateDirections(pyramid, directions, 20.0, std::nullopt, kBurst);
    const nlohmann::json grid = {{"elevation_min_deg", -30.0}, {"elevation_max_deg", 90.0}, {"elevation_step_deg", 2.0},
                                 {"azimuth_step_deg", 2.0}};
    const auto out = runEstimators({{"srp", estimator("spatial.srp_phat", path.string(), grid)},
                                    {"aml", estimator("spatial.aml_doa", path.string(), grid)}},
                                   events);
    for (const char* id : {"srp", "aml"}) {
        INFO(id);
        REQUIRE(out.at(id).size() == directions.size());
        std::vector<double> azimuthErrors, elevationErrors;
        for (std::size_t i = 0; i < directions.size(); ++i) {
            const Item& bearing = out.at(id)[i];
            // Azimuth is meaningless near the zenith; judge it where the source is below 50 deg.
            if (directions[i].elevationDegrees < 50.0) {
                azimuthErrors.push_back(azimuthError(attribute(bearing, "azimuth_deg"), directions[i].azimuthDegrees));
            }
            elevationErrors.push_back(std::abs(attribute(bearing, "elevation_deg") - directions[i].elevationDegrees));
        }
        INFO("azimuth median " << quantile(azimuthErrors, 0.5) << ", elevation median " << quantile(elevationErrors, 0.5));
        CHECK(quantile(azimuthErrors, 0.5) <= 5.0);
        CHECK(quantile(elevationErrors, 0.5) <= 5.0);
    }
    std::filesystem::remove(path);
}

TEST_CASE("direction estimators work for circular and linear presets", "[spatial][srp][aml]") {
    // A linear array cannot tell front from back: judge the angle from its axis (broadside = 0).
    auto lineAngle = [](double azimuth) { return std::asin(std::sin(azimuth * M_PI / 180.0)) * 180.0 / M_PI; };
    for (const std::string preset : {"circular6:0.1", "circular8:0.1", "linear4:0.08"}) {
        INFO(preset);
        const bool linear = preset.starts_with("linear");
        const auto directions = randomDirections(20, 0.0, 0.0, 3);
        const auto events = simulateDirections(presetGeometry(preset), directions, 20.0, std::nullopt, kBurst);
        const auto out = runEstimators({{"srp", estimator("spatial.srp_phat", preset)}, {"aml", estimator("spatial.aml_doa", preset)}},
                                       events);
        for (const char* id : {"srp", "aml"}) {
            INFO(id);
            std::vector<double> errors;
            for (std::size_t i = 0; i < directions.size(); ++i) {
                const double estimate = attribute(out.at(id)[i], "azimuth_deg");
                const double truth = directions[i].azimuthDegrees;
                errors.push_back(linear ? std::abs(lineAngle(estimate) - lineAngle(truth)) : azimuthError(estimate, truth));
            }
            CHECK(quantile(errors, 0.5) <= 5.0);
        }
    }
}

TEST_CASE("direction estimators give identical bearings under every scheduler and any split", "[spatial][srp][aml][determinism]") {
    const auto directions = randomDirections(6, 0.0, 0.0, 99);
    const auto events = simulateDirections(presetGeometry("square4:0.2"), directions, 10.0, std::nullopt, kBurst);
    const std::vector<std::pair<std::string, nlohmann::json>> nodes = {
        {"srp", estimator("spatial.srp_phat", "square4:0.2", {{"block", 512}})},
        {"aml", estimator("spatial.aml_doa", "square4:0.2", {{"bin_weighting", "normalized"}})}};
    const auto reference = runEstimators(nodes, events);
    std::mt19937 random(5);
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        const auto got = runEstimators(nodes, events, scheduler, &random);
        for (const auto& [id, items] : reference) {
            REQUIRE(got.at(id).size() == items.size());
            for (std::size_t i = 0; i < items.size(); ++i) {
                std::string why;
                const bool same = sameData(got.at(id)[i], items[i], &why);
                INFO(id << " event " << i << ": " << why);
                CHECK(same);
            }
        }
    }
}

TEST_CASE("events are matched across inputs by each input's order, not by arrival", "[spatial][srp]") {
    // The feed emits each event's channels in reverse order; a channel whose event is missing
    // (mic 2 lacks event 1) makes the operator skip that event and stay aligned afterwards.
    const auto directions = randomDirections(3, 0.0, 0.0, 1);
    auto events = simulateDirections(presetGeometry("square4:0.2"), directions, 20.0, std::nullopt, kBurst);
    FeedScript script = arrayEventScript(events, Timebase::get(kRate), nullptr, {3, 2, 1, 0});
    auto& second = script.batches[1];
    second.erase(std::remove_if(second.begin(), second.end(), [](const auto& entry) { return entry.first == 2; }), second.end());
    feedScripts()["array"] = script;
    const RunOutcome outcome = runGraph(arrayGraph(4, {{"srp", estimator("spatial.srp_phat", "square4:0.2")}}, "bearings"));
    CHECK(outcome.failures.empty());
    const auto& bearings = collections()["srp"].items[0];
    REQUIRE(bearings.size() == 2);
    CHECK(bearings[0].range().start == events[0].startIndex);
    CHECK(bearings[1].range().start == events[2].startIndex);
    CHECK(azimuthError(attribute(bearings[1], "azimuth_deg"), directions[2].azimuthDegrees) < 5.0);
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("an event whose inputs disagree on the timebase is dropped; overlapping ranges use their common part", "[spatial][srp]") {
    const auto directions = randomDirections(3, 0.0, 0.0, 2);
    auto events = simulateDirections(presetGeometry("square4:0.2"), directions, 20.0, std::nullopt, kBurst);
    FeedScript script = arrayEventScript(events, Timebase::get(kRate));
    // Event 0: mic 1 on another clock phase. Event 2: mic 3 starts 100 samples late.
    const Timebase& shifted = Timebase::get(kRate, 1000);
    script.batches[0][1].second = Item::signal(makeSignal(events[0].channels[1], events[0].startIndex, shifted));
    const std::vector<float> late(events[2].channels[3].begin() + 100, events[2].channels[3].end());
    script.batches[2][3].second = Item::signal(makeSignal(late, events[2].startIndex + 100, Timebase::get(kRate)));
    feedScripts()["array"] = script;
    CHECK(runGraph(arrayGraph(4, {{"srp", estimator("spatial.srp_phat", "square4:0.2")}}, "bearings")).failures.empty());
    const auto& bearings = collections()["srp"].items[0];
    REQUIRE(bearings.size() == 2);
    CHECK(bearings[0].range().start == events[1].startIndex);
    CHECK(bearings[1].range() == SampleRange{&Timebase::get(kRate), events[2].startIndex + 100, 4096 - 100});
    CHECK(azimuthError(attribute(bearings[1], "azimuth_deg"), directions[2].azimuthDegrees) < 5.0);
    feedScripts().clear();
    collections().clear();
}
