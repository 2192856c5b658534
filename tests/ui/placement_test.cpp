// Placing things on the canvas: a new node never lands on another, and live labels of wires stay
// clear of nodes and of each other.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "ui/layout/free_spot.h"
#include "ui/layout/label_placement.h"

using namespace isochron::ui;

TEST_CASE("a new node goes where it was dropped when that is free, else to the nearest free grid point", "[ui][layout]") {
    const std::vector<CanvasRect> taken = {{0, 0, 184, 72}, {240, 0, 184, 72}};
    const CanvasRect free = nearestFreeSpot(taken, 184, 72, 0, 200, 20, 20);
    CHECK(free.x == 0);
    CHECK(free.y == 200);
    // Dropped onto the first node: the nearest grid point clear of both (20 units of gap).
    const CanvasRect moved = nearestFreeSpot(taken, 184, 72, 20, 20, 20, 20);
    for (const CanvasRect& t : taken) CHECK_FALSE(moved.overlaps(t.grown(20)));
    CHECK(moved.y == 20 + 4 * 20);  // straight below is nearest: past 72 + 20 of gap, on the grid
    CHECK(moved.x == 20);
}

TEST_CASE("random drops among random nodes never overlap and move as little as needed", "[ui][layout]") {
    std::mt19937 random(3);
    for (int trial = 0; trial < 50; ++trial) {
        std::vector<CanvasRect> taken;
        for (int i = 0; i < 12; ++i) taken.push_back({double(random() % 60) * 20, double(random() % 30) * 20, 184, 72});
        const double x = double(random() % 60) * 20, y = double(random() % 30) * 20;
        const CanvasRect spot = nearestFreeSpot(taken, 184, 72, x, y, 20, 20);
        for (const CanvasRect& t : taken) REQUIRE_FALSE(spot.overlaps(t.grown(20)));
        // No grid point strictly nearer is free (checked by brute force over the neighbourhood).
        const double moved = std::hypot(spot.x - x, spot.y - y);
        for (int i = -30; i <= 30; ++i) {
            for (int j = -30; j <= 30; ++j) {
                const CanvasRect box{x + i * 20, y + j * 20, 184, 72};
                if (std::hypot(i * 20.0, j * 20.0) >= moved - 1e-9) continue;
                bool free = true;
                for (const CanvasRect& t : taken) free = free && !box.overlaps(t.grown(20));
                REQUIRE_FALSE(free);
            }
        }
    }
}

TEST_CASE("live labels avoid nodes and each other when there is room", "[ui][layout]") {
    // Two wires leaving one node into two nodes: the middle of each wire is next to node titles.
    const std::vector<CanvasRect> nodes = {{0, 0, 184, 72}, {260, -40, 184, 72}, {260, 60, 184, 72}};
    std::vector<LabelRequest> requests(2);
    for (int w = 0; w < 2; ++w) {
        requests[static_cast<std::size_t>(w)].width = 60;
        requests[static_cast<std::size_t>(w)].height = 15;
        for (double t : {0.5, 0.4, 0.6, 0.3, 0.7}) requests[static_cast<std::size_t>(w)].anchors.push_back({184 + 76 * t, 41 + (w == 0 ? -60 : 60) * t});
    }
    const std::vector<CanvasRect> placed = placeLabels(requests, nodes);
    REQUIRE(placed.size() == 2);
    for (const CanvasRect& label : placed) {
        for (const CanvasRect& node : nodes) CHECK_FALSE(label.overlaps(node));
    }
    CHECK_FALSE(placed[0].overlaps(placed[1]));
}

TEST_CASE("a label with nowhere free takes the place with the least overlap", "[ui][layout]") {
    const std::vector<CanvasRect> nodes = {{0, 0, 400, 400}};
    LabelRequest request;
    request.width = 40;
    request.height = 10;
    request.anchors = {{200, 200}, {200, 395}};  // the second lets the label hang below the node
    const std::vector<CanvasRect> placed = placeLabels({request}, nodes);
    CHECK(placed[0].y >= 395);
}

TEST_CASE("a short wire between two nodes side by side gets its label clear of both", "[ui][layout]") {
    const std::vector<CanvasRect> nodes = {{0, 0, 184, 62}, {220, 0, 184, 62}};
    LabelRequest request;
    request.width = 60;
    request.height = 15;
    for (double t : {0.5, 0.4, 0.6}) request.anchors.push_back({184 + 36 * t, 41});
    const CanvasRect label = placeLabels({request}, nodes)[0];
    for (const CanvasRect& node : nodes) CHECK_FALSE(label.overlaps(node));
    CHECK(label.y >= 62);  // below the nodes, as near the wire as that allows
    CHECK(label.y < 62 + 15);
}

