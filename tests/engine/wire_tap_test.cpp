// Wire taps (the editor's probes) under every scheduler: a tap sees exactly what its port sends, in
// order, without changing any output; attached or detached while the graph runs, it sees one
// unbroken stretch of the port's items.
#include <catch2/catch.hpp>

#include <functional>

#include "engine/graph/graph_file.h"
#include "engine/runtime/wire_tap.h"
#include "tests/engine/fan_out_fan_in_graph.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

const Timebase& tb() { return Timebase::get(100); }

/// Scalars 0, 1, ... `count` - 1 at increasing positions, `perBatch` per produce() call, with
/// progress after each batch.
FeedScript countingScript(int count, int perBatch) {
    FeedScript script;
    for (int i = 0; i < count;) {
        std::vector<std::pair<int, Item>> batch;
        for (int k = 0; k < perBatch && i < count; ++k, ++i) batch.push_back({0, Item::scalar(i, SampleRange{&tb(), 10 * i, 5})});
        batch.push_back({0, Item::progress(tb().timeOf(10 * i))});
        script.batches.push_back(std::move(batch));
    }
    return script;
}

/// Records the values of what it sees; may run an action on the n-th item (from the engine thread).
class RecordingTap final : public WireTap {
public:
    explicit RecordingTap(std::size_t capacity) { values.reserve(capacity); }
    void observe(const Item& item) noexcept override {
        values.push_back(item.value());
        if (onItem) onItem(values.size());
    }
    std::vector<double> values;
    std::function<void(std::size_t)> onItem;
};

constexpr int kCount = 60;

/// Fresh scripts for both sources of the graph and no collections yet.
void prepareFeeds() {
    feedScripts()["a"] = countingScript(kCount, 3);
    feedScripts()["b"] = countingScript(kCount, 2);
    collections().clear();
}

/// The values x3 sent, as its collector got them.
std::vector<double> sentByX3() {
    std::vector<double> values;
    for (const Item& item : collections()["tap"].items[0]) values.push_back(item.value());
    return values;
}

}  // namespace

TEST_CASE("a tap sees every data item its port sends, in order, and changes no output", "[scheduler][tap]") {
    const ValidatedGraph graph = validateGraph(parseGraph(kFanOutFanInGraph), testRegistry());
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        prepareFeeds();
        Engine engine(graph, parseSchedulerText(scheduler));
        auto onFanOut = std::make_shared<RecordingTap>(kCount);
        auto onChain = std::make_shared<RecordingTap>(kCount);
        engine.setTap("x3", "out", onFanOut);
        engine.setTap("neg", "out", onChain);
        const RunOutcome outcome = engine.run();
        REQUIRE(outcome.completed);
        const std::vector<double> sent = sentByX3();
        REQUIRE(sent.size() == kCount);
        CHECK(onFanOut->values == sent);
        REQUIRE(onChain->values.size() == kCount);
        for (int i = 0; i < kCount; ++i) CHECK(onChain->values[static_cast<std::size_t>(i)] == -i);
        CHECK(collections()["merged"].items[0].size() == 2 * kCount);
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("a tap attached and detached while the graph runs sees one unbroken stretch", "[scheduler][tap]") {
    const ValidatedGraph graph = validateGraph(parseGraph(kFanOutFanInGraph), testRegistry());
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        prepareFeeds();
        Engine engine(graph, parseSchedulerText(scheduler));
        // The source's own tap attaches the probe on x3 after its 20th item and detaches it after
        // its 40th, from inside the run, as the editor does from the ui thread at any moment.
        auto probe = std::make_shared<RecordingTap>(kCount);
        auto trigger = std::make_shared<RecordingTap>(kCount);
        trigger->onItem = [&](std::size_t n) {
            if (n == 20) engine.setTap("x3", "out", probe);
            if (n == 40) engine.setTap("x3", "out", nullptr);
        };
        engine.setTap("a", "out0", trigger);
        REQUIRE(engine.run().completed);
        const std::vector<double> sent = sentByX3();
        REQUIRE(sent.size() == kCount);
        // x3 sends item k only after the source sent item k: the probe starts at item 19 or later
        // and stops before the end; what it saw is a stretch of what x3 sent, without gaps.
        REQUIRE_FALSE(probe->values.empty());
        const auto first = static_cast<std::size_t>(probe->values.front() / 3);
        CHECK(first >= 19);
        REQUIRE(first + probe->values.size() <= sent.size());
        CHECK(std::equal(probe->values.begin(), probe->values.end(), sent.begin() + static_cast<std::ptrdiff_t>(first)));
        CHECK(probe->values.size() < kCount - 19);
        CHECK(probe.use_count() == 1);  // detached: the engine let go of it
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("a tap on a node or port the graph does not have is refused by name", "[tap]") {
    feedScripts()["a"] = countingScript(3, 1);
    feedScripts()["b"] = countingScript(3, 1);
    Engine engine(validateGraph(parseGraph(kFanOutFanInGraph), testRegistry()), parseSchedulerText("df"));
    auto tap = std::make_shared<RecordingTap>(4);
    CHECK_THROWS_WITH(engine.setTap("nope", "out", tap), Catch::Contains("no node named 'nope'"));
    CHECK_THROWS_WITH(engine.setTap("x3", "in", tap), Catch::Contains("node 'x3' has no output 'in'"));
    feedScripts().clear();
    collections().clear();
}
