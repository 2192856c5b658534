// A probe's view: the newest samples flowing through a wire as a waveform (scope), or the newest
// frame as a spectrum, read from the probe's lock-free ring 30 times a second and drawn as one
// decimated ribbon on scene-graph geometry.
#pragma once

#include <QColor>
#include <QQuickItem>
#include <QTimer>

#include <memory>
#include <vector>

namespace isochron::ui {

class ProbeRing;

/// One probe's plot. [ui thread; updatePaintNode on the render thread while the ui thread waits]
class ProbePlot : public QQuickItem {
    Q_OBJECT
    QML_ELEMENT
    /// Key of the probe's ring (RunController.probes[i].key).
    Q_PROPERTY(QString probe READ probe WRITE setProbe NOTIFY probeChanged)
    /// Samples shown by a scope.
    Q_PROPERTY(int span MEMBER span_ NOTIFY probeChanged)
    Q_PROPERTY(QColor color MEMBER color_ NOTIFY probeChanged)
    Q_PROPERTY(QColor gridColor MEMBER gridColor_ NOTIFY probeChanged)
    /// "scope" or "spectrum" (the ring holds frames), and the range drawn, for labels.
    Q_PROPERTY(QString mode READ mode NOTIFY dataChanged)
    Q_PROPERTY(double low READ low NOTIFY dataChanged)
    Q_PROPERTY(double high READ high NOTIFY dataChanged)
    /// Scope: seconds shown; spectrum: highest frequency (Hz); 0 when the rate is unknown.
    Q_PROPERTY(double extent READ extent NOTIFY dataChanged)
    Q_PROPERTY(bool hasData READ hasData NOTIFY dataChanged)
public:
    explicit ProbePlot(QQuickItem* parent = nullptr);

    QString probe() const { return probe_; }
    void setProbe(const QString& key);
    QString mode() const { return mode_; }
    double low() const { return low_; }
    double high() const { return high_; }
    double extent() const { return extent_; }
    bool hasData() const { return !values_.empty(); }

Q_SIGNALS:
    void probeChanged();
    void dataChanged();

protected:
    QSGNode* updatePaintNode(QSGNode* old, UpdatePaintNodeData* data) override;

private:
    void poll();
    QString probe_;
    std::shared_ptr<ProbeRing> ring_;
    QTimer timer_;
    std::vector<float> values_;
    std::uint64_t lastWritten_ = 0;
    int span_ = 2048;
    QColor color_ = QColor(0x3b, 0x82, 0xf6);
    QColor gridColor_ = QColor(0, 0, 0, 30);
    QString mode_ = "scope";
    double low_ = -1, high_ = 1, extent_ = 0;
};

}  // namespace isochron::ui
