// The scope probe: the newest values of a wire against time (signals), index (the newest frame)
// or arrival (scalars).
import QtQuick
import Isochron.Ui

ProbeAxes {
    kind: "scope"
    color: Theme.accent
}
