#include "ui/layout/label_placement.h"

#include <algorithm>
#include <limits>

namespace isochron::ui {

namespace {

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
        const double gap = request.height * 0.25;
        for (const LabelRequest::Point& a : request.anchors) {
            for (double top : {a.y - request.height - gap, a.y + gap, a.y - request.height / 2}) {
                const CanvasRect box{a.x - request.width / 2, top, request.width, request.height};
                double cost = 0;
                for (const CanvasRect& o : obstacles) cost += 10 * overlapArea(box, o);
                for (const CanvasRect& l : labels) cost += overlapArea(box, l);
                if (cost < bestCost) {
                    best = box;
                    bestCost = cost;
                }
                if (cost == 0) break;
            }
            if (bestCost == 0) break;
        }
        placed.push_back(best);
        if (!request.anchors.empty()) labels.push_back(best);
    }
    return placed;
}

}  // namespace isochron::ui
