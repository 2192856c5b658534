#include "ui/layout/label_placement.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>

namespace isochron::ui {

namespace {

constexpr int kFurthestLevel = 4;      // half label heights beyond the nearest places
constexpr double kCostPerLevel = 1e-3;  // only breaks ties between places that overlap alike

double overlapArea(const CanvasRect& a, const CanvasRect& b) {
    const double w = std::min(a.x + a.width, b.x + b.width) - std::max(a.x, b.x);
    const double h = std::min(a.y + a.height, b.y + b.height) - std::max(a.y, b.y);
    return w > 0 && h > 0 ? w * h : 0;
}

// Rectangles filed by the square cells of side `cell` they touch, so that what lies near a place is
// found by looking at a few cells instead of at every rectangle.
class RectGrid {
public:
    explicit RectGrid(double cell) : cell_(cell) {}

    void add(const CanvasRect& rect) {
        const auto index = static_cast<std::uint32_t>(rects_.size());
        rects_.push_back(rect);
        seen_.push_back(0);
        if (cellsOf(rect) > kMostCellsFiled) oversized_.push_back(index);  // looked at by every query
        else forCells(rect, [&](std::uint64_t key) { cells_[key].push_back(index); });
    }

    // The rectangles sharing area with `area`, in the order they were added (the sums of overlaps
    // then add up as a scan of every rectangle would); `examined` counts each one looked at.
    std::vector<CanvasRect> near(const CanvasRect& area, std::size_t& examined) {
        std::vector<CanvasRect> found;
        if (rects_.empty()) return found;
        if (cellsOf(area) > static_cast<double>(rects_.size())) {  // more cells than rectangles: scan them
            examined += rects_.size();
            for (const CanvasRect& r : rects_) if (overlapArea(area, r) > 0) found.push_back(r);
            return found;
        }
        ++query_;
        std::vector<std::uint32_t> indices;
        const auto look = [&](std::uint32_t index) {
            if (seen_[index] == query_) return;  // in several of the cells
            seen_[index] = query_;
            ++examined;
            if (overlapArea(area, rects_[index]) > 0) indices.push_back(index);
        };
        for (const std::uint32_t index : oversized_) look(index);
        forCells(area, [&](std::uint64_t key) {
            const auto cell = cells_.find(key);
            if (cell == cells_.end()) return;
            for (const std::uint32_t index : cell->second) look(index);
        });
        std::sort(indices.begin(), indices.end());
        found.reserve(indices.size());
        for (const std::uint32_t index : indices) found.push_back(rects_[index]);
        return found;
    }

private:
    static constexpr double kMostCellsFiled = 64;  // a rectangle far larger than the cells is not filed

    std::int64_t cellOf(double coordinate) const { return static_cast<std::int64_t>(std::floor(coordinate / cell_)); }
    double cellsOf(const CanvasRect& r) const {
        return static_cast<double>(cellOf(r.x + r.width) - cellOf(r.x) + 1) * static_cast<double>(cellOf(r.y + r.height) - cellOf(r.y) + 1);
    }
    template <typename Visit>
    void forCells(const CanvasRect& r, Visit visit) const {
        for (std::int64_t cx = cellOf(r.x); cx <= cellOf(r.x + r.width); ++cx) {
            for (std::int64_t cy = cellOf(r.y); cy <= cellOf(r.y + r.height); ++cy) {
                visit((static_cast<std::uint64_t>(static_cast<std::uint32_t>(cx)) << 32) | static_cast<std::uint32_t>(cy));
            }
        }
    }

    double cell_;
    std::vector<CanvasRect> rects_;
    std::vector<std::uint32_t> oversized_;
    std::vector<std::uint32_t> seen_;  // the last query that looked at each rectangle
    std::uint32_t query_ = 0;
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> cells_;
};

// A cell about the size of what is filed and asked for: a few cells per query, a few rectangles per cell.
double cellSize(const std::vector<LabelRequest>& requests, const std::vector<CanvasRect>& obstacles) {
    double sum = 0;
    std::size_t count = 0;
    for (const CanvasRect& o : obstacles) {
        sum += std::max(o.width, o.height);
        ++count;
    }
    for (const LabelRequest& r : requests) {
        if (r.anchors.empty()) continue;
        sum += std::max(r.width, r.height);
        ++count;
    }
    const double average = count ? sum / static_cast<double>(count) : 0;
    return std::isfinite(average) && average > 0 ? average : 1;
}

}  // namespace

std::vector<CanvasRect> placeLabels(const std::vector<LabelRequest>& requests, const std::vector<CanvasRect>& obstacles, LabelPlacementWork* work) {
    std::vector<CanvasRect> placed;
    placed.reserve(requests.size());
    const double cell = cellSize(requests, obstacles);
    RectGrid obstacleGrid(cell), labelGrid(cell);  // labels: placed so far, to keep apart
    for (const CanvasRect& o : obstacles) obstacleGrid.add(o);
    std::size_t examined = 0;
    for (const LabelRequest& request : requests) {
        CanvasRect best{};
        double bestCost = std::numeric_limits<double>::max();
        const double h = request.height, gap = h * 0.25;
        // Only what can touch one of this label's places is tested per place, found through the grids:
        // on a graph of a thousand wires every place against every node and label cost the editor a
        // third of its time, and a scan of them all per label still grew with the square of the graph.
        double left = std::numeric_limits<double>::max(), right = -left, top = left, bottom = -left;
        for (const LabelRequest::Point& a : request.anchors) {
            left = std::min(left, a.x - request.width);
            right = std::max(right, a.x + request.width);
            top = std::min(top, a.y - h - gap - kFurthestLevel * h / 2);
            bottom = std::max(bottom, a.y + gap + kFurthestLevel * h / 2 + h);
        }
        std::vector<CanvasRect> nearObstacles, nearLabels;
        if (!request.anchors.empty()) {
            const CanvasRect reach{left, top, right - left, bottom - top};
            nearObstacles = obstacleGrid.near(reach, examined);
            nearLabels = labelGrid.near(reach, examined);
        }
        // Nearest first: just above, just below or on every anchor, then ever further above and
        // below (a short wire between two nodes has its label clear of both only there).
        for (int level = 0; level <= kFurthestLevel && bestCost > 0; ++level) {
            for (const LabelRequest::Point& a : request.anchors) {
                std::vector<double> tops;
                if (level == 0) tops = {a.y - h - gap, a.y + gap, a.y - h / 2};
                else tops = {a.y - h - gap - level * h / 2, a.y + gap + level * h / 2};
                for (double top : tops) {
                    // Centred on the anchor, else starting or ending there (a label longer than
                    // the gap between two nodes fits beside one of them).
                    for (double left : {a.x - request.width / 2, a.x, a.x - request.width}) {
                        const CanvasRect box{left, top, request.width, h};
                        double overlap = 0;
                        for (const CanvasRect& o : nearObstacles) overlap += 10 * overlapArea(box, o);
                        for (const CanvasRect& l : nearLabels) overlap += overlapArea(box, l);
                        // Among places that overlap alike, the nearer one.
                        const double cost = overlap == 0 ? 0 : overlap + level * kCostPerLevel;
                        if (cost < bestCost) {
                            best = box;
                            bestCost = cost;
                        }
                        if (bestCost == 0) break;
                    }
                    if (bestCost == 0) break;
                }
                if (bestCost == 0) break;
            }
        }
        placed.push_back(best);
        if (!request.anchors.empty()) labelGrid.add(best);
    }
    if (work) work->rectsExamined += examined;
    return placed;
}

}  // namespace isochron::ui
