// The bearing-time display's data: every track the frame-wise tracker reports, frame by frame (its
// azimuth, whether it is background, whether it was heard in that frame), and the background's
// bearings, over the last `kKeptSeconds` of the stream.
#pragma once

#include <QObject>
#include <QtQml/qqmlregistration.h>

#include <deque>
#include <vector>

namespace isochron::ui {

/// One track's state in one frame. [value type]
struct TrackPoint {
    double seconds = 0;        ///< the frame's start on the stream, s
    double azimuthDeg = 0;     ///< [0, 360)
    int trackId = -1;
    int array = 0;
    bool background = false;   ///< a source that does not stop (a fan, a talker)
    bool observed = false;     ///< heard in this frame (else carried through a pause)
};

/// Where the background is: a background track's bearing, or the steady noise's own direction. [value type]
struct BackgroundPoint {
    double seconds = 0;
    double azimuthDeg = 0;
    double confidence = 0;  ///< [0, 1]
    int array = 0;
    bool steady = false;    ///< from the noise covariance (a fan) rather than a track (a talker)
};

/// A frame-wise tracker's `tracks` item (spatial.source_tracker) at `seconds` on input `array` as a
/// TrackPoint; `attribute(name, otherwise)` reads the item's attributes: a live EventRecord's, or an
/// archived item's (ArchivedAttributes), so both become the same point. [any thread]
template <class Attribute>
TrackPoint trackPointOf(double seconds, int array, const Attribute& attribute) {
    return {seconds, attribute("azimuth_deg", 0), static_cast<int>(attribute("track_id", -1)), array, attribute("background", 0) > 0,
            attribute("observed", 0) > 0};
}

/// A frame-wise tracker's `background` item as a BackgroundPoint (as trackPointOf). [any thread]
template <class Attribute>
BackgroundPoint backgroundPointOf(double seconds, int array, const Attribute& attribute) {
    return {seconds, attribute("azimuth_deg", 0), attribute("confidence", 0), array, attribute("steady", 0) > 0};
}

/// Recent track states and background bearings, oldest first. [ui thread]
class TrackHistory : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("owned by RunController.localization")
public:
    static constexpr double kKeptSeconds = 120;

    explicit TrackHistory(QObject* parent = nullptr);

    /// Add arrived states and bearings (oldest first); what is older than kKeptSeconds before the
    /// newest goes.
    void append(const std::vector<TrackPoint>& points, const std::vector<BackgroundPoint>& background);
    void clear();
    const std::deque<TrackPoint>& points() const { return points_; }
    const std::deque<BackgroundPoint>& background() const { return background_; }

Q_SIGNALS:
    void changed();

private:
    std::deque<TrackPoint> points_;
    std::deque<BackgroundPoint> background_;
};

}  // namespace isochron::ui
