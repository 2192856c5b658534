// Superbox scheduling, application-at-a-time (Aurora, section 4.1): each output's tree of boxes is
// one superbox; superboxes with queued items take turns, and a superbox runs its boxes in one of
// the traversals of superbox_traversal.h, each box call taking everything queued at that box.
//
// With `workers` > 1 and trees that share no box, ready superboxes are handed to a pool of threads
// (the engine thread is one of them): a tree's items never leave it, so each runs alone on its
// thread. Between drains the engine thread alone applies parameters and takes telemetry.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/runtime/node_context.h"
#include "engine/runtime/ring_buffer.h"
#include "engine/schedulers/output_trees.h"
#include "engine/schedulers/scheduler.h"
#include "engine/schedulers/superbox_traversal.h"

namespace isochron {

/// `superbox-mc`, `superbox-ml`, `superbox-mm`. [engine thread; workers inside drain()]
class SuperboxScheduler final : public Scheduler {
public:
    SuperboxScheduler(Traversal traversal, int workers);
    ~SuperboxScheduler() override;
    std::string_view name() const override;
    void prepare(const std::vector<NodeContext*>& nodes) override;
    void deliver(NodeContext& target, int port, Item&& item) override;
    void drain(const std::atomic<bool>& stop) override;
    bool usesEstimates() const override { return traversal_ != Traversal::MinCost; }
    /// Whether drains run on several threads (workers > 1 and disjoint trees).
    bool parallel() const { return !pool_.empty(); }

private:
    /// Run one superbox; true if items are still queued in it afterwards.
    bool runTree(std::size_t tree, bool withCheckpoints, std::uint64_t& boxCalls);
    /// The tree's traversal: fixed for Min-Cost; for the others recomputed from the running
    /// estimates every kReplanEvery runs of the tree, or at its first run after kReplanAfterNs
    /// (they move slowly, and planning sorts the tree's boxes; the time bound keeps a tree that
    /// runs rarely, e.g. under bursty input, from keeping the plan made before any estimate
    /// existed).
    const SuperboxPlan& planOf(std::size_t tree);
    SuperboxPlan computePlan(std::size_t tree) const;
    void markReady(std::size_t tree);
    void drainParallel(const std::atomic<bool>& stop);
    void workerLoop();
    void runShare(const std::atomic<bool>* stop);

    Traversal traversal_;
    int workers_;
    std::vector<OutputTree> trees_;
    /// A tree's current traversal, how many runs it has served and when it was made, and the
    /// scratch its followers are walked with (one per tree: parallel drains run trees at once).
    struct TreePlan {
        SuperboxPlan plan;
        std::uint32_t runs = 0;
        TimeNs plannedNs = 0;
        DownstreamWalk walk;
    };
    static constexpr std::uint32_t kReplanEvery = 64;
    static constexpr TimeNs kReplanAfterNs = 50'000'000;
    std::vector<TreePlan> plans_;
    std::vector<std::vector<std::size_t>> treesOfNode_;
    std::vector<char> ready_;
    RingBuffer<std::size_t> readyTrees_;
    std::vector<std::unique_ptr<CostClock>> treeClocks_;

    // Worker pool (parallel mode only).
    std::vector<std::thread> pool_;
    std::mutex mutex_;
    std::condition_variable wakeWorkers_;
    std::condition_variable workDone_;
    std::vector<std::size_t> work_;
    std::size_t nextWork_ = 0;
    int busy_ = 0;
    std::uint64_t generation_ = 0;
    bool shuttingDown_ = false;
    const std::atomic<bool>* stop_ = nullptr;
};

}  // namespace isochron
