// A flat tab: its label, underlined in the accent colour when current.
import QtQuick
import QtQuick.Controls

TabButton {
    id: tab
    width: implicitWidth
    padding: 14
    topPadding: 8
    bottomPadding: 8
    contentItem: Text {
        text: tab.text
        font.pixelSize: Theme.fontSize
        font.weight: tab.checked ? Font.DemiBold : Font.Normal
        color: tab.checked ? Theme.text : Theme.textDim
        horizontalAlignment: Text.AlignHCenter
    }
    background: Rectangle {
        color: tab.hovered && !tab.checked ? Theme.hover : "transparent"
        Rectangle { anchors.bottom: parent.bottom; width: parent.width; height: 2; color: tab.checked ? Theme.accent : "transparent" }
    }
}
