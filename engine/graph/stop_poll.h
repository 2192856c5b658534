// Stop polls: how the long steps of starting a run (validating a large graph, creating and activating
// its nodes) learn that the run is being stopped. A 100 000-node chain takes seconds to validate and
// as long again to build, and Ctrl-C meanwhile waited for all of it. Each step asks its StopPoll once
// every kStepsPerStopPoll units of work (a node, an edge) through a StopPoller, and gives up with
// StartStopped when it answers yes: a stop is honoured within a fraction of a second, for the cost
// of a counter per unit. The caller says what stopping means (isochron-run: a stop signal came).
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>

namespace isochron {

/// Whether the run being started is to stop. An empty poll never stops. [the starting thread]
using StopPoll = std::function<bool()>;

/// A step of starting a run gave up because its StopPoll said so; what it built is gone.
class StartStopped : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Units of work (nodes, edges) between two questions to a StopPoll: a question is a function call
/// and an atomic load, against micro-seconds of work per unit.
inline constexpr std::size_t kStepsPerStopPoll = 256;

/// Counts units of work and asks a StopPoll at the first and then every kStepsPerStopPoll. [one thread]
class StopPoller {
public:
    /// `poll` must outlive this poller; `step` names the step in StartStopped's message ("validation").
    StopPoller(const StopPoll& poll, std::string step) : poll_(poll), step_(std::move(step)) {}
    /// One unit of work is about to be done: throws StartStopped when it is time to ask and the
    /// poll says stop. [no allocation unless it throws]
    void unit() {
        if (!poll_ || steps_++ % kStepsPerStopPoll != 0) return;
        if (poll_()) throw StartStopped(step_ + " stopped: the run is being stopped");
    }

private:
    const StopPoll& poll_;
    std::string step_;
    std::size_t steps_ = 0;
};

}  // namespace isochron
