// --measure-pan-zoom: moves the canvas view on every frame for a while and reports the frame rate
// the window sustained, to check the editor stays smooth on big graphs.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QQuickWindow>

#include <vector>

namespace isochron::editor {

/// Pans and zooms `canvas` each frame for `seconds`, then prints frames per second and the slowest
/// frame times and quits. [ui thread]
class ViewBenchmark : public QObject {
public:
    ViewBenchmark(QQuickWindow* window, QObject* canvas, double seconds);

private:
    void onFrame();
    QPointer<QQuickWindow> window_;
    QPointer<QObject> canvas_;
    double seconds_;
    QElapsedTimer clock_;
    std::vector<double> frameMs_;
    double lastMs_ = 0;
};

}  // namespace isochron::editor
