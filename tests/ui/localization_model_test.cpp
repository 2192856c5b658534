// The localization view's models without a running engine: the taps added to a graph, bearings as
// list rows with fading and confidence, the tracks and background for the bearing-time plot, the
// audio held for play-back (the right samples for an event's time range, per event or across the
// continuous stream's blocks), and play-back without an output device.
#include <catch2/catch.hpp>

#include <numeric>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "ui/localization/audio_output.h"
#include "ui/localization/bearing_event_model.h"
#include "ui/localization/event_audio.h"
#include "ui/localization/localization_feed.h"
#include "ui/localization/localization_taps.h"
#include "ui/localization/track_history.h"
#include "nodes/io/item_tap.h"
#include "nodes/register_builtin_nodes.h"

using namespace isochron;
using namespace isochron::ui;

namespace {

BearingEvent bearing(double start, double azimuth, double confidence) {
    BearingEvent e;
    e.startSeconds = start;
    e.endSeconds = start + 0.05;
    e.azimuthDeg = azimuth;
    e.confidence = confidence;
    return e;
}

}  // namespace

TEST_CASE("bearings become rows, newest first, and the clock follows the newest", "[ui][localization]") {
    BearingEventModel model;
    int counted = 0;
    QObject::connect(&model, &BearingEventModel::countChanged, [&] { ++counted; });
    model.append({bearing(0.4, 242.3, 0.8), bearing(1.1, 81.1, 0.5)});
    model.append({bearing(1.9, 32.5, 0.9)});
    REQUIRE(model.rowCount() == 3);
    CHECK(counted == 2);
    CHECK(model.data(model.index(0), BearingEventModel::AzimuthRole).toDouble() == 32.5);
    CHECK(model.data(model.index(2), BearingEventModel::AzimuthRole).toDouble() == 242.3);
    CHECK(model.data(model.index(1), BearingEventModel::StartRole).toDouble() == 1.1);
    CHECK(model.data(model.index(1), BearingEventModel::ConfidenceRole).toDouble() == 0.5);
    CHECK(model.nowSeconds() == Approx(1.95));
    model.setSelectedRow(0);
    model.append({bearing(2.6, 46.7, 0.7)});
    CHECK(model.selectedRow() == 1);  // the same event stays selected
    CHECK(model.at(model.selectedRow()).azimuthDeg == 32.5);
}

TEST_CASE("marks fade over the history and show confidence", "[ui][localization]") {
    CHECK(fadedOpacity(0, 30, 1) == Approx(1));
    CHECK(fadedOpacity(15, 30, 1) == Approx(0.5));
    CHECK(fadedOpacity(30, 30, 1) == 0);
    CHECK(fadedOpacity(45, 30, 1) == 0);
    CHECK(fadedOpacity(0, 30, 0) == Approx(0.3));
    CHECK(fadedOpacity(0, 30, 0.5) < fadedOpacity(0, 30, 0.9));
    CHECK(confidenceRadius(0) == 3);
    CHECK(confidenceRadius(1) == 9);
    CHECK(confidenceRadius(2) == 9);

    BearingEventModel model;
    model.append({bearing(0, 10, 1), bearing(10, 20, 1)});  // ends at 0.05 and 10.05
    CHECK(model.opacityAt(0) == Approx(1));
    CHECK(model.opacityAt(1) == Approx(1 - 10.0 / 30));
    model.advance(10);
    CHECK(model.opacityAt(0) == Approx(1 - 10.0 / 30));
    CHECK(model.opacityAt(1) == Approx(1 - 20.0 / 30));
    model.advance(20);
    CHECK(model.opacityAt(1) == 0);
    CHECK(model.data(model.index(0), BearingEventModel::OpacityRole).toDouble() == Approx(1 - 30.0 / 30).margin(1e-9));
}

TEST_CASE("the list keeps the newest events only", "[ui][localization]") {
    BearingEventModel model;
    std::vector<BearingEvent> many;
    for (int i = 0; i < BearingEventModel::kMaxRows + 10; ++i) many.push_back(bearing(i, i % 360, 0.5));
    model.append(many);
    CHECK(model.rowCount() == BearingEventModel::kMaxRows);
    CHECK(model.at(0).startSeconds == BearingEventModel::kMaxRows + 9);
    CHECK(model.at(model.rowCount() - 1).startSeconds == 10);
}

