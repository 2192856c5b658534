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
