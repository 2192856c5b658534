// ArrayEventOperator: the shared front end of the spatial operators.
//
// Each input `in<m>` carries mic m's signal for a series of events, one item per event, as
// segments.sync emits them. An event is complete once every input has delivered its next item;
// only each input's own order is used (never the order inputs happened to arrive in), so the output
// is the same under every scheduler. The items of one event must share one timebase and one sample
// range: if their ranges differ the common part is analysed (with a warning), if nothing is common
// or the timebases differ the event is dropped (with a warning).
//
// The operator copies the event's samples into per-channel buffers (contiguous, whatever the
// segments' pieces) and hands them to analyzeEvent(). Buffers grow to the longest event seen: events
// are rare, so that allocation (and the small allocations of an event record) is accepted; equal
// or shorter events allocate nothing.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/spatial/array_geometry.h"

namespace isochron {

/// Base of operators that analyse one multichannel event at a time. [engine thread]
class ArrayEventOperator : public Operator {
protected:
    /// Reads the geometry (when `geometryRequired` or given) and checks it against the inputs, then
    /// calls onArrayActivate(). Throws OperatorError naming the geometry on a mismatch.
    void onActivate() final;
    void process(int inputPort, Item&& item) final;
    /// Promises the start of the oldest event still waiting for some input.
    TimeNs onProgress(TimeNs inputProgress) final;
    /// Warns about events that never arrived on every input.
    void onFinish() final;

    /// Whether the operator needs a geometry (else one is optional). [called in onActivate]
    virtual bool geometryRequired() const = 0;
    /// Prepare buffers and plans once the inputs and geometry are known.
    virtual void onArrayActivate() = 0;
    /// One complete event: `channels[m]` holds mic m's samples of `range` (all the same length).
    /// May emit. [allocation only for events longer than any before]
    virtual void analyzeEvent(const SampleRange& range, std::span<const std::span<const float>> channels) = 0;

    /// The array's geometry, if one was given (always, when geometryRequired()).
    const std::optional<ArrayGeometry>& geometry() const { return geometry_; }
    /// Number of mic channels (inputs).
    int channelCount() const { return inputCount(); }
    /// Speed of sound in m/s (parameter `speed_of_sound`).
    double speedOfSound() const { return speedOfSound_; }

private:
    /// What to do with the front item of every input: analyse `range` (if any), then drop all
    /// fronts, or only those that end before another front starts.
    struct FrontMatch {
        std::optional<SampleRange> range;
        bool dropAll = true;
    };

    void analyzeReadyEvents();
    /// Compares the inputs' front items (warning when they differ).
    FrontMatch matchFronts();

    std::optional<ArrayGeometry> geometry_;
    double speedOfSound_ = kSpeedOfSoundMetresPerSecond;
    std::vector<std::vector<Item>> pending_;         // [input][k]: items not yet part of an analysed event
    std::vector<std::vector<float>> channelBuffers_;  // [mic]: the current event's samples
    std::vector<std::span<const float>> channelViews_;
};

/// The parameters every spatial operator shares: `channels` (at most `maxChannels`), `geometry`,
/// `speed_of_sound`. `geometryDoc` says what the geometry is used for. [setup]
std::vector<ParamSpec> arrayParameters(int maxChannels, const std::string& geometryDoc);

/// The repeated input `in` of signal<f32>, one per mic, counted by `channels`.
PortSpec arrayInputs();

}  // namespace isochron
