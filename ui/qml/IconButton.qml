// A flat tool button showing an Icon, with a tooltip naming the action and its shortcut.
import QtQuick
import QtQuick.Controls

ToolButton {
    id: button
    property string iconName
    property string tip
    property color iconColor: enabled ? Theme.text : Theme.textFaint
    implicitWidth: text.length > 0 ? implicitContentWidth + 20 : 32
    implicitHeight: 30
    contentItem: Row {
        spacing: 6
        Icon {
            anchors.verticalCenter: parent.verticalCenter
            name: button.iconName
            size: 17
            color: button.iconColor
        }
        Text {
            anchors.verticalCenter: parent.verticalCenter
            visible: button.text.length > 0
            text: button.text
            color: button.enabled ? Theme.text : Theme.textFaint
            font.pixelSize: Theme.fontSize
        }
    }
    background: Rectangle {
        radius: 5
        color: button.checked ? Theme.accentSoft : (button.down ? Theme.border : (button.hovered ? Theme.hover : "transparent"))
    }
    ToolTip.visible: hovered && tip.length > 0
    ToolTip.delay: 500
    ToolTip.text: tip
}
