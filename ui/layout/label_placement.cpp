#include "ui/layout/label_placement.h"

#include <algorithm>
#include <limits>

namespace isochron::ui {

namespace {

constexpr int kFurthestLevel = 4;      // half label heights beyond the nearest places
constexpr double kCostPerLevel = 1e-3;  // only breaks ties between places that overlap alike

double overlapArea(const CanvasRect& a, const CanvasRect& b) {
    const double w = std::min(a.x + a.width, b.x + b.width) - std::max(a.x, b.x);
    const double h = std::min(a.y + a.height, b.y + b.height) - std::max(a.y, b.y);
    return w > 0 && h > 0 ? w * h : 0;
}

}  // namespace

std::vector<CanvasRect> placeLabels(const std::vector<LabelRequest>& requests, const std::vector<CanvasRect>& obstacles) {
    std::vector<CanvasRect> placed;
    placed.reserve(requests.size());
    std::vector<CanvasRect> labels;  // placed so far, to keep apart
    for (const LabelRequest& request : requests) {
        CanvasRect best{};
        double bestCost = std::numeric_limits<double>::max();
        const double h = request.height, gap = h * 0.25;
        // Only what can touch one of this label's places is tested per place: on a graph of a thousand
        // wires every place against every node and label cost the editor a third of its time.
        double left = std::numeric_limits<double>::max(), right = -left, top = left, bottom = -left;
        for (const LabelRequest::Point& a : request.anchors) {
            left = std::min(left, a.x - request.width);
            right = std::max(right, a.x + request.width);
            top = std::min(top, a.y - h - gap - kFurthestLevel * h / 2);
            bottom = std::max(bottom, a.y + gap + kFurthestLevel * h / 2 + h);
        }
        const CanvasRect reach{left, top, right - left, bottom - top};
        std::vector<CanvasRect> nearObstacles, nearLabels;
        for (const CanvasRect& o : obstacles) if (overlapArea(reach, o) > 0) nearObstacles.push_back(o);
        for (const CanvasRect& l : labels) if (overlapArea(reach, l) > 0) nearLabels.push_back(l);
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
        if (!request.anchors.empty()) labels.push_back(best);
    }
    return placed;
}

}  // namespace isochron::ui