namespace {

// The placement by a scan of every node and label per place (the rule placeLabels documents), to
// hold the grid's result to.
std::vector<CanvasRect> placeLabelsByScan(const std::vector<LabelRequest>& requests, const std::vector<CanvasRect>& obstacles) {
    const auto overlap = [](const CanvasRect& a, const CanvasRect& b) {
        const double w = std::min(a.x + a.width, b.x + b.width) - std::max(a.x, b.x);
        const double h = std::min(a.y + a.height, b.y + b.height) - std::max(a.y, b.y);
        return w > 0 && h > 0 ? w * h : 0.0;
    };
    std::vector<CanvasRect> placed, labels;
    for (const LabelRequest& request : requests) {
        CanvasRect best{};
        double bestCost = 1e300;
        const double h = request.height, gap = h * 0.25;
        for (int level = 0; level <= 4 && bestCost > 0; ++level) {
            for (const LabelRequest::Point& a : request.anchors) {
                std::vector<double> tops = level == 0 ? std::vector<double>{a.y - h - gap, a.y + gap, a.y - h / 2}
                                                      : std::vector<double>{a.y - h - gap - level * h / 2, a.y + gap + level * h / 2};
                for (double top : tops) {
                    for (double left : {a.x - request.width / 2, a.x, a.x - request.width}) {
                        const CanvasRect box{left, top, request.width, h};
                        double area = 0;
                        for (const CanvasRect& o : obstacles) area += 10 * overlap(box, o);
                        for (const CanvasRect& l : labels) area += overlap(box, l);
                        const double cost = area == 0 ? 0 : area + level * 1e-3;
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

// A chain of `count` nodes on a grid of rows, as the layered layout lays out a long pipeline, with a
// label requested on every wire (the editor's anchors: 7 points along the wire).
void chainScene(int count, std::vector<CanvasRect>& nodes, std::vector<LabelRequest>& requests) {
    for (int i = 0; i < count; ++i) nodes.push_back({double(i % 40) * 240, double(i / 40) * 120, 184, 72});
    for (int i = 0; i + 1 < count; ++i) {
        const CanvasRect& a = nodes[static_cast<std::size_t>(i)];
        const CanvasRect& b = nodes[static_cast<std::size_t>(i + 1)];
        LabelRequest request;
        request.width = 70;
        request.height = 15;
        for (double t : {0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8}) {
            request.anchors.push_back({a.x + a.width + (b.x - a.x - a.width) * t, a.y + 41 + (b.y - a.y) * t});
        }
        requests.push_back(request);
    }
}

}  // namespace

TEST_CASE("labels are placed as a scan of every node and label would place them", "[ui][layout]") {
    std::mt19937 random(7);
    for (int trial = 0; trial < 40; ++trial) {
        std::vector<CanvasRect> nodes;
        const int count = 5 + static_cast<int>(random() % 60);
        for (int i = 0; i < count; ++i) nodes.push_back({double(random() % 2000), double(random() % 1200), 184, double(50 + random() % 80)});
        if (trial % 4 == 0) nodes.push_back({-5000, -5000, 20000, 30});  // far larger than the grid's cells
        std::vector<LabelRequest> requests(static_cast<std::size_t>(count));
        for (LabelRequest& request : requests) {
            if (random() % 10 == 0) continue;  // a wire without a live value
            request.width = double(30 + random() % 120);
            request.height = 15;
            const double x0 = double(random() % 2000), y0 = double(random() % 1200), x1 = double(random() % 2000), y1 = double(random() % 1200);
            for (double t : {0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8}) request.anchors.push_back({x0 + (x1 - x0) * t, y0 + (y1 - y0) * t});
        }
        const std::vector<CanvasRect> expected = placeLabelsByScan(requests, nodes), placed = placeLabels(requests, nodes);
        REQUIRE(placed.size() == expected.size());
        for (std::size_t i = 0; i < placed.size(); ++i) {
            INFO("trial " << trial << ", label " << i);
            CHECK(placed[i].x == expected[i].x);
            CHECK(placed[i].y == expected[i].y);
        }
    }
    std::vector<CanvasRect> nodes;
    std::vector<LabelRequest> requests;
    chainScene(300, nodes, requests);
    const std::vector<CanvasRect> expected = placeLabelsByScan(requests, nodes), placed = placeLabels(requests, nodes);
    for (std::size_t i = 0; i < placed.size(); ++i) {
        INFO("chain label " << i);
        CHECK((placed[i].x == expected[i].x && placed[i].y == expected[i].y));
    }
}

TEST_CASE("each label of a 1 000-node chain looks at the few nodes and labels near it, not at all of them", "[ui][layout]") {
    for (const int count : {300, 1000, 3000}) {
        std::vector<CanvasRect> nodes;
        std::vector<LabelRequest> requests;
        chainScene(count, nodes, requests);
        LabelPlacementWork work;
        const std::vector<CanvasRect> placed = placeLabels(requests, nodes, &work);
        REQUIRE(placed.size() == requests.size());
        INFO(count << " nodes: " << work.rectsExamined << " rectangles examined");
        // A scan examines every node and every label placed so far per label: 1 000 nodes, 1.5 million.
        CHECK(work.rectsExamined < 40 * requests.size());
        for (const CanvasRect& node : nodes) CHECK_FALSE(placed[500 % placed.size()].overlaps(node));
    }
}
