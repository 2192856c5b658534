// QoS graphs (Aurora, section 6): how useful an output item is as a function of its latency.
//
// A piecewise-linear function through points (latency ms, utility in [0, 1]), flat before the first
// point and after the last. Its *critical points* are where the slope changes; QoS-driven scheduling
// uses the slope (utility lost per ms of delay) and the slack (ms until the next critical point).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace isochron {

/// One point of a QoS graph. [value type]
struct QosPoint {
    double latencyMs;
    double utility;
    bool operator==(const QosPoint&) const = default;
};

/// Latency -> utility, piecewise linear. [immutable value type, any thread]
class QosGraph {
public:
    /// The default: utility 1 up to `deadlineMs`, falling linearly to 0 at twice the deadline.
    static QosGraph withDeadline(double deadlineMs);
    /// From points with non-decreasing latencies >= 0 and utilities in [0, 1]; throws
    /// std::invalid_argument saying what is wrong otherwise.
    explicit QosGraph(std::vector<QosPoint> points);

    /// Utility of an item delivered `latencyMs` after it arrived. [no allocation]
    double utility(double latencyMs) const noexcept;
    /// Slope at `latencyMs` (utility per ms; <= 0 for sensible graphs), taken on the segment that
    /// starts at or before it. [no allocation]
    double gradient(double latencyMs) const noexcept;
    /// Milliseconds from `latencyMs` to the next critical point; infinity past the last one (no
    /// more utility can be lost, so nothing is urgent). [no allocation]
    double slack(double latencyMs) const noexcept;

    const std::vector<QosPoint>& points() const noexcept { return points_; }

    /// Parse {"points": [[ms, utility], ...]} or a bare [[ms, utility], ...].
    static QosGraph fromJson(const nlohmann::json& value);
    nlohmann::json toJson() const;
    bool operator==(const QosGraph&) const = default;

private:
    std::vector<QosPoint> points_;
};

}  // namespace isochron
