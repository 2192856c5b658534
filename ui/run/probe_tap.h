// The editor's probe on a running graph: a wire tap (engine/runtime/wire_tap.h) that copies the
// values one output port sends into a lock-free ProbeRing, which the probe's view reads. Attached
// and detached while the graph runs, so probing never restarts it.
#pragma once

#include <memory>

#include "engine/runtime/wire_tap.h"
#include "ui/run/probe_ring.h"

namespace isochron::ui {

/// Signal<f32> samples, frame<f32> values (one frame after another) or scalar values into a ring;
/// other items are ignored. [observe: engine thread, no allocation; ring(): any thread]
class ProbeTap final : public WireTap {
public:
    explicit ProbeTap(std::shared_ptr<ProbeRing> ring) : ring_(std::move(ring)) {}
    void observe(const Item& item) noexcept override;
    const std::shared_ptr<ProbeRing>& ring() const { return ring_; }

private:
    std::shared_ptr<ProbeRing> ring_;
};

}  // namespace isochron::ui
