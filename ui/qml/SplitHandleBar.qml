// A SplitView handle wide enough to grab (6 px), drawn as a 1 px border line that lights up while
// hovered or dragged. `vertical`: the line runs top to bottom (a horizontal SplitView's handle).
import QtQuick
import QtQuick.Controls
import Isochron.Ui

Item {
    property bool vertical: false
    implicitWidth: 6
    implicitHeight: 6
    Rectangle {
        anchors.centerIn: parent
        width: parent.vertical ? (parent.SplitHandle.hovered || parent.SplitHandle.pressed ? 3 : 1) : parent.width
        height: parent.vertical ? parent.height : (parent.SplitHandle.hovered || parent.SplitHandle.pressed ? 3 : 1)
        color: parent.SplitHandle.hovered || parent.SplitHandle.pressed ? Theme.accent : Theme.border
    }
}