TEST_CASE("an event's audio is exactly its samples, of one mic or the mix", "[ui][localization][audio]") {
    EventAudio audio;
    const double rate = 16000;
    // One event: samples 8000..8799 of four mics; mic m's sample i has the value m * 100000 + i.
    for (int mic = 0; mic < 4; ++mic) {
        std::vector<float> samples(800);
        for (int i = 0; i < 800; ++i) samples[static_cast<std::size_t>(i)] = static_cast<float>(mic * 100000 + 8000 + i);
        audio.add(mic, 8000, rate, std::move(samples));
    }
    CHECK(audio.mics() == 4);
    // 0.52 .. 0.53 s = samples 8320 .. 8480.
    const std::vector<float> mic2 = audio.extract(0.52, 0.53, 2);
    REQUIRE(mic2.size() == 160);
    for (std::size_t i = 0; i < mic2.size(); ++i) REQUIRE(mic2[i] == static_cast<float>(200000 + 8320 + i));
    const std::vector<float> mix = audio.extract(0.52, 0.53, -1);
    REQUIRE(mix.size() == 160);
    for (std::size_t i = 0; i < mix.size(); ++i) REQUIRE(mix[i] == Approx((0 + 100000 + 200000 + 300000) / 4.0 + 8320 + i));
    // A range reaching past the clip gets what the clip has; one outside it gets nothing.
    CHECK(audio.extract(0.54, 0.60, 0).size() == 8800 - 8640);
    CHECK(audio.extract(0.54, 0.60, 0).front() == 8640);
    CHECK(audio.extract(2.0, 2.1, 0).empty());
    CHECK(audio.extract(0.52, 0.53, 7).empty());
    CHECK(audio.rateOf(0.52, 0.53) == rate);
}

TEST_CASE("held audio is bounded: the oldest events go first", "[ui][localization][audio]") {
    EventAudio audio(2500);
    for (int event = 0; event < 4; ++event) audio.add(0, event * 16000, 16000, std::vector<float>(1000, static_cast<float>(event)));
    CHECK(audio.extract(0, 0.0625, 0).empty());
    CHECK(audio.extract(1, 1.0625, 0).empty());
    CHECK(audio.extract(2, 2.0625, 0).front() == 2);
    CHECK(audio.extract(3, 3.0625, 0).front() == 3);
}

TEST_CASE("playing without an output device says so and does not crash", "[ui][localization][audio]") {
    // The tests' ALSA configuration declares no devices (model_test_main.cpp), as on CI.
    AudioOutput output;
    const std::string why = output.play(std::vector<float>(1600, 0.1f), 16000);
    INFO(why);
    CHECK_FALSE(why.empty());
    CHECK_FALSE(output.playing());
    CHECK(output.play({}, 16000) == "there is no audio for this event");
}

TEST_CASE("the localization samples get sound, track, background and audio taps, saved files do not", "[ui][localization]") {
    for (const char* name : {"localize-file", "localize-live"}) {
        INFO(name);
        GraphSpec spec = loadGraphFile(std::string(ISOCHRON_SOURCE_DIR) + "/samples/" + name + ".isograph.json");
        const LocalizationOutputs outputs = findLocalizationOutputs(spec);
        REQUIRE(outputs.bearings.size() == 1);
        CHECK(outputs.bearings[0].from() == "tracker.events");
        REQUIRE(outputs.tracks.size() == 1);
        CHECK(outputs.tracks[0].from() == "tracker.tracks");
        REQUIRE(outputs.background.size() == 1);
        CHECK(outputs.background[0].from() == "tracker.background");
        REQUIRE(outputs.audio.size() == 1);
        CHECK(outputs.audio[0].from() == "source.out*");  // the continuous audio into spatial.array_stft
        CHECK(outputs.triangulation.empty());
        std::set<std::string> taken;
        for (const NodeSpec& node : spec.nodes) taken.insert(node.id);
        const std::size_t nodes = spec.nodes.size();
        const LocalizationTapIds ids = addLocalizationTaps(spec, outputs, taken);
        CHECK(spec.nodes.size() == nodes + 4);
        CHECK(ids.positions.empty());
        CHECK(std::find(spec.edges.begin(), spec.edges.end(), EdgeSpec{"source", "out*", ids.audio, "in*"}) != spec.edges.end());
        CHECK(std::find(spec.edges.begin(), spec.edges.end(), EdgeSpec{"tracker", "tracks", ids.tracks, "in0"}) != spec.edges.end());
        CHECK(std::find(spec.edges.begin(), spec.edges.end(), EdgeSpec{"tracker", "background", ids.background, "in0"}) != spec.edges.end());
        CHECK(spec.findNode(ids.bearings)->type == "io.item_tap");
    }
    GraphSpec detectAudio = loadGraphFile(std::string(ISOCHRON_SOURCE_DIR) + "/samples/xstream-detectaudio-localize.isograph.json");
    const LocalizationOutputs perEvent = findLocalizationOutputs(detectAudio);
    REQUIRE(perEvent.bearings.size() == 1);
    CHECK(perEvent.bearings[0].from() == "array.bearings");
    REQUIRE(perEvent.audio.size() == 1);
    CHECK(perEvent.audio[0].from() == "cut.out*");
    CHECK(perEvent.tracks.empty());
    GraphSpec quickstart = loadGraphFile(std::string(ISOCHRON_SOURCE_DIR) + "/samples/quickstart.isograph.json");
    CHECK(findLocalizationOutputs(quickstart).empty());
}

