// ArchiveStore against a real SQLite file: pieces come back exactly as stored, clipped to the asked
// interval, with every stretch not stored reported as a gap; committed data is visible to a second
// reader while the writer goes on; mismatched streams and missing files are refused by name.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "engine/archive/archive_store.h"

using namespace isochron;

namespace {

/// A fresh folder for one test's archive, removed afterwards.
struct ArchiveFolder {
    std::filesystem::path path;
    ArchiveFolder() {
        std::string pattern = (std::filesystem::temp_directory_path() / "isochron-archive-XXXXXX").string();
        REQUIRE(mkdtemp(pattern.data()) != nullptr);
        path = pattern;
    }
    ~ArchiveFolder() { std::filesystem::remove_all(path); }
    std::string file(const std::string& name) const { return (path / name).string(); }
};

ArchivedStreamInfo signalInfo(const std::string& name, int channels) {
    ArchivedStreamInfo info;
    info.name = name;
    info.rateHz = 8000;
    info.zeroTimeNs = 123456789;
    info.clock = "device:archive-test";
    info.channels = channels;
    info.units = "Pa";
    info.node = "rec";
    return info;
}

/// Random samples for the stored pieces, so a misplaced offset cannot match by accident.
std::vector<float> randomSamples(std::size_t count, std::mt19937& random) {
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> samples(count);
    for (float& sample : samples) sample = value(random);
    return samples;
}

}  // namespace

TEST_CASE("ArchiveStore returns stored pieces clipped to [l, h) and reports what is missing as gaps", "[archive]") {
    ArchiveFolder folder;
    std::mt19937 random(13);
    // Channel 0 holds [0, 100), [100, 250), [400, 500): a gap [250, 400).
    const std::vector<float> all = randomSamples(500, random);
    {
        ArchiveStore store(folder.file("a.sqlite"), ArchiveAccess::Record);
        const std::int64_t id = store.openStream(signalInfo("mic", 1));
        store.appendSamples(id, 0, 0, std::span(all).subspan(0, 100));
        store.appendSamples(id, 0, 100, std::span(all).subspan(100, 150));
        store.appendSamples(id, 0, 400, std::span(all).subspan(400, 100));
        store.commit();
    }
    ArchiveStore store(folder.file("a.sqlite"), ArchiveAccess::Read);
    const std::vector<ArchivedPiece> pieces = store.get("mic", 0, 50, 450);
    REQUIRE(pieces.size() == 4);
    const std::vector<std::pair<std::int64_t, std::int64_t>> expected = {{50, 100}, {100, 250}, {250, 400}, {400, 450}};
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        INFO("piece " << i);
        CHECK(pieces[i].start == expected[i].first);
        CHECK(pieces[i].end() == expected[i].second);
        CHECK(pieces[i].isGap() == (i == 2));
        if (pieces[i].isGap()) continue;
        CHECK(pieces[i].samples.startIndex() == pieces[i].start);
        CHECK(pieces[i].samples.timebase() == &Timebase::get(8000, 123456789, Clock::named("device:archive-test")));
        const std::span<const float> got = pieces[i].samples.materialize();
        CHECK(std::equal(got.begin(), got.end(), all.begin() + pieces[i].start, all.begin() + pieces[i].end()));
    }
    SECTION("an interval before, between or after the stored pieces is one gap") {
        for (auto [l, h] : {std::pair<std::int64_t, std::int64_t>{-30, 0}, {260, 390}, {500, 800}}) {
            const std::vector<ArchivedPiece> gap = store.get("mic", 0, l, h);
            REQUIRE(gap.size() == 1);
            CHECK(gap[0].isGap());
            CHECK(gap[0].start == l);
            CHECK(gap[0].end() == h);
        }
    }
    SECTION("where the stored data ends and where it resumes") {
        CHECK(store.storedEnd("mic", 0) == 500);
        CHECK(store.nextStoredStart("mic", 0, 260) == 400);
        CHECK(store.nextStoredStart("mic", 0, 120) == 120);
        CHECK_FALSE(store.nextStoredStart("mic", 0, 500).has_value());
    }
    SECTION("metadata comes back as recorded") {
        const std::optional<ArchivedStreamInfo> info = store.stream("mic");
        REQUIRE(info.has_value());
        CHECK(info->units == "Pa");
        CHECK(info->node == "rec");
        CHECK(info->channels == 1);
        CHECK(info->sampleType == "f32");
        CHECK(store.streams().size() == 1);
    }
}

