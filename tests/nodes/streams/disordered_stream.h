// Test streams that arrive out of order within a known bound, with the punctuation a source
// that knows that bound would send.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "engine/items/item.h"
#include "tests/support/test_operators.h"

namespace isochron::test {

/// One generated item: its time (ms on a 1 kHz timebase), id and value.
struct GeneratedItem {
    std::int64_t timeMs;
    int id;
    double value;
};

/// `count` items with times increasing by 0..`maxGapMs` from `startMs`; ids from `firstId`,
/// values uniform in [0, 100). [test helper]
inline std::vector<GeneratedItem> generateItems(std::mt19937& random, int count, std::int64_t startMs, std::int64_t maxGapMs, int firstId = 0) {
    std::uniform_int_distribution<std::int64_t> gap(0, maxGapMs);
    std::uniform_real_distribution<double> value(0, 100);
    std::vector<GeneratedItem> items;
    std::int64_t t = startMs;
    for (int i = 0; i < count; ++i) {
        t += gap(random);
        items.push_back({t, firstId + i, value(random)});
    }
    return items;
}

/// An event item for `g`, with attributes id, value and group (= id % groups), on `timebase`. [test helper]
inline Item eventItem(const GeneratedItem& g, const Timebase& timebase, int groups = 1) {
    EventRecord* record = EventRecord::create("e");
    record->set("id", g.id);
    record->set("value", g.value);
    record->set("group", g.id % groups);
    return Item::event(record, SampleRange{&timebase, g.timeMs, 1}, g.value);
}

/// The items delivered in order of arrival (time + a delay uniform in [0, boundMs)), each followed by
/// the progress a source knowing that bound promises: no later arrival is older than arrival - bound.
/// A batch per item, so schedulers can interleave streams anywhere. [test helper]
inline FeedScript disorderedFeed(const std::vector<GeneratedItem>& items, std::int64_t boundMs, std::mt19937& random,
                                 const Timebase& timebase, int groups = 1) {
    std::uniform_int_distribution<std::int64_t> delay(0, std::max<std::int64_t>(boundMs - 1, 0));
    std::vector<std::pair<std::int64_t, const GeneratedItem*>> arrivals;
    for (const auto& g : items) arrivals.push_back({g.timeMs + delay(random), &g});
    std::stable_sort(arrivals.begin(), arrivals.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    FeedScript script;
    for (const auto& [arrival, g] : arrivals) {
        script.batches.push_back({{0, eventItem(*g, timebase, groups)}, {0, Item::progress(timebase.timeOf(arrival - boundMs + 1))}});
    }
    return script;
}

/// The id attribute of an event item. [test helper]
inline int idOf(const Item& item) { return static_cast<int>(*item.event()->get("id")); }

}  // namespace isochron::test