TEST_CASE("audio of the continuous stream in blocks: a sound's range is joined across blocks", "[ui][localization][audio]") {
    EventAudio audio;
    // Blocks of 480 samples of two mics; mic m's sample i has the value m * 100000 + i.
    for (std::int64_t block = 0; block < 10; ++block) {
        for (int mic = 0; mic < 2; ++mic) {
            std::vector<float> samples(480);
            for (int i = 0; i < 480; ++i) samples[static_cast<std::size_t>(i)] = static_cast<float>(mic * 100000 + block * 480 + i);
            audio.add(mic, block * 480, 48000, std::move(samples));
        }
    }
    // 0.015 .. 0.07 s = samples 720 .. 3360, across six blocks.
    const std::vector<float> mic1 = audio.extract(0.015, 0.07, 1);
    REQUIRE(mic1.size() == 2640);
    for (std::size_t i = 0; i < mic1.size(); ++i) REQUIRE(mic1[i] == static_cast<float>(100000 + 720 + i));
    const std::vector<float> mix = audio.extract(0.015, 0.07, -1);
    REQUIRE(mix.size() == 2640);
    CHECK(mix[100] == Approx(50000 + 820));
}

TEST_CASE("track history keeps the last two minutes of tracks and background", "[ui][localization]") {
    TrackHistory history;
    int changes = 0;
    QObject::connect(&history, &TrackHistory::changed, [&] { ++changes; });
    std::vector<TrackPoint> points;
    for (int i = 0; i < 200; ++i) points.push_back({i * 1.0, 90.0, 1, 0, false, true});
    history.append(points, {{10.0, 45.0, 0.8, 0, true}, {150.0, 45.0, 0.8, 0, true}});
    CHECK(changes == 1);
    REQUIRE(history.points().size() == 121);  // seconds 79 .. 199
    CHECK(history.points().front().seconds == 79);
    REQUIRE(history.background().size() == 1);
    CHECK(history.background().front().steady);
    history.append({}, {});
    CHECK(changes == 1);
    history.clear();
    CHECK(history.points().empty());
}

TEST_CASE("several arrays: one bearing input each, and the triangulated positions with the array poses", "[ui][localization]") {
    GraphSpec spec;
    for (const char* id : {"north", "south"}) spec.nodes.push_back({id, "spatial.aml_doa", {}, {}, nlohmann::json::object()});
    spec.nodes.push_back({"where", "spatial.triangulate", {{"array_poses", {0, 5, 0, 0, -5, 90}}}, {}, nlohmann::json::object()});
    spec.edges = {{"cut", "out*", "north", "in*"}, {"cut2", "out*", "south", "in*"},
                  {"north", "bearings", "where", "bearings0"}, {"south", "bearings", "where", "bearings1"}};
    const LocalizationOutputs outputs = findLocalizationOutputs(spec);
    REQUIRE(outputs.bearings.size() == 2);
    CHECK(outputs.bearings[1].from() == "south.bearings");
    CHECK(outputs.audio.size() == 1);  // the first array's mics only
    CHECK(outputs.triangulation == "where");
    CHECK(outputs.arrayPoses == std::vector<double>{0, 5, 0, 0, -5, 90});
    std::set<std::string> taken{"north", "south", "where", "cut", "cut2"};
    const LocalizationTapIds ids = addLocalizationTaps(spec, outputs, taken);
    CHECK(spec.findNode(ids.bearings)->params.at("inputs") == 2);
    CHECK(std::find(spec.edges.begin(), spec.edges.end(), EdgeSpec{"south", "bearings", ids.bearings, "in1"}) != spec.edges.end());
    CHECK(std::find(spec.edges.begin(), spec.edges.end(), EdgeSpec{"where", "positions", ids.positions, "in0"}) != spec.edges.end());
}

