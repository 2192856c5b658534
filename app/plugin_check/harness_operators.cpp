#include "app/plugin_check/harness_operators.h"

#include "engine/operators/operator.h"
#include "tests/allocation/counting_allocator.h"

namespace isochron::check {
namespace {

constexpr std::uint64_t kSourceWarmUpItems = 64;

// FNV-1a over a signal item's samples (0 for other items): equal before and after a hook unless
// the hook wrote into them, which the ABI forbids (and a sandbox punishes with a crash).
std::uint64_t samplesChecksum(const Item& item) {
    std::uint64_t hash = 14695981039346656037ull;
    if (item.kind() != ItemKind::Signal) return 0;
    const std::size_t elementSize = sampleSize(item.segment().sampleType());
    item.segment().forEachRun([&](const std::byte* data, std::int64_t count) {
        for (std::size_t i = 0; i < static_cast<std::size_t>(count) * elementSize; ++i) hash = (hash ^ static_cast<std::uint8_t>(data[i])) * 1099511628211ull;
    });
    return hash;
}

class Feed final : public Operator {
protected:
    void onActivate() override { script_ = &harnessState().feeds.at(static_cast<std::size_t>(params().getInt("slot"))); }

    SourceStatus onProduce() override {
        const std::size_t count = script_->batches.size();
        if (next_ >= count) return SourceStatus::finished();
        AllocationWindow& window = harnessState().allocations;
        const bool measuring = window.enabled && params().getInt("slot") == 0;
        if (measuring && next_ == count / 2) {
            window.opened = true;
            window.atStart = test::allocationCount();
        }
        for (Item& item : script_->batches[next_]) {
            // The df scheduler runs the operator under test inside emit: compare its input after.
            const Item fed = item;
            const std::uint64_t before = samplesChecksum(fed);
            emit(0, std::move(item));
            if (samplesChecksum(fed) != before && harnessState().inputWrites.empty()) {
                harnessState().inputWrites.push_back("its process hook wrote into the input segment it was given (samples " +
                                                     std::to_string(fed.segment().startIndex()) + " to " + std::to_string(fed.segment().endIndex()) +
                                                     "); inputs are read-only: allocate<T>() an output segment instead (a sandboxed node crashes on such a write)");
            }
        }
        emitProgress(script_->progressAfter[next_]);
        ++next_;
        if (measuring && window.opened && !window.closed) {
            ++window.steps;
            if (next_ == count) {
                window.atEnd = test::allocationCount();
                window.closed = true;
            }
        }
        return next_ >= count ? SourceStatus::finished() : SourceStatus::produced();
    }

private:
    FeedScript* script_ = nullptr;
    std::size_t next_ = 0;
};

class Capture final : public Operator {
protected:
    void onActivate() override {
        HarnessState& state = harnessState();
        const auto slot = static_cast<std::size_t>(params().getInt("slot"));
        if (state.captured.size() <= slot) state.captured.resize(slot + 1);
        captured_ = &state.captured[slot];
        measuresSource_ = params().getBool("measures_source");
    }

    void process(int, Item&& item) override {
        AllocationWindow& window = harnessState().allocations;
        if (measuresSource_ && window.enabled) {
            // A source under test: the window opens after a warm-up and ends at its last item.
            const std::uint64_t now = test::allocationCount();
            if (++seen_ == kSourceWarmUpItems) {
                window.opened = true;
                window.atStart = now;
            } else if (window.opened) {
                window.atEnd = now;
                window.closed = true;
                ++window.steps;
            }
        }
        if (harnessState().keepOutputs) captured_->push_back(std::move(item));
    }

private:
    std::vector<Item>* captured_ = nullptr;
    bool measuresSource_ = false;
    std::uint64_t seen_ = 0;
};

}  // namespace

HarnessState& harnessState() {
    static HarnessState state;
    return state;
}

void registerHarnessOperators(OperatorRegistry& registry) {
    OperatorDescriptor feed;
    feed.typeName = "check.feed";
    feed.category = "check";
    feed.summary = "replays prepared batches (isochron-plugin-check)";
    feed.outputs = {PortSpec{"out", PortType::any(), "the prepared items", false, "", "", "type"}};
    feed.params = {ParamSpec{"slot", ParamKind::Int, std::int64_t{0}, 0.0, 1e6, "", "which prepared script"},
                   ParamSpec{"type", ParamKind::String, std::string("signal<f32>"), {}, {}, "", "the items' port type"}};
    feed.create = [] { return std::make_unique<Feed>(); };
    registry.add(std::move(feed));

    OperatorDescriptor capture;
    capture.typeName = "check.capture";
    capture.category = "check";
    capture.summary = "keeps what arrives (isochron-plugin-check)";
    capture.inputs = {PortSpec{"in", PortType::any(), "items of any kind"}};
    capture.params = {ParamSpec{"slot", ParamKind::Int, std::int64_t{0}, 0.0, 1e6, "", "where the items go"},
                      ParamSpec{"measures_source", ParamKind::Bool, false, {}, {}, "", "count allocations of a source under test"}};
    capture.create = [] { return std::make_unique<Capture>(); };
    registry.add(std::move(capture));
}

}  // namespace isochron::check
