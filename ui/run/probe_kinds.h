// The kinds of probe the editor offers on a wire. Every kind reads the same ring (ProbeTap copies
// the wire's values into it); a kind says which wires it can show and which QML view draws it.
// A new kind is one row in probeKinds() plus its view, a file ui/qml/<view>.qml whose root has
// `property string probe` (the ring's key), `property RunController run` and a `plot` with
// `hasData` and a `dataChanged()` signal (ProbeCard says "waiting for data…" until it has some).
#pragma once

#include <QString>

#include <string>
#include <vector>

namespace isochron::ui {

/// One kind of probe. [immutable]
struct ProbeKind {
    QString name;                    ///< as RunController::addProbe takes it: "scope", "spectrum", "waterfall", "level"
    QString label;                   ///< for menus and titles: "Scope"
    QString view;                    ///< the QML component that draws it (ui/qml/<view>.qml)
    std::vector<std::string> types;  ///< the port types it shows
    QString shows;                   ///< those types in words, for refusals: "signal<f32> wires"
};

/// Every kind, in menu order. [any thread]
const std::vector<ProbeKind>& probeKinds();
/// The kind called `name`, or nullptr. [any thread]
const ProbeKind* findProbeKind(const QString& name);

}  // namespace isochron::ui