TEST_CASE("the fusion sample's arrays are parts: their exposed bearings and the joined triangulation are tapped", "[ui][localization]") {
    GraphSpec spec = loadGraphFile(std::string(ISOCHRON_SOURCE_DIR) + "/samples/fusion-two-arrays.isograph.json");
    const LocalizationOutputs outputs = findLocalizationOutputs(spec);
    REQUIRE(outputs.bearings.size() == 2);
    CHECK(outputs.bearings[0].from() == "a.bearings");
    CHECK(outputs.bearings[1].from() == "b.bearings");
    CHECK(outputs.triangulation == "locate");
    CHECK(outputs.arrayPoses.size() == 6);
    std::set<std::string> taken;
    for (const NodeSpec& node : spec.nodes) taken.insert(node.id);
    const LocalizationTapIds ids = addLocalizationTaps(spec, outputs, taken);
    CHECK(std::find(spec.edges.begin(), spec.edges.end(), EdgeSpec{"locate", "positions", ids.positions, "in0"}) != spec.edges.end());
    for (const GraphError& error : checkGraph(spec, builtinRegistry())) FAIL(error.toString());  // the taps on the parts' outputs are valid wiring
}

TEST_CASE("the feed turns tapped items into rows, positions and playable audio", "[ui][localization]") {
    const Timebase& timebase = Timebase::get(16000);
    auto bearings = std::make_shared<ItemTapChannel>(16), audio = std::make_shared<ItemTapChannel>(16), positions = std::make_shared<ItemTapChannel>(16);
    EventRecord* record = EventRecord::create("srp_phat");
    record->set("azimuth_deg", 81.1);
    record->set("elevation_deg", 12.0);
    record->set("confidence", 0.75);
    record->set("track_id", 3);
    REQUIRE(bearings->push(1, Item::event(record, {&timebase, 17920, 1072}, 0.6)));  // 1.12 .. 1.187 s, second array
    EventRecord* fix = EventRecord::create("triangulate");
    fix->set("x_m", 2.5);
    fix->set("y_m", -1.0);
    REQUIRE(positions->push(0, Item::event(fix, {&timebase, 17920, 1072}, 0)));
    for (int mic = 0; mic < 2; ++mic) {
        const std::vector<float> values(1072, 0.25f * static_cast<float>(mic + 1));
        REQUIRE(audio->push(mic, Item::signal(SigSeg<float>::copyOf(values, 17920, &timebase))));
    }
    auto tracks = std::make_shared<ItemTapChannel>(16), background = std::make_shared<ItemTapChannel>(16);
    EventRecord* track = EventRecord::create("track");
    track->set("track_id", 3);
    track->set("azimuth_deg", 80.0);
    track->set("background", 0);
    track->set("observed", 1);
    REQUIRE(tracks->push(0, Item::event(track, {&timebase, 17920, 512}, 1)));
    EventRecord* fan = EventRecord::create("background");
    fan->set("azimuth_deg", 200.0);
    fan->set("confidence", 0.6);
    fan->set("steady", 1);
    REQUIRE(background->push(0, Item::event(fan, {&timebase, 16000, 512}, 0.6)));
    LocalizationFeed feed;
    feed.attach({bearings, audio, positions, tracks, background});
    feed.drain(false);
    REQUIRE(feed.tracks()->points().size() == 1);
    CHECK(feed.tracks()->points()[0].seconds == Approx(1.12));
    CHECK(feed.tracks()->points()[0].azimuthDeg == 80.0);
    CHECK(feed.tracks()->points()[0].trackId == 3);
    CHECK(feed.tracks()->points()[0].observed);
    CHECK_FALSE(feed.tracks()->points()[0].background);
    REQUIRE(feed.tracks()->background().size() == 1);
    CHECK(feed.tracks()->background()[0].azimuthDeg == 200.0);
    CHECK(feed.tracks()->background()[0].steady);
    const BearingEventModel& events = *feed.events();
    REQUIRE(events.rowCount() == 1);
    CHECK(events.at(0).startSeconds == Approx(1.12));
    CHECK(events.at(0).endSeconds == Approx(1.187));
    CHECK(events.at(0).azimuthDeg == 81.1);
    CHECK(events.at(0).elevationDeg == 12.0);
    CHECK(events.at(0).confidence == 0.75);
    CHECK(events.at(0).trackId == 3);
    CHECK(events.at(0).array == 1);
    REQUIRE(feed.positions().size() == 1);
    CHECK(feed.positions()[0].xMetres == 2.5);
    CHECK(feed.positions()[0].yMetres == -1.0);
    CHECK(feed.mics() == 2);
    double rate = 0;
    const std::vector<float> mix = feed.clipOf(0, -1, rate);
    CHECK(rate == 16000);
    REQUIRE(mix.size() == 1072);
    CHECK(mix.front() == Approx(0.375));
    CHECK(feed.clipOf(0, 1, rate).back() == 0.5f);
}
