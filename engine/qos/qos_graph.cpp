#include "engine/qos/qos_graph.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace isochron {

QosGraph QosGraph::withDeadline(double deadlineMs) {
    if (!(deadlineMs > 0)) throw std::invalid_argument("a QoS deadline must be a positive number of ms");
    return QosGraph({{0, 1}, {deadlineMs, 1}, {2 * deadlineMs, 0}});
}

QosGraph::QosGraph(std::vector<QosPoint> points) : points_(std::move(points)) {
    if (points_.empty()) throw std::invalid_argument("a QoS graph needs at least one point");
    for (std::size_t i = 0; i < points_.size(); ++i) {
        const QosPoint& p = points_[i];
        if (!std::isfinite(p.latencyMs) || p.latencyMs < 0) {
            throw std::invalid_argument("QoS point " + std::to_string(i) + ": latency must be a number of ms >= 0");
        }
        if (!std::isfinite(p.utility) || p.utility < 0 || p.utility > 1) {
            throw std::invalid_argument("QoS point " + std::to_string(i) + ": utility must be between 0 and 1");
        }
        if (i > 0 && p.latencyMs < points_[i - 1].latencyMs) {
            throw std::invalid_argument("QoS point " + std::to_string(i) + ": latencies must not decrease");
        }
    }
}

double QosGraph::utility(double latencyMs) const noexcept {
    if (latencyMs <= points_.front().latencyMs) return points_.front().utility;
    for (std::size_t i = 1; i < points_.size(); ++i) {
        const QosPoint& a = points_[i - 1];
        const QosPoint& b = points_[i];
        if (latencyMs <= b.latencyMs) {
            if (b.latencyMs == a.latencyMs) return b.utility;
            // std::lerp with t in [0, 1] stays between the two utilities (the plain formula could round past them).
            return std::lerp(a.utility, b.utility, std::clamp((latencyMs - a.latencyMs) / (b.latencyMs - a.latencyMs), 0.0, 1.0));
        }
    }
    return points_.back().utility;
}

double QosGraph::gradient(double latencyMs) const noexcept {
    for (std::size_t i = 1; i < points_.size(); ++i) {
        const QosPoint& a = points_[i - 1];
        const QosPoint& b = points_[i];
        if (latencyMs >= a.latencyMs && latencyMs < b.latencyMs) {
            return (b.utility - a.utility) / (b.latencyMs - a.latencyMs);
        }
    }
    return 0.0;
}

double QosGraph::slack(double latencyMs) const noexcept {
    for (const QosPoint& p : points_) {
        if (p.latencyMs > latencyMs) return p.latencyMs - latencyMs;
    }
    return std::numeric_limits<double>::infinity();
}

QosGraph QosGraph::fromJson(const nlohmann::json& value) {
    const nlohmann::json& list = value.is_object() && value.contains("points") ? value["points"] : value;
    if (!list.is_array()) throw std::invalid_argument("QoS must be {\"points\": [[ms, utility], ...]}");
    std::vector<QosPoint> points;
    for (const auto& p : list) {
        if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) {
            throw std::invalid_argument("each QoS point must be [latency_ms, utility]");
        }
        points.push_back({p[0].get<double>(), p[1].get<double>()});
    }
    return QosGraph(std::move(points));
}

nlohmann::json QosGraph::toJson() const {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& p : points_) list.push_back({p.latencyMs, p.utility});
    return {{"points", list}};
}

}  // namespace isochron
