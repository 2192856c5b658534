#include "nodes/spatial/triangulate.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/spatial/bearing_intersection.h"

namespace isochron {
namespace {

constexpr std::size_t kPendingReserved = 8;

/// Least-squares intersection of the bearing lines of one sound seen by every array.
///
/// Each input carries one array's bearings in time order. Bearings of one sound are matched by time:
/// when every input has a bearing waiting, the earliest ones are one sound if their ranges overlap
/// once widened by max_skew (the extra travel time between arrays); otherwise the bearing that ends
/// first cannot match anything and is dropped. The position minimises the confidence-weighted sum of
/// squared distances to the bearing lines, x = (sum w n n^T)^-1 sum w n n^T a, n the lines' normals.
class Triangulate final : public Operator {
public:
    HeldState heldState() const override {
        HeldState state = peak_;
        state.items = 0;
        for (const auto& queue : pending_) state.items += queue.size();
        state.bytes = state.items * sizeof(Item);
        return state;
    }

protected:
    void onActivate() override {
        if (inputCount() < 2) throw OperatorError("triangulation needs bearings from at least 2 arrays");
        try {
            poses_ = arrayPosesFrom(params().getRealList("array_poses"), inputCount());
        } catch (const std::invalid_argument& e) {
            throw OperatorError(e.what());
        }
        bearings_.resize(poses_.size());
        maxSkewSeconds_ = params().getReal("max_skew");
        pending_.assign(static_cast<std::size_t>(inputCount()), {});
        for (auto& queue : pending_) queue.reserve(kPendingReserved);
    }

    void process(int inputPort, Item&& item) override {
        pending_[static_cast<std::size_t>(inputPort)].push_back(std::move(item));
        const HeldState now = heldState();
        peak_.peakItems = std::max(peak_.peakItems, now.items);
        peak_.peakBytes = std::max(peak_.peakBytes, now.bytes);
        while (std::all_of(pending_.begin(), pending_.end(), [](const auto& queue) { return !queue.empty(); })) {
            matchFronts();
        }
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        TimeNs promise = inputProgress;
        if (!pending_.front().empty()) promise = std::min(promise, pending_.front().front().range().startTime());
        return promise;
    }

private:
    void matchFronts() {
        const TimeNs skew = static_cast<TimeNs>(maxSkewSeconds_ * 1e9);
        TimeNs latestStart = pending_.front().front().range().startTime();
        TimeNs earliestEnd = pending_.front().front().range().endTime();
        for (const auto& queue : pending_) {
            latestStart = std::max(latestStart, queue.front().range().startTime());
            earliestEnd = std::min(earliestEnd, queue.front().range().endTime());
        }
        if (latestStart - earliestEnd > skew) {
            for (auto& queue : pending_) {
                if (queue.front().range().endTime() == earliestEnd) queue.erase(queue.begin());
            }
            return;
        }
        locate();
        for (auto& queue : pending_) queue.erase(queue.begin());
    }

    void locate() {
        for (std::size_t i = 0; i < pending_.size(); ++i) {
            const EventRecord& bearing = *pending_[i].front().event();
            bearings_[i] = {bearing.get("azimuth_deg").value_or(std::nan("")), bearing.get("confidence").value_or(1.0)};
        }
        const BearingIntersection meet = intersectBearings(poses_, bearings_);
        const Item& reference = pending_.front().front();
        if (!meet.position) {
            warn("bearings at " + std::to_string(reference.range().start) + ": " + meet.problem + ": no position");
            return;
        }
        emit(0, Item::event(positionRecord(meet), reference.range(), meanBearingWeight(bearings_)));
    }

    std::vector<ArrayPose> poses_;
    std::vector<Bearing> bearings_;  // the bearings being intersected, one per array
    double maxSkewSeconds_ = 0.1;
    std::vector<std::vector<Item>> pending_;  // [array][k]: bearings not yet matched
    HeldState peak_;                          // the most bearings held at once
};

}  // namespace

OperatorDescriptor triangulateDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spatial.triangulate";
    d.category = "spatial";
    d.summary = "Position of a sound from the bearings of two or more arrays at known places (least squares)";
    d.documentation =
        "Input i takes the bearing events (azimuth_deg, optional confidence) of array i, whose pose on a 2-D map is "
        "array_poses[3i .. 3i+2] = x (m), y (m), heading (deg, the map direction of the array's azimuth 0, "
        "counter-clockwise). Bearings of one sound are matched by time: the oldest waiting bearing of every input, "
        "when their ranges overlap once widened by max_skew; otherwise the one that ends first is dropped. The "
        "position is the point nearest to every bearing line in the confidence-weighted least-squares sense. "
        "Output event 'position' over the first array's range: x_m, y_m, residual_m (RMS distance from the "
        "lines); score = mean confidence. Nearly parallel bearings, or lines that meet behind an array, give no "
        "position (a warning). Ranges are compared as times, so the arrays' timebases must share one clock.";
    d.inputs = {PortSpec{"bearings", PortType::event(), "bearings of array i (azimuth_deg, confidence)", false, "arrays"}};
    d.outputs = {PortSpec{"positions", PortType::event(), "one position per sound seen by every array"}};
    d.params = {
        ParamSpec{"arrays", ParamKind::Int, std::int64_t{2}, 0.0, 32.0, "",
                  "number of arrays, inputs bearings0.. (0 = the size of the bus feeding them)"},
        ParamSpec{"array_poses", ParamKind::RealList, std::vector<double>{}, {}, {}, "m, m, deg",
                  "x, y, heading of each array on the map, three numbers per array"},
        ParamSpec{"max_skew", ParamKind::Real, 0.1, 0.0, 60.0, "s",
                  "largest gap between the ranges of one sound at different arrays (travel time between them)"},
    };
    d.create = [] { return std::make_unique<Triangulate>(); };
    return d;
}

}  // namespace isochron
