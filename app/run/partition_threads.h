// isochron-run --partitions threads: a partitioned graph in one process, each partition that holds
// nodes on a thread of its own with an engine of its own (the chosen scheduler), and the edges between partitions as in-process
// channels (distributed/thread_channels.h) in place of MPI's. The in-process counterpart of running
// partition k on rank k under mpirun (docs/scale-out.md).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "distributed/partition_plan.h"
#include "distributed/thread_channels.h"
#include "engine/graph/stop_poll.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/run_summary.h"

namespace isochron::run {

/// The engines of every partition and the channels between them. [built and run from one thread; requestStop from any thread]
class PartitionThreads {
public:
    /// Plans the partitions of `graph` (validated from `file`) and builds one engine per partition that
    /// holds nodes (numbers need not be dense: 0, 1 and 1000 make three), in partition order on this thread, each sender with `channelCapacity` (1 to 4096) items in flight
    /// at most. Throws GraphException for partitions that cannot run (a cycle between partitions,
    /// custom items between them) and for nodes that cannot start (every partition's, named). Each
    /// engine asks `stop` while its nodes start (Engine's constructor), and StartStopped ends them all.
    PartitionThreads(const GraphSpec& file, const ValidatedGraph& graph, const SchedulerSpec& scheduler, int channelCapacity,
                     const StopPoll& stop = {});
    ~PartitionThreads();
    PartitionThreads(const PartitionThreads&) = delete;
    PartitionThreads& operator=(const PartitionThreads&) = delete;

    /// How many partitions hold nodes: one engine and one thread each.
    int partitions() const { return static_cast<int>(engines_.size()); }
    /// The engine of the `index`-th partition that holds nodes (0: the lowest partition number).
    Engine& engine(int index) { return *engines_[static_cast<std::size_t>(index)]; }
    /// Every partition's running nodes (channel ends included), partition by partition.
    std::vector<const NodeContext*> nodes() const;

    /// Gives every partition's engine `listener` (Engine::setFailureListener): a node failing in any
    /// partition is heard of when it fails. It may be called from several partitions' threads at once. [before run()]
    void setFailureListener(const std::function<void(const std::string& failure)>& listener);

    /// Runs every partition's engine on a thread of its own until all have ended. A node failing in
    /// a partition is disabled as in a graph run whole (its outputs end, across channels too); a
    /// partition that stops, or requestStop(), stops every partition and every channel, so no thread
    /// is left waiting. A thread that cannot be started stops and joins those already
    /// running, then throws std::runtime_error naming the partition. Returns the run's outcome: completed when every partition
    /// completed, stopped only when requestStop() was called, the failures of all partitions, the wall time of the
    /// whole. [the constructing thread]
    RunOutcome run();
    /// Ask every partition to stop soon. [any thread]
    void requestStop();

    /// The run's summary as if the graph had run whole: every node of the graph once, in the graph's
    /// order (channel ends are left out: see channelsText()), throughputs over the whole run's wall time.
    RunSummary summary(const RunOutcome& outcome) const;
    /// One line per channel, for the summary.
    std::string channelsText() const { return channels_.figuresText(); }
    /// The report's "channels" array.
    nlohmann::ordered_json channelsJson() const { return channels_.figuresJson(); }

private:
    void stopAll();

    const ValidatedGraph& graph_;
    distributed::ThreadChannels channels_;
    std::vector<int> partitionNumbers_;           // of each engine, ascending
    std::vector<distributed::LocalPart> parts_;   // outlive the engines built from them
    std::vector<std::unique_ptr<Engine>> engines_;
    std::vector<RunOutcome> outcomes_;
    std::atomic<bool> stopRequested_{false};  // requestStop() was called (a signal), not only a failure
};

}  // namespace isochron::run
