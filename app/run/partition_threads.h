// isochron-run --partitions threads: a partitioned graph in one process, partition k on thread k with
// an engine of its own (the chosen scheduler), and the edges between partitions as in-process
// channels (distributed/thread_channels.h) in place of MPI's. The in-process counterpart of running
// partition k on rank k under mpirun (docs/scale-out.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "distributed/partition_plan.h"
#include "distributed/thread_channels.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/run_summary.h"

namespace isochron::run {

/// The engines of every partition and the channels between them. [built and run from one thread; requestStop from any thread]
class PartitionThreads {
public:
    /// Plans the partitions of `graph` (validated from `file`) and builds one engine per partition, in
    /// partition order on this thread, each sender with `channelCapacity` (1 to 4096) items in flight
    /// at most. Throws GraphException for partitions that cannot run (a cycle between partitions,
    /// custom items between them) and for nodes that cannot start (every partition's, named).
    PartitionThreads(const GraphSpec& file, const ValidatedGraph& graph, const SchedulerSpec& scheduler, int channelCapacity);
    ~PartitionThreads();
    PartitionThreads(const PartitionThreads&) = delete;
    PartitionThreads& operator=(const PartitionThreads&) = delete;

    int partitions() const { return static_cast<int>(engines_.size()); }
    Engine& engine(int partition) { return *engines_[static_cast<std::size_t>(partition)]; }
    /// Every partition's running nodes (channel ends included), partition by partition.
    std::vector<const NodeContext*> nodes() const;

    /// Runs every partition's engine on a thread of its own until all have ended. A node failing in
    /// any partition, a partition stopping, or requestStop() stops every partition and every channel,
    /// so no thread is left waiting. Returns the run's outcome: completed when every partition
    /// completed, the failures of all partitions, the wall time of the whole. [the constructing thread]
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
    std::vector<distributed::LocalPart> parts_;   // outlive the engines built from them
    std::vector<std::unique_ptr<Engine>> engines_;
    std::vector<RunOutcome> outcomes_;
};

}  // namespace isochron::run
