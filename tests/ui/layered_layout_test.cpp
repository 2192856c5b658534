// Auto-layout properties: edges run left to right, boxes never overlap, crossings are removed when
// the graph allows it, and cycles do not break it.
#include <catch2/catch.hpp>

#include <random>

#include "ui/layout/layered_layout.h"

using namespace isochron::ui;

namespace {

bool overlaps(const LayoutResult& r, const std::vector<LayoutBox>& boxes) {
    for (std::size_t a = 0; a < boxes.size(); ++a) {
        for (std::size_t b = a + 1; b < boxes.size(); ++b) {
            const bool apartX = r.x[a] + boxes[a].width <= r.x[b] || r.x[b] + boxes[b].width <= r.x[a];
            const bool apartY = r.y[a] + boxes[a].height <= r.y[b] || r.y[b] + boxes[b].height <= r.y[a];
            if (!apartX && !apartY) return true;
        }
    }
    return false;
}

}  // namespace

TEST_CASE("random acyclic graphs: every edge goes right, no boxes overlap", "[ui][layout]") {
    std::mt19937 random(7);
    for (int trial = 0; trial < 30; ++trial) {
        const int n = 2 + static_cast<int>(random() % 40);
        std::vector<LayoutBox> boxes;
        for (int i = 0; i < n; ++i) boxes.push_back({184, 40 + 22.0 * static_cast<double>(random() % 4)});
        std::vector<LayoutLink> links;
        for (int i = 1; i < n; ++i) {
            const int edges = 1 + static_cast<int>(random() % 2);
            for (int e = 0; e < edges; ++e) links.push_back({static_cast<int>(random() % static_cast<unsigned>(i)), i});
        }
        const LayoutResult r = layeredLayout(boxes, links);
        CAPTURE(trial, n);
        for (const LayoutLink& l : links) CHECK(r.x[static_cast<std::size_t>(l.from)] + 184 < r.x[static_cast<std::size_t>(l.to)]);
        CHECK_FALSE(overlaps(r, boxes));
        CHECK(*std::min_element(r.y.begin(), r.y.end()) == 0);
    }
}

TEST_CASE("a twisted ladder is untwisted: no crossings remain", "[ui][layout]") {
    // a0->b2, a1->b1, a2->b0 in input order crosses three times; a planar order exists.
    const std::vector<LayoutBox> boxes(6, LayoutBox{100, 40});
    const std::vector<LayoutLink> links{{0, 5}, {1, 4}, {2, 3}, {3, 5}};
    const LayoutResult r = layeredLayout(boxes, links);
    CHECK(r.crossings == 0);
    CHECK_FALSE(overlaps(r, boxes));
}

TEST_CASE("crossings counted between adjacent layers", "[ui][layout]") {
    // Layer 0: 0, 1; layer 1: 2, 3. Links 0->3 and 1->2 cross once; 0->2 and 1->3 do not.
    CHECK(countLayerCrossings({{0, 1}, {2, 3}}, {{3}, {2}, {}, {}}) == 1);
    CHECK(countLayerCrossings({{0, 1}, {2, 3}}, {{2}, {3}, {}, {}}) == 0);
}

TEST_CASE("a feedback loop keeps the forward chain left to right", "[ui][layout]") {
    const std::vector<LayoutBox> boxes(4, LayoutBox{100, 40});
    const std::vector<LayoutLink> links{{0, 1}, {1, 2}, {2, 3}, {3, 1}, {2, 2}};
    const LayoutResult r = layeredLayout(boxes, links);
    CHECK(r.x[0] < r.x[1]);
    CHECK(r.x[1] < r.x[2]);
    CHECK(r.x[2] < r.x[3]);
    CHECK_FALSE(overlaps(r, boxes));
}
