// A level-meter probe's readings: 30 times a second, the newest 300 ms of a signal wire's samples
// from the probe's ring give its RMS, the samples new since the last look its peak (those of the
// newest 300 ms: a graph running faster than real time can pass a peak between two looks), and the
// peak is held (LevelBallistics). It draws nothing itself: LevelMeterView.qml draws the bars.
#pragma once

#include <QQuickItem>
#include <QTimer>
#include <QVariantList>

#include <memory>
#include <vector>

#include "ui/plots/level_ballistics.h"

namespace isochron::ui {

class ProbeRing;

/// One level meter's readings, in dBFS. [ui thread]
class LevelMeterPlot : public QQuickItem {
    Q_OBJECT
    QML_ELEMENT
    /// Key of the probe's ring (RunController.probes[i].key).
    Q_PROPERTY(QString probe READ probe WRITE setProbe NOTIFY probeChanged)
    Q_PROPERTY(bool hasData READ hasData NOTIFY dataChanged)
    Q_PROPERTY(double rmsDecibels READ rmsDecibels NOTIFY dataChanged)
    Q_PROPERTY(double peakDecibels READ peakDecibels NOTIFY dataChanged)
    Q_PROPERTY(double heldDecibels READ heldDecibels NOTIFY dataChanged)
    /// The scale drawn (dBFS): from `low` to `high` (0 dBFS, or up to +12 when the peak goes over).
    Q_PROPERTY(double low READ low CONSTANT)
    Q_PROPERTY(double high READ high NOTIFY dataChanged)
    Q_PROPERTY(QVariantList ticks READ ticks NOTIFY dataChanged)
public:
    explicit LevelMeterPlot(QQuickItem* parent = nullptr);

    QString probe() const { return probe_; }
    void setProbe(const QString& key);
    bool hasData() const { return hasData_; }
    double rmsDecibels() const { return ballistics_.rmsDecibels(); }
    double peakDecibels() const { return ballistics_.peakDecibels(); }
    double heldDecibels() const { return ballistics_.heldDecibels(); }
    double low() const { return -60; }
    double high() const { return high_; }
    QVariantList ticks() const { return ticks_; }

Q_SIGNALS:
    void probeChanged();
    void dataChanged();

private:
    void poll();
    QString probe_;
    std::shared_ptr<ProbeRing> ring_;
    QTimer timer_;
    std::vector<float> samples_;
    LevelBallistics ballistics_;
    std::uint64_t lastWritten_ = 0;
    bool hasData_ = false;
    double high_ = 0;
    QVariantList ticks_;
};

}  // namespace isochron::ui
