#include "nodes/spatial/bearing_intersection.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace isochron {

namespace {
constexpr double kDegreesToRadians = std::numbers::pi / 180.0;
}

std::vector<ArrayPose> arrayPosesFrom(const std::vector<double>& numbers, int arrays) {
    if (numbers.size() != static_cast<std::size_t>(3 * arrays)) {
        throw std::invalid_argument("array_poses has " + std::to_string(numbers.size()) + " numbers; " + std::to_string(arrays) +
                                    " arrays need 3 each (x_m, y_m, heading_deg)");
    }
    std::vector<ArrayPose> poses;
    for (std::size_t at = 0; at < numbers.size(); at += 3) poses.push_back({{numbers[at], numbers[at + 1]}, numbers[at + 2]});
    return poses;
}

BearingIntersection intersectBearings(std::span<const ArrayPose> poses, std::span<const Bearing> bearings) {
    BearingIntersection result;
    Eigen::Matrix2d normalSum = Eigen::Matrix2d::Zero();
    Eigen::Vector2d weightedSum = Eigen::Vector2d::Zero();
    double weightTotal = 0.0;
    for (std::size_t i = 0; i < bearings.size(); ++i) {
        if (!std::isfinite(bearings[i].azimuthDegrees)) {
            result.problem = "a bearing has no azimuth";
            return result;
        }
        const double weight = std::max(bearings[i].weight, 1e-3);
        const double angle = (poses[i].headingDegrees + bearings[i].azimuthDegrees) * kDegreesToRadians;
        const Eigen::Vector2d normal(-std::sin(angle), std::cos(angle));
        const Eigen::Matrix2d projector = weight * normal * normal.transpose();
        normalSum += projector;
        weightedSum += projector * poses[i].position;
        weightTotal += weight;
    }
    const double determinant = normalSum.determinant();
    if (!std::isfinite(determinant) || determinant < 1e-6 * weightTotal * weightTotal) {
        result.problem = "the bearings are (nearly) parallel";
        return result;
    }
    const Eigen::Vector2d position = normalSum.inverse() * weightedSum;
    double squaredDistances = 0.0;
    for (std::size_t i = 0; i < bearings.size(); ++i) {
        const double angle = (poses[i].headingDegrees + bearings[i].azimuthDegrees) * kDegreesToRadians;
        const Eigen::Vector2d direction(std::cos(angle), std::sin(angle));
        const Eigen::Vector2d offset = position - poses[i].position;
        if (direction.dot(offset) <= 0.0) {
            result.problem = "the bearings do not converge in front of every array";
            return result;
        }
        const double across = offset.x() * direction.y() - offset.y() * direction.x();
        squaredDistances += across * across;
    }
    result.position = position;
    result.residualMetres = std::sqrt(squaredDistances / static_cast<double>(bearings.size()));
    return result;
}

EventRecord* positionRecord(const BearingIntersection& meet) {
    EventRecord* record = EventRecord::create("position");
    record->set("x_m", meet.position->x());
    record->set("y_m", meet.position->y());
    record->set("residual_m", meet.residualMetres);
    return record;
}

double meanBearingWeight(std::span<const Bearing> bearings) {
    double total = 0;
    for (const Bearing& b : bearings) total += std::max(b.weight, 1e-3);
    return total / static_cast<double>(bearings.size());
}

}  // namespace isochron
