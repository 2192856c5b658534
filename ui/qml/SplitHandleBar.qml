// A SplitView handle drawn as a 1 px border line (so it takes no room from the panels) that can be
// grabbed 3 px either side of it (its containmentMask) and lights up while hovered or dragged.
// `vertical`: the line runs top to bottom (a horizontal SplitView's handle).
import QtQuick
import QtQuick.Controls
import Isochron.Ui

Rectangle {
    id: handle
    property bool vertical: false
    readonly property bool active: SplitHandle.hovered || SplitHandle.pressed
    implicitWidth: 1
    implicitHeight: 1
    color: active ? Theme.accent : Theme.border
    containmentMask: Item {
        parent: handle
        objectName: "splitHandleGrip"
        x: handle.vertical ? -3 : 0
        y: handle.vertical ? 0 : -3
        width: handle.vertical ? 7 : handle.width
        height: handle.vertical ? handle.height : 7
    }
    Rectangle {  // thicker while active, without moving the panels
        visible: handle.active
        color: Theme.accent
        x: handle.vertical ? -1 : 0
        y: handle.vertical ? 0 : -1
        width: handle.vertical ? 3 : handle.width
        height: handle.vertical ? handle.height : 3
    }
}
