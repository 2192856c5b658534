#include "nodes/segments/rewindow.h"

#include <algorithm>
#include <optional>
#include <variant>

#include "engine/operators/operator.h"
#include "nodes/segments/sample_type_dispatch.h"
#include "nodes/segments/windower.h"

namespace isochron {
namespace {

/// Emits every complete grid window of its input as a subseg of the buffered segments.
class Rewindow final : public Operator {
protected:
    void onActivate() override {
        windower_.emplace(makeForPort<Windower>(inputPort(0), params().getInt("window"), params().getInt("hop")));
    }

    void process(int, Item&& item) override {
        std::visit(
            [&](auto& windower) {
                using Sample = typename std::decay_t<decltype(windower)>::Sample;
                windower.push(item.takeSignal<Sample>(),
                              [&](SigSeg<Sample>&& window) { emit(0, Item::signal(std::move(window))); });
            },
            *windower_);
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        // Held samples come out later, in windows that start at the oldest of them.
        return std::visit(
            [&](const auto& windower) {
                const std::optional<std::int64_t> oldest = windower.oldestHeldIndex();
                return oldest ? std::min(inputProgress, windower.timebase()->timeOf(*oldest)) : inputProgress;
            },
            *windower_);
    }

    void onFinish() override {
        // A partial window at the end is not a window: release it.
        std::visit([](auto& windower) { windower.reset(); }, *windower_);
    }

private:
    std::optional<PerSampleType<Windower>> windower_;
};

}  // namespace

OperatorDescriptor rewindowDescriptor() {
    OperatorDescriptor d;
    d.typeName = "segments.rewindow";
    d.category = "segments";
    d.summary = "Re-cuts a signal into fixed windows on a hop grid, sharing its storage";
    d.documentation =
        "Windows of `window` samples start at first_index + k * hop (hop < window overlaps, hop > window "
        "skips). No sample is copied: each window is a view of the incoming segments, and an incoming "
        "segment that is exactly the next window is passed on as is. Lost samples (a jump in the input's "
        "start index) drop the windows that would span the jump; windowing resumes on the grid after it. "
        "A partial window at the end of the stream is dropped.";
    d.inputs = {PortSpec{"in", PortType::anySignal(), "signal of any sample type"}};
    d.outputs = {PortSpec{"out", PortType::anySignal(), "one segment per window", false, "", "in"}};
    d.params = {
        ParamSpec{"window", ParamKind::Int, std::int64_t{4096}, 1.0, 1073741824.0, "samples", "length of each window"},
        ParamSpec{"hop", ParamKind::Int, std::int64_t{4096}, 1.0, 1073741824.0, "samples",
                  "distance between the starts of consecutive windows"},
    };
    d.create = [] { return std::make_unique<Rewindow>(); };
    return d;
}

}  // namespace isochron
