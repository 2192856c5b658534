// A probe's plot: the newest values flowing through a wire, read from the probe's lock-free ring 30
// times a second. A scope draws them against time (signals), index (frames: the newest frame) or
// arrival (scalars); a spectrum draws the dB spectrum of the newest samples against frequency,
// with its peak. Grid lines at round values on both axes; QML labels them from xTicks and yTicks.
#pragma once

#include <QColor>
#include <QQuickItem>
#include <QTimer>
#include <QVariantList>
#include <QVariantMap>

#include <memory>
#include <vector>

#include "ui/plots/display_spectrum.h"

namespace isochron::ui {

class ProbeRing;

/// One probe's plot. [ui thread; updatePaintNode on the render thread while the ui thread waits]
class ProbePlot : public QQuickItem {
    Q_OBJECT
    QML_ELEMENT
    /// Key of the probe's ring (RunController.probes[i].key).
    Q_PROPERTY(QString probe READ probe WRITE setProbe NOTIFY probeChanged)
    /// "scope" or "spectrum".
    Q_PROPERTY(QString kind MEMBER kind_ NOTIFY probeChanged)
    /// Samples a scope shows (16 ... 32768) and a spectrum transforms (64 ... 32768, rounded down to a power of two).
    Q_PROPERTY(int span MEMBER span_ NOTIFY probeChanged)
    Q_PROPERTY(QColor color MEMBER color_ NOTIFY probeChanged)
    Q_PROPERTY(QColor gridColor MEMBER gridColor_ NOTIFY probeChanged)
    Q_PROPERTY(bool hasData READ hasData NOTIFY dataChanged)
    /// Value range drawn (dB for a spectrum) and its grid values.
    Q_PROPERTY(double low READ low NOTIFY dataChanged)
    Q_PROPERTY(double high READ high NOTIFY dataChanged)
    Q_PROPERTY(QVariantList yTicks READ yTicks NOTIFY dataChanged)
    /// Horizontal range and grid values, in xUnit: "s" (a signal's time, the newest sample at 0),
    /// "Hz" (a spectrum), "index" (a frame's values) or "item" (scalars, the newest at 0).
    Q_PROPERTY(double xFrom READ xFrom NOTIFY dataChanged)
    Q_PROPERTY(double xTo READ xTo NOTIFY dataChanged)
    Q_PROPERTY(QVariantList xTicks READ xTicks NOTIFY dataChanged)
    Q_PROPERTY(QString xUnit READ xUnit NOTIFY dataChanged)
    /// A spectrum's strongest frequency (Hz) and its level (dB).
    Q_PROPERTY(double peakFrequency READ peakFrequency NOTIFY dataChanged)
    Q_PROPERTY(double peakDecibels READ peakDecibels NOTIFY dataChanged)
public:
    explicit ProbePlot(QQuickItem* parent = nullptr);

    QString probe() const { return probe_; }
    void setProbe(const QString& key);
    bool hasData() const { return !values_.empty(); }
    double low() const { return low_; }
    double high() const { return high_; }
    QVariantList yTicks() const { return yTicks_; }
    double xFrom() const { return xFrom_; }
    double xTo() const { return xTo_; }
    QVariantList xTicks() const { return xTicks_; }
    QString xUnit() const { return xUnit_; }
    double peakFrequency() const { return peak_.frequencyHz; }
    double peakDecibels() const { return peak_.decibels; }

    /// The value drawn at horizontal pixel `px`: {x (in xUnit), y}; empty without data.
    Q_INVOKABLE QVariantMap readingAt(qreal px) const;
    /// Horizontal pixel of `x` (in xUnit), for cursors and labels.
    Q_INVOKABLE qreal pixelOfX(double x) const;

Q_SIGNALS:
    void probeChanged();
    void dataChanged();

protected:
    QSGNode* updatePaintNode(QSGNode* old, UpdatePaintNodeData* data) override;

private:
    void poll();
    void takeScope(int frameLength, double rate);
    void takeSpectrum(double rate);
    void setTicks();
    QString probe_;
    QString kind_ = "scope";
    std::shared_ptr<ProbeRing> ring_;
    QTimer timer_;
    std::vector<float> samples_;  // read from the ring
    std::vector<float> values_;   // drawn, evenly spread over [xFrom, xTo]
    DisplaySpectrum spectrum_;
    SpectrumPeak peak_;
    std::uint64_t lastWritten_ = 0;
    int span_ = 2048;
    QColor color_ = QColor(0x3b, 0x82, 0xf6);
    QColor gridColor_ = QColor(0, 0, 0, 30);
    double low_ = -1, high_ = 1, xFrom_ = 0, xTo_ = 1;
    QVariantList yTicks_, xTicks_;
    QString xUnit_ = "s";
};

}  // namespace isochron::ui
