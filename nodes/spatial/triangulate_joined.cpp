#include "nodes/spatial/triangulate_joined.h"

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/spatial/bearing_intersection.h"

namespace isochron {
namespace {

/// The out-of-order half of multi-array fusion: relational.band_join has already matched the
/// bearings of one sound (each array's attributes under its own prefix); this intersects them.
/// Stateless, so it takes events in any order and passes progress straight on. Positions carry
/// x_m, y_m, residual_m, and the pair's dt_s when the join gave one.
class TriangulateJoined final : public Operator {
protected:
    void onActivate() override {
        std::istringstream list(params().getString("prefixes"));
        std::string prefix;
        names_.clear();
        while (std::getline(list, prefix, ',')) names_.push_back({prefix + "azimuth_deg", prefix + "confidence"});
        if (names_.size() < 2) throw OperatorError("prefixes names " + std::to_string(names_.size()) + " array(s); triangulation needs at least 2 (e.g. a_,b_)");
        try {
            poses_ = arrayPosesFrom(params().getRealList("array_poses"), static_cast<int>(names_.size()));
        } catch (const std::invalid_argument& e) {
            throw OperatorError(e.what());
        }
        bearings_.resize(names_.size());
    }

    void process(int, Item&& item) override {
        const EventRecord& joined = *item.event();
        for (std::size_t i = 0; i < names_.size(); ++i) {
            const auto azimuth = joined.get(names_[i].azimuth);
            if (!azimuth) return warnMissing(names_[i].azimuth);
            bearings_[i] = {*azimuth, joined.get(names_[i].confidence).value_or(1.0)};
        }
        const BearingIntersection meet = intersectBearings(poses_, bearings_);
        if (!meet.position) {
            warn("event at " + std::to_string(item.range().start) + ": " + meet.problem + ": no position");
            return;
        }
        EventRecord* record = positionRecord(meet);
        if (const auto dt = joined.get("dt_s")) record->set("dt_s", *dt);
        emit(0, Item::event(record, item.range(), meanBearingWeight(bearings_)));
    }

private:
    void warnMissing(const std::string& name) {
        if (missing_++ == 0) warn("an event has no '" + name + "': skipped (check prefixes)");
    }

    struct Names {
        std::string azimuth, confidence;
    };
    std::vector<Names> names_;
    std::vector<ArrayPose> poses_;
    std::vector<Bearing> bearings_;
    std::uint64_t missing_ = 0;
};

}  // namespace

OperatorDescriptor triangulateJoinedDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spatial.triangulate_joined";
    d.category = "spatial";
    d.summary = "Position of a sound from one event holding several arrays' bearings (e.g. a band join's pairs)";
    d.documentation =
        "For multi-array fusion with out-of-order links: relational.band_join pairs the bearings of one sound from "
        "two arrays (chain joins for more), each array's attributes under its prefix. Array i's bearing is "
        "<prefix_i>azimuth_deg (and <prefix_i>confidence as its weight); its pose is array_poses[3i .. 3i+2] = x (m), "
        "y (m), heading (deg). Output 'position' events: x_m, y_m, residual_m (and the join's dt_s); score = mean "
        "confidence. Stateless: any arrival order, progress passed straight on.";
    d.inputs = {PortSpec{"in", PortType::event(), "joined events with every array's bearing"}};
    d.outputs = {PortSpec{"positions", PortType::event(), "one position per joined event whose bearings meet"}};
    d.params = {
        ParamSpec{"prefixes", ParamKind::String, std::string("left_,right_"), {}, {}, "", "comma-separated attribute prefixes, one per array"},
        ParamSpec{"array_poses", ParamKind::RealList, std::vector<double>{}, {}, {}, "m, m, deg", "x, y, heading of each array on the map, three numbers per array"},
    };
    d.create = [] { return std::make_unique<TriangulateJoined>(); };
    return d;
}

}  // namespace isochron
