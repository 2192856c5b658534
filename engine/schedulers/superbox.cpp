#include "engine/schedulers/superbox.h"

#include <algorithm>

#include "engine/time/wall_clock.h"

namespace isochron {

SuperboxScheduler::SuperboxScheduler(Traversal traversal, int workers)
    : traversal_(traversal), workers_(std::max(1, workers)) {}

SuperboxScheduler::~SuperboxScheduler() {
    {
        std::lock_guard lock(mutex_);
        shuttingDown_ = true;
    }
    wakeWorkers_.notify_all();
    for (auto& thread : pool_) thread.join();
}

std::string_view SuperboxScheduler::name() const {
    switch (traversal_) {
        case Traversal::MinCost: return "superbox-mc";
        case Traversal::MinLatency: return "superbox-ml";
        case Traversal::MinMemory: return "superbox-mm";
    }
    return "superbox";
}

void SuperboxScheduler::prepare(const std::vector<NodeContext*>& nodes) {
    trees_ = findOutputTrees(nodes);
    // Boxes that lead to no output (outputs left unconnected) still run: as one extra superbox.
    std::vector<char> inTree(nodes.size(), 0);
    for (const OutputTree& tree : trees_) {
        for (const NodeContext* box : tree.postOrder) inTree[static_cast<std::size_t>(box->index)] = 1;
    }
    std::vector<NodeContext*> rest;
    for (NodeContext* node : nodes) {
        if (!node->isSource() && !inTree[static_cast<std::size_t>(node->index)]) rest.push_back(node);
    }
    if (!rest.empty()) {
        const std::size_t boxes = rest.size();
        trees_.push_back(makeOutputTree(nullptr, std::move(rest), std::vector<std::vector<int>>(boxes)));
    }

    treesOfNode_.assign(nodes.size(), {});
    plans_.resize(trees_.size());
    for (std::size_t t = 0; t < trees_.size(); ++t) {
        for (const NodeContext* box : trees_[t].postOrder) treesOfNode_[static_cast<std::size_t>(box->index)].push_back(t);
        plans_[t].plan = computePlan(t);
        stats_.setupEntries += trees_[t].postOrder.size() + plans_[t].plan.turns.size() + plans_[t].plan.turnOf.size();
        for (const auto& next : trees_[t].successors) stats_.setupEntries += next.size();
    }
    ready_.assign(trees_.size(), 0);

    if (workers_ > 1 && trees_.size() > 1 && treesAreDisjoint(trees_)) {
        // Each tree gets its own cost clock: the engine's is for one thread.
        for (std::size_t t = 0; t < trees_.size(); ++t) {
            treeClocks_.push_back(std::make_unique<CostClock>());
            treeClocks_.back()->enabled = true;
            for (NodeContext* box : trees_[t].postOrder) box->costClock = treeClocks_.back().get();
        }
        for (int w = 1; w < workers_; ++w) pool_.emplace_back([this] { workerLoop(); });
    }
}

void SuperboxScheduler::markReady(std::size_t tree) {
    if (ready_[tree]) return;
    ready_[tree] = 1;
    readyTrees_.push(tree);
}

void SuperboxScheduler::deliver(NodeContext& target, int port, Item&& item) {
    target.inputs[static_cast<std::size_t>(port)].queue.push(std::move(item));
    // Inside a parallel drain, deliveries stay inside the tree being run, which is re-examined
    // by its own thread; only the engine thread (between drains) marks trees ready.
    if (stop_ != nullptr) return;
    for (std::size_t tree : treesOfNode_[static_cast<std::size_t>(target.index)]) markReady(tree);
}

const SuperboxPlan& SuperboxScheduler::planOf(std::size_t tree) {
    TreePlan& current = plans_[tree];
    if (traversal_ == Traversal::MinCost) return current.plan;
    const TimeNs now = wallClockNs();
    if (++current.runs >= kReplanEvery || now - current.plannedNs >= kReplanAfterNs) {
        current.plan = computePlan(tree);
        current.runs = 0;
        current.plannedNs = now;
    }
    return current.plan;
}

SuperboxPlan SuperboxScheduler::computePlan(std::size_t tree) const {
    const OutputTree& t = trees_[tree];
    std::vector<BoxEstimate> estimates(t.postOrder.size());
    for (std::size_t i = 0; i < estimates.size(); ++i) {
        const NodeContext& box = *t.postOrder[i];
        BoxEstimate& e = estimates[i];
        e.costNs = box.costEstimateNs;
        e.selectivity = box.selectivityEstimate;
        // An item at the box's input: its handle plus the samples it references.
        std::size_t items = 0, bytes = 0;
        for (const auto& in : box.inputs) {
            items += in.queue.size();
            bytes += in.queue.queuedBytes();
        }
        e.itemBytes = static_cast<double>(sizeof(Item)) + (items ? static_cast<double>(bytes) / static_cast<double>(items) : 0.0);
    }
    return superboxTraversal(t, traversal_, estimates);
}

bool SuperboxScheduler::runTree(std::size_t tree, bool withCheckpoints, std::uint64_t& boxCalls) {
    const OutputTree& t = trees_[tree];
    auto runIfQueued = [&](int index) {
        NodeContext& box = *t.postOrder[static_cast<std::size_t>(index)];
        if (box.queuedItems() == 0) return false;  // the paper's "shorter at run time"
        runTrain(box, 0, withCheckpoints);
        ++boxCalls;
        return true;
    };
    const SuperboxPlan& plan = planOf(tree);
    for (int box : plan.turns) {
        if (!runIfQueued(box)) continue;
        forEachFollower(t, plan, box, plans_[tree].walk, runIfQueued);
    }
    return std::any_of(t.postOrder.begin(), t.postOrder.end(), [](const NodeContext* box) { return box->queuedItems() > 0; });
}

void SuperboxScheduler::drain(const std::atomic<bool>& stop) {
    if (parallel()) return drainParallel(stop);
    while (!readyTrees_.empty() && !stop.load(std::memory_order_relaxed)) {
        const std::size_t tree = readyTrees_.pop();
        ready_[tree] = 0;
        ++stats_.decisions;
        if (runTree(tree, true, stats_.boxCalls)) markReady(tree);
    }
}

void SuperboxScheduler::drainParallel(const std::atomic<bool>& stop) {
    if (readyTrees_.empty()) return;
    {
        std::lock_guard lock(mutex_);
        work_.clear();
        while (!readyTrees_.empty()) {
            const std::size_t tree = readyTrees_.pop();
            ready_[tree] = 0;
            work_.push_back(tree);
        }
        nextWork_ = 0;
        stop_ = &stop;
        ++generation_;
    }
    wakeWorkers_.notify_all();
    runShare(&stop);
    {
        std::unique_lock lock(mutex_);
        workDone_.wait(lock, [&] { return busy_ == 0 && nextWork_ >= work_.size(); });
        stop_ = nullptr;
    }
    // Trees cut short by a stop request keep their items; mark them for the next drain.
    for (std::size_t tree = 0; tree < trees_.size(); ++tree) {
        for (const NodeContext* box : trees_[tree].postOrder) {
            if (box->queuedItems() > 0) {
                markReady(tree);
                break;
            }
        }
    }
}

void SuperboxScheduler::runShare(const std::atomic<bool>* stop) {
    std::uint64_t decisions = 0, boxCalls = 0;
    for (;;) {
        std::size_t tree;
        {
            std::lock_guard lock(mutex_);
            if (nextWork_ >= work_.size()) break;
            tree = work_[nextWork_++];
            ++busy_;
        }
        // A tree runs until it is empty: nothing else can put items into it during the drain.
        bool pending = true;
        while (pending && !stop->load(std::memory_order_relaxed)) {
            ++decisions;
            pending = runTree(tree, false, boxCalls);
        }
        std::lock_guard lock(mutex_);
        --busy_;
    }
    std::lock_guard lock(mutex_);
    stats_.decisions += decisions;
    stats_.boxCalls += boxCalls;
    workDone_.notify_all();
}

void SuperboxScheduler::workerLoop() {
    std::uint64_t seen = 0;
    for (;;) {
        const std::atomic<bool>* stop;
        {
            std::unique_lock lock(mutex_);
            wakeWorkers_.wait(lock, [&] { return shuttingDown_ || generation_ != seen; });
            if (shuttingDown_) return;
            seen = generation_;
            stop = stop_;
        }
        if (stop) runShare(stop);
    }
}

}  // namespace isochron
