// DirectionFrame: the payload of custom<spatial.direction_frame> items, what spatial.frame_directions
// found in one frame of an array: the directions of the strongest sounds (several peaks of the
// steered response), how much sound the frame holds, and the bearings of the steady background.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/items/custom_payload.h"
#include "nodes/spatial/srp_peak_search.h"

namespace isochron {

/// One frame's directions; immutable once emitted. [any thread]
class DirectionFrame final : public CustomPayload {
public:
    static constexpr const char* kTypeName = "spatial.direction_frame";
    static constexpr int kMaxPeaks = 8;
    static constexpr int kMaxBackground = 4;

    std::array<DirectionPeak, kMaxPeaks> peaks{};  ///< largest first; value = scaled response, [-1, 1]
    int peakCount = 0;
    /// Bearings of steady directional noise (the noise covariance's response), strongest first;
    /// value = its coherence, [0, 1].
    std::array<DirectionPeak, kMaxBackground> background{};
    int backgroundCount = 0;
    double signalBins = 0.0;   ///< sum of the band's signal weights (detect.activity_frame)
    double logSnrSum = 0.0;    ///< sum of signal weight x ln snr
    double onsetWeight = 0.0;  ///< sum of signal weight x onset
    double mapMean = 0.0;      ///< the response averaged over the coarse grid
    std::int64_t hop = 0;      ///< samples between consecutive frames' starts

    std::string_view typeName() const noexcept override { return kTypeName; }
    void visitFields(CustomFieldVisitor& visitor) const override {
        visitor.number("signal_bins", signalBins);
        visitor.number("log_snr_sum", logSnrSum);
        visitor.number("onset_weight", onsetWeight);
        visitor.number("map_mean", mapMean);
        visitor.number("peaks", peakCount);
        static constexpr std::array<std::string_view, kMaxPeaks> kAzimuth = {
            "azimuth_deg_0", "azimuth_deg_1", "azimuth_deg_2", "azimuth_deg_3",
            "azimuth_deg_4", "azimuth_deg_5", "azimuth_deg_6", "azimuth_deg_7"};
        static constexpr std::array<std::string_view, kMaxPeaks> kValue = {
            "value_0", "value_1", "value_2", "value_3", "value_4", "value_5", "value_6", "value_7"};
        for (int i = 0; i < peakCount; ++i) {
            visitor.number(kAzimuth[static_cast<std::size_t>(i)], peaks[static_cast<std::size_t>(i)].azimuthDegrees);
            visitor.number(kValue[static_cast<std::size_t>(i)], peaks[static_cast<std::size_t>(i)].value);
        }
        visitor.number("background", backgroundCount);
    }
};

}  // namespace isochron
