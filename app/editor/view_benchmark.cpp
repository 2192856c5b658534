#include "app/editor/view_benchmark.h"

#include <QCoreApplication>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace isochron::editor {

ViewBenchmark::ViewBenchmark(QQuickWindow* window, QObject* canvas, double seconds)
    : QObject(window), window_(window), canvas_(canvas), seconds_(seconds) {
    // Start once the window has settled (file opened, fitted).
    QTimer::singleShot(1500, this, [this] {
        clock_.start();
        connect(window_, &QQuickWindow::frameSwapped, this, &ViewBenchmark::onFrame, Qt::QueuedConnection);
        window_->update();
    });
}

void ViewBenchmark::onFrame() {
    const double now = static_cast<double>(clock_.nsecsElapsed()) / 1e6;
    if (lastMs_ > 0) frameMs_.push_back(now - lastMs_);
    lastMs_ = now;
    if (now >= seconds_ * 1000) {
        disconnect(window_, &QQuickWindow::frameSwapped, this, &ViewBenchmark::onFrame);
        std::vector<double> sorted = frameMs_;
        std::sort(sorted.begin(), sorted.end());
        const double fps = static_cast<double>(frameMs_.size()) / (now / 1000.0);
        const double p50 = sorted.empty() ? 0 : sorted[sorted.size() / 2];
        const double p99 = sorted.empty() ? 0 : sorted[std::min(sorted.size() - 1, sorted.size() * 99 / 100)];
        qInfo("isochron: pan/zoom %.1f frames/s over %.1f s (frame time p50 %.1f ms, p99 %.1f ms)", fps, now / 1000.0, p50, p99);
        QCoreApplication::quit();
        return;
    }
    // A slow zoom between 40% and 140% while panning in a circle.
    const double t = now / 1000.0;
    canvas_->setProperty("zoom", 0.9 + 0.5 * std::sin(t * 1.3));
    canvas_->setProperty("panX", 200 + 300 * std::cos(t * 0.9));
    canvas_->setProperty("panY", 150 + 200 * std::sin(t * 0.9));
    window_->update();
}

}  // namespace isochron::editor
