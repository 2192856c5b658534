// A short message at a point on the canvas (why a wire was refused), fading after a few seconds.
import QtQuick

Rectangle {
    id: toast
    property alias text: label.text
    function show(message, point) {
        text = message
        x = Math.max(8, Math.min(parent.width - width - 8, point.x + 14))
        y = Math.max(8, Math.min(parent.height - height - 8, point.y + 14))
        opacity = 1
        hideTimer.restart()
    }
    objectName: "toast"
    width: Math.min(420, label.implicitWidth + 24)
    height: label.implicitHeight + 14
    radius: 6
    color: Theme.error
    opacity: 0
    visible: opacity > 0
    Behavior on opacity { NumberAnimation { duration: 180 } }
    Text {
        id: label
        anchors.centerIn: parent
        width: Math.min(396, implicitWidth)
        wrapMode: Text.WordWrap
        color: "white"
        font.pixelSize: Theme.smallFontSize + 1
    }
    Timer { id: hideTimer; interval: 4000; onTriggered: toast.opacity = 0 }
}
