// Says what a plugin reload did (added, removed, changed types), or why a new build was refused,
// at the top of the canvas.
import QtQuick
import Isochron.Ui

Toast {
    id: toast
    objectName: "pluginReloadToast"
    color: ok ? Theme.accent : Theme.error
    property bool ok: true
    Connections {
        target: PluginReloader
        function onReloaded(summary, ok) {
            toast.ok = ok
            toast.show(summary, Qt.point(0, 0))
            toast.x = Math.max(8, (toast.parent.width - toast.width) / 2)
        }
    }
}
