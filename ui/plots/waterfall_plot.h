// A waterfall probe's plot: every redraw (30 a second) that finds new samples in the probe's ring
// transforms the newest of them (as the spectrum probe does, DisplaySpectrum) and adds the spectrum
// as a row of colour at the top, so recent spectra scroll down. Frequency runs across, from 0 Hz to
// half the rate; QML labels it from xTicks and draws the dB colour scale from low and high.
#pragma once

#include <QQuickItem>
#include <QTimer>
#include <QVariantList>
#include <QVariantMap>

#include <memory>
#include <vector>

#include "ui/plots/display_spectrum.h"
#include "ui/plots/waterfall_rows.h"

namespace isochron::ui {

class ProbeRing;

/// One waterfall probe's plot. [ui thread; updatePaintNode on the render thread while the ui thread waits]
class WaterfallPlot : public QQuickItem {
    Q_OBJECT
    QML_ELEMENT
    /// Key of the probe's ring (RunController.probes[i].key).
    Q_PROPERTY(QString probe READ probe WRITE setProbe NOTIFY probeChanged)
    /// Samples per spectrum (64 ... 32768, rounded down to a power of two).
    Q_PROPERTY(int span MEMBER span_ NOTIFY probeChanged)
    Q_PROPERTY(bool hasData READ hasData NOTIFY dataChanged)
    /// The dB range the colours span (black at low, pale yellow at high) and its round values.
    Q_PROPERTY(double low READ low NOTIFY dataChanged)
    Q_PROPERTY(double high READ high NOTIFY dataChanged)
    Q_PROPERTY(QVariantList levelTicks READ levelTicks NOTIFY dataChanged)
    /// Frequency across, in xUnit ("Hz", or "cycles/sample" without a rate), and its grid values.
    Q_PROPERTY(double xFrom READ xFrom NOTIFY dataChanged)
    Q_PROPERTY(double xTo READ xTo NOTIFY dataChanged)
    Q_PROPERTY(QVariantList xTicks READ xTicks NOTIFY dataChanged)
    Q_PROPERTY(QString xUnit READ xUnit NOTIFY dataChanged)
    /// Seconds of stream between the oldest row shown and the newest (0 without a rate).
    Q_PROPERTY(double historySeconds READ historySeconds NOTIFY dataChanged)
    /// Rows kept (one per redraw with new samples) and rows filled so far.
    Q_PROPERTY(int rows READ rows CONSTANT)
    Q_PROPERTY(int filledRows READ filledRows NOTIFY dataChanged)
public:
    explicit WaterfallPlot(QQuickItem* parent = nullptr);

    QString probe() const { return probe_; }
    void setProbe(const QString& key);
    bool hasData() const { return rows_.filled() > 0; }
    double low() const { return low_; }
    double high() const { return high_; }
    QVariantList levelTicks() const { return levelTicks_; }
    double xFrom() const { return 0; }
    double xTo() const { return xTo_; }
    QVariantList xTicks() const { return xTicks_; }
    QString xUnit() const { return xUnit_; }
    double historySeconds() const { return historySeconds_; }
    int rows() const { return kRows; }
    int filledRows() const { return rows_.filled(); }

    /// What is drawn at pixel (px, py): {x (frequency in xUnit), y (dB), age (seconds before the
    /// newest row)}; empty where no row is drawn.
    Q_INVOKABLE QVariantMap readingAt(qreal px, qreal py) const;
    /// Horizontal pixel of frequency `x` (in xUnit).
    Q_INVOKABLE qreal pixelOfX(double x) const;

Q_SIGNALS:
    void probeChanged();
    void dataChanged();

protected:
    QSGNode* updatePaintNode(QSGNode* old, UpdatePaintNodeData* data) override;

private:
    static constexpr int kRows = 160;
    void poll();
    QString probe_;
    std::shared_ptr<ProbeRing> ring_;
    QTimer timer_;
    std::vector<float> samples_;  // read from the ring
    std::vector<float> spectrum_;
    DisplaySpectrum transform_;
    WaterfallRows rows_{kRows};
    std::uint64_t lastWritten_ = 0;
    bool imageChanged_ = false;
    int span_ = 1024;
    double low_ = -100, high_ = 0, xTo_ = 0.5, historySeconds_ = 0;
    QVariantList levelTicks_, xTicks_;
    QString xUnit_ = "Hz";
};

}  // namespace isochron::ui