TEST_CASE("ArchiveStore readers see committed data while the writer keeps its transaction open", "[archive]") {
    ArchiveFolder folder;
    ArchiveStore writer(folder.file("live.sqlite"), ArchiveAccess::Record);
    const std::int64_t id = writer.openStream(signalInfo("live", 1));
    const std::vector<float> first(80, 0.25f), second(40, -0.5f);
    writer.appendSamples(id, 0, 0, first);
    writer.commit();
    writer.appendSamples(id, 0, 80, second);  // not committed yet

    ArchiveStore reader(folder.file("live.sqlite"), ArchiveAccess::Read);
    std::vector<ArchivedPiece> pieces = reader.get("live", 0, 0, 120);
    REQUIRE(pieces.size() == 2);
    CHECK_FALSE(pieces[0].isGap());
    CHECK(pieces[0].end() == 80);
    CHECK(pieces[1].isGap());

    writer.commit();
    pieces = reader.get("live", 0, 0, 120);
    REQUIRE(pieces.size() == 2);
    CHECK_FALSE(pieces[1].isGap());
    CHECK(pieces[1].samples.at(0) == -0.5f);
}

TEST_CASE("ArchiveStore keeps scalar and event items as JSON rows in start order", "[archive]") {
    ArchiveFolder folder;
    ArchiveStore store(folder.file("items.sqlite"), ArchiveAccess::Record);
    ArchivedStreamInfo info = signalInfo("detections", 1);
    info.kind = ArchivedStreamInfo::Kind::Items;
    info.sampleType = "json";
    const std::int64_t id = store.openStream(info);
    store.appendItem(id, 30, 10, R"({"kind":"scalar","value":2})");
    store.appendItem(id, 10, 5, R"({"kind":"scalar","value":1})");
    store.appendItem(id, 90, 1, R"({"kind":"scalar","value":3})");
    store.commit();
    const std::vector<ArchivedItem> items = store.getItems("detections", 0, 90);
    REQUIRE(items.size() == 2);
    CHECK(items[0].start == 10);
    CHECK(items[0].json == R"({"kind":"scalar","value":1})");
    CHECK(items[1].start == 30);
    CHECK(items[1].length == 10);
    CHECK(store.storedEnd("detections") == 91);
}

TEST_CASE("ArchiveStore refuses a missing file, a non-archive and a stream recorded differently, naming them", "[archive]") {
    ArchiveFolder folder;
    const std::string missing = folder.file("missing.sqlite");
    CHECK_THROWS_WITH(ArchiveStore(missing, ArchiveAccess::Read), Catch::Contains(missing));
    CHECK_FALSE(std::filesystem::exists(missing));

    const std::string text = folder.file("notes.txt");
    std::ofstream(text) << "not an archive\n";
    CHECK_THROWS_WITH(ArchiveStore(text, ArchiveAccess::Read), Catch::Contains(text));

    const std::string unwritable = folder.file("no-such-folder/a.sqlite");
    CHECK_THROWS_WITH(ArchiveStore(unwritable, ArchiveAccess::Record), Catch::Contains("cannot open archive '" + unwritable + "'"));

    const std::string path = folder.file("a.sqlite");
    ArchiveStore store(path, ArchiveAccess::Record);
    store.openStream(signalInfo("mic", 2));
    CHECK_THROWS_WITH(store.openStream(signalInfo("mic", 3)), Catch::Contains("'mic'") && Catch::Contains(path) && Catch::Contains("3 channel(s)"));
    CHECK_THROWS_WITH(store.get("nothing", 0, 0, 10), Catch::Contains("no stream 'nothing'"));
    CHECK_THROWS_WITH(store.get("mic", 2, 0, 10), Catch::Contains("no channel 2"));
}
