// The title strip of a side panel.
import QtQuick

Rectangle {
    property string title
    default property alias tools: toolRow.data
    implicitHeight: 34
    color: Theme.panelHeader
    Text {
        x: 12; anchors.verticalCenter: parent.verticalCenter
        text: parent.title
        font.pixelSize: Theme.fontSize
        font.weight: Font.DemiBold
        color: Theme.text
    }
    Row {
        id: toolRow
        anchors.right: parent.right; anchors.rightMargin: 6
        anchors.verticalCenter: parent.verticalCenter
        spacing: 2
    }
    Rectangle { anchors.bottom: parent.bottom; width: parent.width; height: 1; color: Theme.border }
}
