// The ready boxes of the `qos` scheduler, kept so that a decision finds the box the exact scan
// would pick (the best p-tuple of all ready boxes, the first in ready-list order among equals)
// without computing every ready box's priority.
//
// Why that works: a box that feeds one output has the priority (-gradient, slack) of that output's
// QoS graph at eol = its queued items' mean age + its cost to the output. Between two points of the
// graph the gradient is constant and the slack falls as eol grows, so within one such interval the
// box with the largest eol is the best (past the last point every box is equal). Queued items all
// age at the same rate, so boxes of one interval keep their eol order while they wait: a heap per
// (QoS graph, interval), ordered by eol then ready-list position, has the interval's best box on
// top, and that top is also the first to cross into the next interval. A decision moves crossed
// tops on, compares the tops of the heaps and every ready box that feeds several outputs (whose
// utilities add up over its outputs; computed as the scan does), and applies the starvation bound
// to the oldest ready box (a heap by ready time, then position). Identical QoS graphs share heaps.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/runtime/node_context.h"
#include "engine/schedulers/box_heap.h"
#include "engine/schedulers/qos_priority.h"

namespace isochron {

/// Ready boxes of the QoS-driven scheduler, best first. A decision costs O(log n) heap steps for
/// n ready boxes, plus one priority per QoS interval in use and per ready box feeding several
/// outputs. [engine thread] [no allocation in steady state: the heaps only grow]
class QosReadyBoxes {
public:
    QosReadyBoxes() = default;
    QosReadyBoxes(const QosReadyBoxes&) = delete;  // its heaps point into it
    QosReadyBoxes& operator=(const QosReadyBoxes&) = delete;

    /// Before the run, once `priorities` is prepared; `nowNs` is the reference for queued ages.
    void prepare(const std::vector<NodeContext*>& nodes, const QosPriorities& priorities, TimeNs nowNs);
    bool empty() const { return ready_.empty(); }
    /// `box` became ready at decision number `decision`; it is placed at the next take (which
    /// knows the time: no clock read per delivery).
    void add(const NodeContext& box, std::uint64_t decision);
    /// The queue of a ready box changed (an item arrived): it is re-placed at the next take.
    void touch(const NodeContext& box);
    /// The priorities' costs were refreshed: every ready box is re-placed at the next take.
    void costsChanged() { costsChanged_ = true; }
    /// Takes out the box that scanning every ready box would run after `decisions` decisions.
    NodeContext& takeBest(TimeNs nowNs, std::uint64_t decisions);
    /// Priorities computed and heap comparisons made so far.
    std::uint64_t boxesExamined() const { return examined_; }

private:
    /// Order inside one heap: larger eol first (unless every box of the heap is equal), then
    /// earlier in the ready list.
    struct GroupOrder {
        const QosReadyBoxes* boxes;
        bool byEol;
        bool operator()(int a, int b) const;
    };
    /// Oldest ready first, then earlier in the ready list.
    struct OldestOrder {
        const QosReadyBoxes* boxes;
        bool operator()(int a, int b) const;
    };
    /// Boxes with one QoS graph `curve`, eol in its interval `interval` (points at or below eol),
    /// whose queued ages grow with time (`aging`) or not (no item carries an arrival time).
    struct Group {
        BoxHeap<GroupOrder> heap;
        int curve;
        int interval;
        bool aging;
        int inUseSlot = -1;  ///< its place in groupsInUse_ while it holds boxes
    };
    static constexpr int kFeedsSeveral = -2;  // curveOf_: the box's priority sums over outputs
    static constexpr int kFeedsNone = -1;     // curveOf_: the box leads to no output

    /// Puts a ready box into the heap (or list) its state at `nowNs` says.
    void place(int box, TimeNs nowNs);
    void unplace(int box);
    void pushInto(int group, int box);
    /// Moves the aging boxes of `group` whose eol has passed the group's interval on (each box
    /// moves at most once per point of its QoS graph while it waits).
    void moveOnAged(Group& group, TimeNs nowNs);
    int groupOf(int curve, int interval, bool aging) const;

    const QosPriorities* priorities_ = nullptr;
    std::vector<NodeContext*> nodes_;
    TimeNs referenceNs_ = 0;
    std::vector<std::vector<double>> curvePoints_;  // by curve: its points' latencies, ms
    std::vector<int> curveGroups_;                  // by curve: its first group
    std::vector<int> curveOf_;                      // by node
    std::vector<Group> groups_;                     // the last one: boxes that lead to no output
    std::vector<int> groupsInUse_;                  // the groups holding boxes (a decision looks at these only)
    std::vector<int> feedingSeveral_;               // ready boxes with several outputs
    // By node index:
    std::vector<int> position_;   // in ready_
    std::vector<std::uint64_t> since_;
    std::vector<double> eolKey_;  // eol - (now - reference) for aging boxes, eol otherwise
    std::vector<double> placedCostMs_;  // the cost to its output when it was placed
    std::vector<int> group_;      // its group, kFeedsSeveral, or -1 until it is placed
    std::vector<int> groupSlot_;  // its place in its group's heap or in feedingSeveral_
    std::vector<int> oldestSlot_;
    std::vector<char> touched_;
    std::vector<int> touchedBoxes_;
    std::vector<int> ready_;  // the ready list, in the order the scan visits it
    std::uint64_t examined_ = 0;
    BoxHeap<OldestOrder> oldest_{OldestOrder{this}, &oldestSlot_, &examined_};
    bool costsChanged_ = false;
};

}  // namespace isochron
