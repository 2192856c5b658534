// A binary heap of boxes (node indices) that can remove or re-place any box it holds, for
// schedulers that keep ready boxes ordered by a priority which changes while they wait.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace isochron {

/// Heap of node indices; `before(a, b)` says a comes out before b. A box's place in its heap is kept
/// in `slots` (by node index), which several heaps may share when a box is in at most one of them.
/// Counts the comparisons it makes in `comparisons`. [engine thread] [no allocation once grown]
template <class Before>
class BoxHeap {
public:
    BoxHeap(Before before, std::vector<int>* slots, std::uint64_t* comparisons)
        : before_(std::move(before)), slots_(slots), comparisons_(comparisons) {}

    bool empty() const { return boxes_.empty(); }
    /// The box that comes out first. [requires !empty()]
    int top() const { return boxes_.front(); }
    void push(int box) {
        boxes_.push_back(box);
        place(boxes_.size() - 1);
        siftUp(boxes_.size() - 1);
    }
    /// Takes `box` out (it must be in this heap).
    void remove(int box) {
        const auto at = static_cast<std::size_t>((*slots_)[static_cast<std::size_t>(box)]);
        (*slots_)[static_cast<std::size_t>(box)] = -1;
        const int last = boxes_.back();
        boxes_.pop_back();
        if (at == boxes_.size()) return;
        boxes_[at] = last;
        place(at);
        reorderAt(at);
    }
    /// `box` (in this heap) has moved in the order: put it back in its place.
    void reorder(int box) { reorderAt(static_cast<std::size_t>((*slots_)[static_cast<std::size_t>(box)])); }

private:
    bool comesFirst(int a, int b) {
        ++*comparisons_;
        return before_(a, b);
    }
    void place(std::size_t at) { (*slots_)[static_cast<std::size_t>(boxes_[at])] = static_cast<int>(at); }
    void swapAt(std::size_t a, std::size_t b) {
        std::swap(boxes_[a], boxes_[b]);
        place(a);
        place(b);
    }
    void reorderAt(std::size_t at) {
        if (at > 0 && comesFirst(boxes_[at], boxes_[(at - 1) / 2])) {
            siftUp(at);
        } else {
            siftDown(at);
        }
    }
    void siftUp(std::size_t at) {
        while (at > 0) {
            const std::size_t parent = (at - 1) / 2;
            if (!comesFirst(boxes_[at], boxes_[parent])) return;
            swapAt(at, parent);
            at = parent;
        }
    }
    void siftDown(std::size_t at) {
        for (;;) {
            std::size_t first = at;
            for (std::size_t child = 2 * at + 1; child <= 2 * at + 2 && child < boxes_.size(); ++child) {
                if (comesFirst(boxes_[child], boxes_[first])) first = child;
            }
            if (first == at) return;
            swapAt(at, first);
            at = first;
        }
    }

    Before before_;
    std::vector<int> boxes_;
    std::vector<int>* slots_;
    std::uint64_t* comparisons_;
};

}  // namespace isochron
