// io.archive_source replays event and scalar streams recorded by io.archive_sink: the same items
// (label, score, attributes, or value; the same sample range on the same timebase), in start order,
// as fast as possible and at the recorded pace, whole or an interval. The reference is what the feed
// sent, kept apart from the items that went through the graph.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <map>
#include <random>

#include "engine/items/event_record.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

/// What the feed sent, as plain values.
struct SentItem {
    std::int64_t start = 0;
    std::int64_t length = 0;
    std::string label;  // events only
    double value = 0;   // score or scalar value
    std::map<std::string, double> attributes;
};

const Timebase& eventTimebase() { return Timebase::get(16000, 777000, Clock::named("device:item-replay-test")); }

/// Same number, NaN equal to NaN (the archive stores a NaN as JSON null).
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

/// Records `script` (of items of port type `type`) into `path` as stream "items".
void record(const std::string& path, const FeedScript& script, const std::string& type) {
    feedScripts()["items"] = script;
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "items"}, {"type", type}}}},
          {{"id", "rec"}, {"type", "io.archive_sink"}, {"params", {{"path", path}, {"stream", "items"}, {"commit_s", 0.05}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "rec.in0"}}}},
    };
    const RunOutcome outcome = runGraph(graph.dump());
    feedScripts().clear();
    REQUIRE(outcome.failures.empty());
}

/// Checks the collected `items` are `sent[first, last)` field by field, in order.
void checkReplayed(const std::vector<Item>& items, const std::vector<SentItem>& sent, std::size_t first, std::size_t last, ItemKind kind) {
    REQUIRE(items.size() == last - first);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Item& item = items[i];
        const SentItem& expected = sent[first + i];
        INFO("item " << first + i);
        REQUIRE(item.kind() == kind);
        CHECK(item.range().timebase == &eventTimebase());
        CHECK(item.range().start == expected.start);
        CHECK(item.range().length == expected.length);
        CHECK(same(item.value(), expected.value));
        if (kind != ItemKind::Event) continue;
        CHECK(std::string(item.event()->label()) == expected.label);
        std::map<std::string, double> attributes;
        for (const EventAttribute& attribute : item.event()->attributes()) attributes[attribute.name] = attribute.value;
        REQUIRE(attributes.size() == expected.attributes.size());
        for (const auto& [name, value] : expected.attributes) {
            INFO("attribute " << name);
            REQUIRE(attributes.count(name) == 1);
            CHECK(same(attributes[name], value));
        }
    }
}

}  // namespace

TEST_CASE("io.archive_source replays recorded events field by field, in start order, flat out and paced", "[io][archive]") {
    std::mt19937 random(2613);
    std::uniform_int_distribution<std::int64_t> step(0, 400);  // 0: two events share a start
    std::uniform_int_distribution<std::int64_t> length(0, 800);
    std::uniform_real_distribution<double> number(-1000.0, 1000.0);
    std::uniform_int_distribution<int> coin(0, 5);
    const char* labels[] = {"clap", "voice", "door", "localization"};
    const char* names[] = {"azimuth_deg", "elevation_deg", "distance_m", "snr_db", "source_id"};
    std::vector<SentItem> sent;
    FeedScript script;
    std::int64_t start = 0;
    for (int i = 0; i < 300; ++i) {
        start += step(random);
        SentItem item{start, length(random), labels[coin(random) % 4], coin(random) == 0 ? std::nan("") : number(random), {}};
        for (const char* name : names) {
            if (coin(random) < 3) item.attributes[name] = coin(random) == 0 ? std::nan("") : number(random);
        }
        EventRecord* record = EventRecord::create(item.label);
        for (const auto& [name, value] : item.attributes) record->set(name, value);
        script.batches.push_back({{0, Item::event(record, SampleRange{&eventTimebase(), item.start, item.length}, item.value)}});
        sent.push_back(std::move(item));
    }
    TempDir dir;
    const std::string path = dir.file("events.sqlite");
    record(path, script, "event");

    SECTION("everything, as fast as possible") {
        REQUIRE(runGraph(sourceToCollect("io.archive_source", {{"path", path}, {"stream", "items"}}, 1, "replay")).failures.empty());
        checkReplayed(collections()["replay"].items[0], sent, 0, sent.size(), ItemKind::Event);
    }
    SECTION("an interval, at the recorded pace") {
        // Events 100 to 119 (their starts), about 0.1 s of the recording.
        const double rate = eventTimebase().rateHz();
        const double from = static_cast<double>(sent[100].start) / rate;
        const double duration = static_cast<double>(sent[120].start - sent[100].start) / rate;
        std::size_t first = 100;
        while (first > 0 && sent[first - 1].start == sent[100].start) --first;  // ties at the start come too
        std::size_t last = 120;
        while (last > 0 && sent[last - 1].start == sent[120].start) --last;  // ties at the end do not
        REQUIRE(runGraph(sourceToCollect("io.archive_source", {{"path", path}, {"stream", "items"}, {"from", from}, {"duration", duration}, {"pace", 1.0}},
                                         1, "replay"))
                    .failures.empty());
        checkReplayed(collections()["replay"].items[0], sent, first, last, ItemKind::Event);
    }
    collections().clear();
}

TEST_CASE("io.archive_source replays recorded scalars with their values and ranges", "[io][archive]") {
    std::vector<SentItem> sent;
    FeedScript script;
    for (int i = 0; i < 50; ++i) {
        SentItem item{160 * i, 160, "", i == 7 ? std::nan("") : 0.1 * i - 2.0, {}};
        script.batches.push_back({{0, Item::scalar(item.value, SampleRange{&eventTimebase(), item.start, item.length})}});
        sent.push_back(item);
    }
    TempDir dir;
    const std::string path = dir.file("scalars.sqlite");
    record(path, script, "scalar");
    REQUIRE(runGraph(sourceToCollect("io.archive_source", {{"path", path}, {"stream", "items"}, {"channels", 0}}, 1, "replay")).failures.empty());
    checkReplayed(collections()["replay"].items[0], sent, 0, sent.size(), ItemKind::Scalar);
    collections().clear();
    // Asked to replay the scalar stream as events, it refuses, naming what the stream holds.
    CHECK_THROWS_WITH(runGraph(sourceToCollect("io.archive_source", {{"path", path}, {"stream", "items"}, {"type", "event"}}, 1, "replay")),
                      Catch::Contains("replays as scalar, not event"));
}
